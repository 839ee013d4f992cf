/**
 * What the apiserver does with a CRD's schema, offline: apply defaults, evaluate every
 * `x-kubernetes-validations` rule with @bufbuild/cel (`self` = the value at that node, schema
 * integers as bigint like the apiserver's CEL `int`), and validate objects with ajv after
 * mapping the x-kubernetes markers. Used by `llsd validate` and by the CRD tests.
 */
import { isCelError, run } from "@bufbuild/cel";
import { strings } from "@bufbuild/cel/ext";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import type { Crd } from "./generate";
import { INT_OR_STRING, PRESERVE_UNKNOWN, VALIDATIONS, type JsonSchemaProps, type ValidationRule } from "./structural";

export function versionSchema(crd: Crd, version: string): JsonSchemaProps {
  const found = crd.spec.versions.find((v) => v.name === version);
  if (!found) throw new Error(`the CRD has no version ${version}`);
  return found.schema.openAPIV3Schema;
}

type Props = { readonly [k: string]: JsonSchemaProps };
const propsOf = (node: JsonSchemaProps): Props => (node.properties ?? {}) as Props;
const isObject = (v: unknown): v is { [k: string]: unknown } =>
  typeof v === "object" && v !== null && !Array.isArray(v);

export interface RuleSite {
  /** Dotted path from the version root: `spec.storage.kv`, `[*]` for list items, `{*}` for map values. */
  readonly path: string;
  readonly node: JsonSchemaProps;
  readonly rules: readonly ValidationRule[];
}

/** Every schema node that carries rules. */
export function ruleSites(schema: JsonSchemaProps, path = ""): RuleSite[] {
  const here: RuleSite[] = Array.isArray(schema[VALIDATIONS])
    ? [{ path, node: schema, rules: schema[VALIDATIONS] as ValidationRule[] }]
    : [];
  const join = (name: string): string => (path === "" ? name : `${path}.${name}`);
  return [
    ...here,
    ...Object.entries(propsOf(schema)).flatMap(([name, sub]) => ruleSites(sub, join(name))),
    ...(isObject(schema.items) ? ruleSites(schema.items as JsonSchemaProps, `${path}[*]`) : []),
    ...(isObject(schema.additionalProperties)
      ? ruleSites(schema.additionalProperties as JsonSchemaProps, `${path}{*}`)
      : []),
  ];
}

/** The apiserver's defaulting: a missing property with a `default` gets it, recursively. Returns a copy. */
export function applyDefaults(schema: JsonSchemaProps, value: unknown): unknown {
  if (Array.isArray(value)) {
    return isObject(schema.items)
      ? value.map((v) => applyDefaults(schema.items as JsonSchemaProps, v))
      : structuredClone(value);
  }
  if (!isObject(value)) return value;
  const out: { [k: string]: unknown } = {};
  const properties = propsOf(schema);
  for (const [k, v] of Object.entries(value)) {
    const sub =
      properties[k] ??
      (isObject(schema.additionalProperties) ? (schema.additionalProperties as JsonSchemaProps) : undefined);
    out[k] = sub ? applyDefaults(sub, v) : structuredClone(v);
  }
  for (const [k, sub] of Object.entries(properties)) {
    if (out[k] === undefined && sub.default !== undefined) out[k] = applyDefaults(sub, structuredClone(sub.default));
  }
  return out;
}

/** JSON → what the apiserver hands CEL: schema integers (and int-or-string numbers) become bigint. */
export function toCel(schema: JsonSchemaProps | undefined, value: unknown): unknown {
  if (
    typeof value === "number" &&
    Number.isInteger(value) &&
    (schema?.type === "integer" || schema?.[INT_OR_STRING] === true)
  ) {
    return BigInt(value);
  }
  if (Array.isArray(value))
    return value.map((v) => toCel(isObject(schema?.items) ? (schema?.items as JsonSchemaProps) : undefined, v));
  if (isObject(value)) {
    const properties = schema ? propsOf(schema) : {};
    const extra = isObject(schema?.additionalProperties)
      ? (schema?.additionalProperties as JsonSchemaProps)
      : undefined;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toCel(properties[k] ?? extra, v)]));
  }
  return value;
}

/** One rule on one value: true (valid), false (rejected with the message), or the CEL error. */
export function evaluate(rule: ValidationRule, node: JsonSchemaProps, self: unknown): boolean | Error {
  const result = run(rule.rule, { self: toCel(node, self) as never }, { funcs: strings });
  if (isCelError(result)) return result;
  if (typeof result !== "boolean") return new Error(`rule "${rule.rule}" returned ${typeof result}, not bool`);
  return result;
}

export interface RuleFailure {
  readonly path: string;
  readonly message: string;
  readonly rule: string;
  readonly error?: string;
}

/**
 * Every rule of the version schema evaluated on the object, after defaulting, at every node
 * the object has: what the apiserver would reject. `evaluated` counts the rules that ran.
 */
export function celFailures(schema: JsonSchemaProps, object: unknown): { failures: RuleFailure[]; evaluated: number } {
  const failures: RuleFailure[] = [];
  let evaluated = 0;
  const visit = (node: JsonSchemaProps, value: unknown, path: string): void => {
    if (value === undefined || value === null) return;
    for (const rule of (node[VALIDATIONS] ?? []) as ValidationRule[]) {
      evaluated += 1;
      const result = evaluate(rule, node, value);
      if (result !== true) {
        failures.push({
          path,
          message: rule.message,
          rule: rule.rule,
          ...(result instanceof Error ? { error: result.message } : {}),
        });
      }
    }
    if (Array.isArray(value) && isObject(node.items))
      value.forEach((v, i) => visit(node.items as JsonSchemaProps, v, `${path}[${i}]`));
    if (!isObject(value)) return;
    const properties = propsOf(node);
    for (const [k, v] of Object.entries(value)) {
      const sub =
        properties[k] ??
        (isObject(node.additionalProperties) ? (node.additionalProperties as JsonSchemaProps) : undefined);
      if (sub) visit(sub, v, path === "" ? k : `${path}.${k}`);
    }
  };
  visit(schema, applyDefaults(schema, object), "");
  return { failures, evaluated };
}

// ---------------------------------------------------------------------------------------------
// ajv over the structural schema.

const X_MARKERS = [
  INT_OR_STRING,
  PRESERVE_UNKNOWN,
  VALIDATIONS,
  "x-kubernetes-list-type",
  "x-kubernetes-list-map-keys",
  "x-kubernetes-map-type",
];

/**
 * The structural schema as plain JSON Schema: int-or-string keeps its anyOf, an untyped
 * preserve-unknown node accepts anything, a typed object without preserve-unknown rejects
 * unknown fields (the apiserver would prune them; `kubectl apply` refuses them).
 */
export function toAjvSchema(node: JsonSchemaProps): JsonSchemaProps {
  const out: JsonSchemaProps = {};
  for (const [k, v] of Object.entries(node)) {
    if (X_MARKERS.includes(k)) continue;
    if (k === "properties")
      out.properties = Object.fromEntries(Object.entries(v as Props).map(([name, sub]) => [name, toAjvSchema(sub)]));
    else if (k === "items" || k === "additionalProperties") out[k] = toAjvSchema(v as JsonSchemaProps);
    else out[k] = v;
  }
  if (
    node.type === "object" &&
    node[PRESERVE_UNKNOWN] !== true &&
    node.additionalProperties === undefined &&
    node.properties !== undefined
  ) {
    out.additionalProperties = false;
  }
  return out;
}

// strictTypes off: an int-or-string node keeps `pattern` beside its anyOf, as in Kubernetes.
const ajv = addFormats(new Ajv({ allErrors: true, strict: true, strictTypes: false }));
const compiled = new WeakMap<JsonSchemaProps, ReturnType<typeof ajv.compile>>();

/** ajv errors of an object against a version's structural schema, as `path: message`. */
export function structuralErrors(schema: JsonSchemaProps, object: unknown): string[] {
  let validateFn = compiled.get(schema);
  if (!validateFn) {
    validateFn = ajv.compile(toAjvSchema(schema));
    compiled.set(schema, validateFn);
  }
  if (validateFn(object)) return [];
  return (validateFn.errors ?? []).map(
    (e) =>
      `${e.instancePath || "/"}: ${e.message ?? e.keyword}${e.keyword === "additionalProperties" ? ` (${String(e.params.additionalProperty)})` : ""}`,
  );
}

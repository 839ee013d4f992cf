/**
 * What the apiserver does with a CRD's schema, offline: apply defaults, evaluate every
 * `x-kubernetes-validations` rule with @bufbuild/cel (`self` = the value at that node, schema
 * integers as bigint like the apiserver's CEL `int`), and validate objects with ajv after
 * mapping the x-kubernetes markers. Used by `llsd validate` and by the CRD tests.
 */
import { isCelError, run, type CelInput } from "@bufbuild/cel";
import { strings } from "@bufbuild/cel/ext";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import { isPlainObject, type JsonMap } from "../json";
import type { Crd } from "./generate";
import { KUBERNETES_CEL } from "./kubernetes-cel";
import {
  fieldSchema,
  INT_OR_STRING,
  PRESERVE_UNKNOWN,
  rulesOf,
  schemaEntries,
  subschema,
  VALIDATIONS,
  type JsonSchemaProps,
  type ValidationRule,
} from "./schema-node";

export function versionSchema(crd: Crd, version: string): JsonSchemaProps {
  const found = crd.spec.versions.find((v) => v.name === version);
  if (!found) throw new Error(`the CRD has no version ${version}`);
  return found.schema.openAPIV3Schema;
}

export interface RuleSite {
  /** Dotted path from the version root: `spec.storage.kv`, `[*]` for list items, `{*}` for map values. */
  readonly path: string;
  readonly node: JsonSchemaProps;
  readonly rules: readonly ValidationRule[];
}

/** Every schema node that carries rules. */
export function ruleSites(schema: JsonSchemaProps, path = ""): RuleSite[] {
  const here: RuleSite[] = Array.isArray(schema[VALIDATIONS]) ? [{ path, node: schema, rules: rulesOf(schema) }] : [];
  const join = (name: string): string => (path === "" ? name : `${path}.${name}`);
  const items = subschema(schema, "items");
  const values = subschema(schema, "additionalProperties");
  return [
    ...here,
    ...schemaEntries(schema).flatMap(([name, sub]) => ruleSites(sub, join(name))),
    ...(items ? ruleSites(items, `${path}[*]`) : []),
    ...(values ? ruleSites(values, `${path}{*}`) : []),
  ];
}

/** The apiserver's defaulting: a missing property with a `default` gets it, recursively. Returns a copy. */
export function applyDefaults(schema: JsonSchemaProps, value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = subschema(schema, "items");
    return items ? value.map((v: unknown) => applyDefaults(items, v)) : structuredClone(value);
  }
  if (!isPlainObject(value)) return value;
  const out: JsonMap = {};
  for (const [k, v] of Object.entries(value)) {
    const sub = fieldSchema(schema, k);
    out[k] = sub ? applyDefaults(sub, v) : structuredClone(v);
  }
  for (const [k, sub] of schemaEntries(schema)) {
    if (out[k] === undefined && sub.default !== undefined) out[k] = applyDefaults(sub, structuredClone(sub.default));
  }
  return out;
}

/**
 * JSON → what the apiserver hands CEL: schema integers (and int-or-string numbers) become bigint.
 * Like JSON, an undefined field is left out and an undefined list item is null; undefined means
 * the value is not JSON at all (CEL then sees no `self`).
 */
export function toCel(schema: JsonSchemaProps | undefined, value: unknown): CelInput | undefined {
  if (typeof value === "number") return Number.isInteger(value) && holdsInt(schema) ? BigInt(value) : value;
  if (Array.isArray(value)) {
    const items = subschema(schema, "items");
    return value.map((v: unknown) => toCel(items, v) ?? null);
  }
  return isPlainObject(value) ? celMap(schema, value) : celScalar(value);
}

function celMap(schema: JsonSchemaProps | undefined, value: JsonMap): { [key: string]: CelInput } {
  const fields = Object.entries(value).flatMap(([k, v]): [string, CelInput][] => {
    const input = toCel(fieldSchema(schema, k), v);
    return input === undefined ? [] : [[k, input]];
  });
  return Object.fromEntries(fields);
}

function celScalar(value: unknown): CelInput | undefined {
  const scalar = value === null || typeof value === "string" || typeof value === "boolean" || typeof value === "bigint";
  return scalar ? value : undefined;
}

const holdsInt = (schema: JsonSchemaProps | undefined): boolean =>
  schema?.type === "integer" || schema?.[INT_OR_STRING] === true;

/** CEL's strings extension and the Kubernetes library, as the apiserver offers them to CRD rules. */
const FUNCS = [...strings, ...KUBERNETES_CEL];

/** One rule on one value: true (valid), false (rejected with the message), or the CEL error. */
export function evaluate(rule: ValidationRule, node: JsonSchemaProps, self: unknown): boolean | Error {
  const input = toCel(node, self);
  const result = run(rule.rule, input === undefined ? {} : { self: input }, { funcs: FUNCS });
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

interface Tally {
  readonly failures: RuleFailure[];
  evaluated: number;
}

/**
 * Every rule of the version schema evaluated on the object, after defaulting, at every node
 * the object has: what the apiserver would reject. `evaluated` counts the rules that ran.
 */
export function celFailures(schema: JsonSchemaProps, object: unknown): { failures: RuleFailure[]; evaluated: number } {
  const tally: Tally = { failures: [], evaluated: 0 };
  visit(schema, applyDefaults(schema, object), "", tally);
  return { failures: tally.failures, evaluated: tally.evaluated };
}

function visit(node: JsonSchemaProps, value: unknown, path: string, tally: Tally): void {
  if (value === undefined || value === null) return;
  for (const rule of rulesOf(node)) {
    tally.evaluated += 1;
    const result = evaluate(rule, node, value);
    if (result === true) continue;
    tally.failures.push({
      path,
      message: rule.message,
      rule: rule.rule,
      ...(result instanceof Error ? { error: result.message } : {}),
    });
  }
  for (const [sub, v, at] of described(node, value, path)) visit(sub, v, at, tally);
}

/** The items or fields of `value` the schema describes: their schema, value and path. */
function described(node: JsonSchemaProps, value: unknown, path: string): [JsonSchemaProps, unknown, string][] {
  if (Array.isArray(value)) {
    const items = subschema(node, "items");
    return items ? value.map((v: unknown, i): [JsonSchemaProps, unknown, string] => [items, v, `${path}[${i}]`]) : [];
  }
  if (!isPlainObject(value)) return [];
  return Object.entries(value).flatMap(([k, v]): [JsonSchemaProps, unknown, string][] => {
    const sub = fieldSchema(node, k);
    return sub ? [[sub, v, path === "" ? k : `${path}.${k}`]] : [];
  });
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
  for (const [k, v] of Object.entries(node)) if (!X_MARKERS.includes(k)) out[k] = ajvKeyword(k, v);
  if (isClosedObject(node)) out.additionalProperties = false;
  return out;
}

/** One keyword's value, its sub-schemas mapped. */
function ajvKeyword(keyword: string, value: unknown): unknown {
  if (keyword === "properties" && isPlainObject(value))
    return Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, ajvSchema(sub)]));
  return keyword === "items" || keyword === "additionalProperties" ? ajvSchema(value) : value;
}

/** A sub-schema mapped; a value that is not a schema (`additionalProperties: false`) stays as it is. */
const ajvSchema = (value: unknown): unknown => (isPlainObject(value) ? toAjvSchema(value) : value);

/** A typed object with fields and without preserve-unknown: the apiserver prunes what else it is given. */
function isClosedObject(node: JsonSchemaProps): boolean {
  return (
    node.type === "object" &&
    node[PRESERVE_UNKNOWN] !== true &&
    node.additionalProperties === undefined &&
    node.properties !== undefined
  );
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

/**
 * JSON Schema (ajv, lib/api) → structural OpenAPI v3 schema (CRD `openAPIV3Schema`).
 *
 * A structural schema gives every node a type and keeps `type`, `description`, `default` and
 * `additionalProperties` out of `anyOf`/`oneOf`. So:
 * - a node marked `x-int-or-string` becomes `x-kubernetes-int-or-string: true` with the one
 *   `anyOf` the apiserver accepts (value checks of the branches move up, like controller-gen);
 * - a `oneOf`/`anyOf` of closed objects with disjoint fields (a Secret reference `{name, key}` |
 *   `{secretKeyRef}`) becomes one typed object holding every field, plus CEL rules that allow
 *   exactly one form — typed, so rules on the parent can name it;
 * - any other `oneOf`/`anyOf` (object | list, string | object, bool | object) becomes an untyped
 *   `x-kubernetes-preserve-unknown-fields: true` node: the apiserver stores it as written, and
 *   `/validate` and `/sync` check it against the JSON Schema;
 * - `x-preserve-unknown` becomes `x-kubernetes-preserve-unknown-fields: true`;
 * - `additionalProperties: false` is dropped: the apiserver prunes unknown fields instead.
 * A keyword with no structural form throws, so a schema change cannot slip through unconverted.
 */
import { INT_OR_STRING_MARK, PRESERVE_UNKNOWN_MARK, type Schema } from "../api/schema-parts";

/** One node of an `openAPIV3Schema` (apiextensions.k8s.io/v1 JSONSchemaProps). */
export type JsonSchemaProps = { [keyword: string]: unknown };

/** An entry of `x-kubernetes-validations`. */
export interface ValidationRule {
  readonly rule: string;
  readonly message: string;
  /** Where the apiserver reports the error, relative to the node (`.endpoint`). */
  readonly fieldPath?: string;
  readonly reason?: "FieldValueInvalid" | "FieldValueRequired" | "FieldValueForbidden" | "FieldValueDuplicate";
}

export const INT_OR_STRING = "x-kubernetes-int-or-string";
export const PRESERVE_UNKNOWN = "x-kubernetes-preserve-unknown-fields";
export const VALIDATIONS = "x-kubernetes-validations";

/** Value validations that mean the same in JSON Schema and in a structural schema. */
const VALUE_KEYWORDS = [
  "enum",
  "default",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "minItems",
  "maxItems",
  "minProperties",
  "maxProperties",
] as const;
const CONVERTIBLE = new Set<string>([
  "type",
  "description",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "oneOf",
  "anyOf",
  INT_OR_STRING_MARK,
  PRESERVE_UNKNOWN_MARK,
  ...VALUE_KEYWORDS,
]);
const SCALARS = new Set(["string", "integer", "number", "boolean"]);
/** Field names CEL can select without escaping (`self.name`). */
const CEL_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const CEL_RESERVED = new Set([
  "true",
  "false",
  "null",
  "in",
  "as",
  "break",
  "const",
  "continue",
  "else",
  "for",
  "function",
  "if",
  "import",
  "let",
  "loop",
  "package",
  "namespace",
  "return",
  "var",
  "void",
  "while",
]);

export function toStructural(schema: Schema, where: string): JsonSchemaProps {
  for (const keyword of Object.keys(schema)) {
    if (!CONVERTIBLE.has(keyword)) throw new Error(`${where}: JSON Schema keyword "${keyword}" has no structural form`);
  }
  if (schema[INT_OR_STRING_MARK] === true) return intOrString(schema, where);
  const union = (schema.oneOf ?? schema.anyOf) as readonly Schema[] | undefined;
  if (union !== undefined) return unionOf(schema, union, where);
  switch (schema.type) {
    case "object":
      return objectOf(schema, where);
    case "array":
      return arrayOf(schema, where);
    default:
      if (typeof schema.type === "string" && SCALARS.has(schema.type))
        return withValues({ type: schema.type, ...describe(schema) }, schema);
      throw new Error(`${where}: a node needs a type, "${String(schema.type)}" is not one`);
  }
}

function describe(schema: Schema): { description?: string } {
  return typeof schema.description === "string" ? { description: schema.description } : {};
}

function withValues(out: JsonSchemaProps, schema: Schema): JsonSchemaProps {
  for (const k of VALUE_KEYWORDS) if (schema[k] !== undefined) out[k] = structuredClone(schema[k]);
  return out;
}

/** The one int-or-string form a structural schema allows; the branches' checks move up. */
function intOrString(schema: Schema, where: string): JsonSchemaProps {
  const branches = (schema.anyOf ?? schema.oneOf) as readonly Schema[] | undefined;
  const types = (branches ?? []).map((b) => b.type).sort();
  if (types.join() !== "integer,string")
    throw new Error(`${where}: ${INT_OR_STRING_MARK} needs anyOf [integer, string]`);
  const out: JsonSchemaProps = {
    ...describe(schema),
    anyOf: [{ type: "integer" }, { type: "string" }],
    [INT_OR_STRING]: true,
  };
  for (const branch of branches ?? []) {
    for (const k of VALUE_KEYWORDS) {
      if (branch[k] === undefined) continue;
      if (out[k] !== undefined) throw new Error(`${where}: both int-or-string branches set "${k}"`);
      out[k] = structuredClone(branch[k]);
    }
  }
  return withValues(out, schema);
}

function isClosedObject(s: Schema): boolean {
  return (
    s.type === "object" &&
    typeof s.properties === "object" &&
    (s.additionalProperties === undefined || s.additionalProperties === false) &&
    s[PRESERVE_UNKNOWN_MARK] === undefined
  );
}

function unionOf(schema: Schema, branches: readonly Schema[], where: string): JsonSchemaProps {
  const forms = branches.map((b) => Object.keys((b.properties ?? {}) as object));
  const fields = forms.flat();
  if (branches.length > 1 && branches.every(isClosedObject) && new Set(fields).size === fields.length) {
    return objectUnion(schema, branches, forms, where);
  }
  // Different types (or overlapping objects): the apiserver keeps the value as written.
  return { ...describe(schema), [PRESERVE_UNKNOWN]: true };
}

/** `{a, b}` | `{c}` → one object with a, b and c, and CEL rules for "exactly one form". */
function objectUnion(
  schema: Schema,
  branches: readonly Schema[],
  forms: readonly string[][],
  where: string,
): JsonSchemaProps {
  const properties: JsonSchemaProps = {};
  for (const branch of branches) {
    for (const [name, sub] of Object.entries(branch.properties as { [k: string]: Schema })) {
      if (!CEL_IDENTIFIER.test(name) || CEL_RESERVED.has(name))
        throw new Error(`${where}.${name}: not a plain CEL identifier`);
      properties[name] = toStructural(sub, `${where}.${name}`);
    }
  }
  const present = forms.map((form) => form.map((f) => `has(self.${f})`).join(" || "));
  const exactlyOne =
    present.length === 2
      ? `(${present[0]}) != (${present[1]})`
      : `[${present.map((p) => `(${p})`).join(", ")}].filter(x, x).size() == 1`;
  const rules: ValidationRule[] = [
    {
      rule: exactlyOne,
      message: `set exactly one form: ${forms.map((f) => f.join(" and ")).join(", or ")}`,
    },
  ];
  branches.forEach((branch, i) => {
    const required = (branch.required ?? []) as readonly string[];
    const form = forms[i] ?? [];
    if (required.length === 0 || (required.length === 1 && form.length === 1)) return;
    rules.push({
      rule: `!(${present[i]}) || (${required.map((f) => `has(self.${f})`).join(" && ")})`,
      message:
        required.length === form.length
          ? `${required.join(" and ")} must be set together`
          : `${required.join(" and ")} required when any of ${form.join(", ")} is set`,
    });
  });
  return { type: "object", ...describe(schema), properties, [VALIDATIONS]: rules };
}

function objectOf(schema: Schema, where: string): JsonSchemaProps {
  const out: JsonSchemaProps = { type: "object", ...describe(schema) };
  const properties = schema.properties as { [k: string]: Schema } | undefined;
  if (properties !== undefined) {
    out.properties = Object.fromEntries(
      Object.entries(properties).map(([k, s]) => [k, toStructural(s, `${where}.${k}`)]),
    );
  }
  if (Array.isArray(schema.required) && schema.required.length > 0) out.required = [...(schema.required as string[])];
  const extra = schema.additionalProperties;
  if (typeof extra === "object" && extra !== null) {
    if (properties !== undefined)
      throw new Error(`${where}: properties and an additionalProperties schema cannot both be structural`);
    out.additionalProperties = toStructural(extra as Schema, `${where}[*]`);
  } else if (extra === true) {
    throw new Error(`${where}: additionalProperties: true; use ${PRESERVE_UNKNOWN_MARK}`);
  }
  if (schema[PRESERVE_UNKNOWN_MARK] === true) out[PRESERVE_UNKNOWN] = true;
  return withValues(out, schema);
}

function arrayOf(schema: Schema, where: string): JsonSchemaProps {
  if (typeof schema.items !== "object" || schema.items === null)
    throw new Error(`${where}: an array needs an items schema`);
  return withValues(
    { type: "array", ...describe(schema), items: toStructural(schema.items as Schema, `${where}[*]`) },
    schema,
  );
}

// ---------------------------------------------------------------------------------------------
// The structural rules, checked on the generated schema (the apiserver rejects a CRD that breaks one).

const ALLOWED = new Set<string>([
  "type",
  "description",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "anyOf",
  "oneOf",
  "allOf",
  "not",
  "nullable",
  "title",
  INT_OR_STRING,
  PRESERVE_UNKNOWN,
  VALIDATIONS,
  "x-kubernetes-embedded-resource",
  "x-kubernetes-list-type",
  "x-kubernetes-list-map-keys",
  "x-kubernetes-map-type",
  ...VALUE_KEYWORDS,
]);
/** Forbidden inside anyOf/oneOf/allOf/not (value validations only). */
const NOT_IN_VALUE_VALIDATION = [
  "type",
  "description",
  "default",
  "additionalProperties",
  "nullable",
  INT_OR_STRING,
  PRESERVE_UNKNOWN,
  VALIDATIONS,
];
const REASONS = new Set(["FieldValueInvalid", "FieldValueRequired", "FieldValueForbidden", "FieldValueDuplicate"]);
const TYPES = new Set(["object", "array", "string", "integer", "number", "boolean"]);

function isIntOrStringAnyOf(anyOf: unknown): boolean {
  return JSON.stringify(anyOf) === JSON.stringify([{ type: "integer" }, { type: "string" }]);
}

/** Every way `schema` breaks the structural-schema rules; empty when the apiserver would accept it. */
export function structuralProblems(schema: JsonSchemaProps, path = "openAPIV3Schema"): string[] {
  const problems: string[] = [];
  checkNode(schema, path, problems);
  const metadata = (schema.properties as { [k: string]: JsonSchemaProps } | undefined)?.metadata;
  if (metadata !== undefined && JSON.stringify(metadata) !== JSON.stringify({ type: "object" })) {
    problems.push(`${path}.properties.metadata: the root metadata schema must be exactly {type: object}`);
  }
  if (schema.type !== "object") problems.push(`${path}: the root must be type object`);
  return problems;
}

function checkNode(node: JsonSchemaProps, path: string, problems: string[]): void {
  for (const k of Object.keys(node)) if (!ALLOWED.has(k)) problems.push(`${path}: unknown keyword "${k}"`);
  const intOrStr = node[INT_OR_STRING] === true;
  const preserve = node[PRESERVE_UNKNOWN] === true;
  if (node.type === undefined) {
    if (!intOrStr && !preserve) problems.push(`${path}: type is required (or ${INT_OR_STRING} / ${PRESERVE_UNKNOWN})`);
  } else if (!TYPES.has(String(node.type))) {
    problems.push(`${path}: unknown type "${String(node.type)}"`);
  }
  if (intOrStr && node.type !== undefined) problems.push(`${path}: an int-or-string node has no type`);
  if (intOrStr && node.anyOf !== undefined && !isIntOrStringAnyOf(node.anyOf)) {
    problems.push(`${path}: an int-or-string anyOf must be exactly [{type: integer}, {type: string}]`);
  }
  for (const key of ["anyOf", "oneOf", "allOf"] as const) {
    const branches = node[key];
    if (branches === undefined) continue;
    if (intOrStr && key === "anyOf") continue;
    if (!Array.isArray(branches)) problems.push(`${path}.${key}: must be a list`);
    else branches.forEach((b, i) => checkValueValidation(b as JsonSchemaProps, `${path}.${key}[${i}]`, problems));
  }
  if (node.not !== undefined) checkValueValidation(node.not as JsonSchemaProps, `${path}.not`, problems);
  const properties = node.properties as { [k: string]: JsonSchemaProps } | undefined;
  if (properties !== undefined && node.additionalProperties !== undefined) {
    problems.push(`${path}: properties and additionalProperties are mutually exclusive`);
  }
  if (node.additionalProperties !== undefined && typeof node.additionalProperties !== "object") {
    problems.push(`${path}.additionalProperties: must be a schema`);
  }
  if (node.type === "array" && typeof node.items !== "object") problems.push(`${path}: an array needs items`);
  for (const name of (node.required ?? []) as string[]) {
    if (properties?.[name] === undefined) problems.push(`${path}: required field "${name}" is not a property`);
  }
  for (const [name, sub] of Object.entries(properties ?? {})) checkNode(sub, `${path}.properties.${name}`, problems);
  if (typeof node.items === "object" && node.items !== null)
    checkNode(node.items as JsonSchemaProps, `${path}.items`, problems);
  if (typeof node.additionalProperties === "object" && node.additionalProperties !== null) {
    checkNode(node.additionalProperties as JsonSchemaProps, `${path}.additionalProperties`, problems);
  }
  checkRules(node, path, problems);
}

function checkValueValidation(node: JsonSchemaProps, path: string, problems: string[]): void {
  for (const k of NOT_IN_VALUE_VALIDATION)
    if (node[k] !== undefined) problems.push(`${path}: "${k}" is not allowed inside anyOf/oneOf/allOf/not`);
  for (const key of ["anyOf", "oneOf", "allOf"] as const) {
    const branches = node[key];
    if (Array.isArray(branches))
      branches.forEach((b, i) => checkValueValidation(b as JsonSchemaProps, `${path}.${key}[${i}]`, problems));
  }
  for (const [name, sub] of Object.entries((node.properties ?? {}) as { [k: string]: JsonSchemaProps })) {
    checkValueValidation(sub, `${path}.properties.${name}`, problems);
  }
}

function checkRules(node: JsonSchemaProps, path: string, problems: string[]): void {
  const rules = node[VALIDATIONS];
  if (rules === undefined) return;
  if (node.type === undefined && node[INT_OR_STRING] !== true) {
    problems.push(`${path}: rules need a typed node (the apiserver gives an untyped node no CEL type)`);
  }
  if (!Array.isArray(rules) || rules.length === 0) {
    problems.push(`${path}: ${VALIDATIONS} must be a non-empty list`);
    return;
  }
  for (const [i, r] of (rules as ValidationRule[]).entries()) {
    const at = `${path}.${VALIDATIONS}[${i}]`;
    if (typeof r.rule !== "string" || r.rule.trim() === "") problems.push(`${at}: rule is required`);
    if (typeof r.message !== "string" || r.message.trim() === "" || /[\r\n]/.test(r.message))
      problems.push(`${at}: a one-line message is required`);
    if (r.reason !== undefined && !REASONS.has(r.reason)) problems.push(`${at}: unknown reason "${r.reason}"`);
    if (r.fieldPath !== undefined && resolveFieldPath(node, r.fieldPath) === undefined) {
      problems.push(`${at}: fieldPath "${r.fieldPath}" does not name a field of this node`);
    }
  }
}

/** `.a.b` → the schema of field b of field a; undefined when the path leaves the schema. */
export function resolveFieldPath(node: JsonSchemaProps, fieldPath: string): JsonSchemaProps | undefined {
  if (!/^(\.[A-Za-z_][A-Za-z0-9_]*)+$/.test(fieldPath)) return undefined;
  let at: JsonSchemaProps | undefined = node;
  for (const name of fieldPath.slice(1).split(".")) {
    at = (at?.properties as { [k: string]: JsonSchemaProps } | undefined)?.[name];
  }
  return at;
}

/** Object keys in alphabetical order, recursively (controller-gen's layout); list order is kept. */
export function sortKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(sortKeys) as T;
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sortKeys((value as { [k: string]: unknown })[k])]),
  ) as T;
}

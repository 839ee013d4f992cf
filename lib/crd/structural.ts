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
 *   `/validate` and `/sync` check it against the JSON Schema; for one object or a list of it,
 *   the node also describes the object's fields for `kubectl explain` (described.ts);
 * - `x-preserve-unknown` becomes `x-kubernetes-preserve-unknown-fields: true`;
 * - `x-list-map-keys` becomes `x-kubernetes-list-type: map` with those `x-kubernetes-list-map-keys`;
 * - `additionalProperties: false` is dropped: the apiserver prunes unknown fields instead.
 * A keyword with no structural form throws, so a schema change cannot slip through unconverted.
 * The structural rules themselves are checked on the result by structural-check.ts.
 */
import { INT_OR_STRING_MARK, LIST_MAP_KEYS_MARK, PRESERVE_UNKNOWN_MARK, type Schema } from "../api/schema-parts";
import { isPlainObject, stringList } from "../json";
import {
  INT_OR_STRING,
  PRESERVE_UNKNOWN,
  schemaEntries,
  schemaList,
  VALIDATIONS,
  type JsonSchemaProps,
  type ValidationRule,
} from "./schema-node";
import { VALUE_KEYWORDS } from "./structural-check";
import { describedOnly, objectOrListOf } from "./described";

export {
  INT_OR_STRING,
  PRESERVE_UNKNOWN,
  sortKeys,
  VALIDATIONS,
  type JsonSchemaProps,
  type ValidationRule,
} from "./schema-node";
export { resolveFieldPath, structuralProblems } from "./structural-check";

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
  LIST_MAP_KEYS_MARK,
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
  const union = schemaList(schema.oneOf ?? schema.anyOf);
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
  const branches = schemaList(schema.anyOf ?? schema.oneOf) ?? [];
  const types = branches.map((b) => b.type).sort();
  if (types.join() !== "integer,string")
    throw new Error(`${where}: ${INT_OR_STRING_MARK} needs anyOf [integer, string]`);
  const out: JsonSchemaProps = {
    ...describe(schema),
    anyOf: [{ type: "integer" }, { type: "string" }],
    [INT_OR_STRING]: true,
  };
  for (const branch of branches) {
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
  const forms = branches.map((b) => schemaEntries(b).map(([name]) => name));
  const fields = forms.flat();
  if (branches.length > 1 && branches.every(isClosedObject) && new Set(fields).size === fields.length) {
    return objectUnion(schema, branches, forms, where);
  }
  // Different types (or overlapping objects): the apiserver keeps the value as written.
  const kept: JsonSchemaProps = { ...describe(schema), [PRESERVE_UNKNOWN]: true };
  const one = objectOrListOf(branches);
  if (one === undefined) return kept;
  // One object or a list of them: its fields described for kubectl explain (described.ts says why only described).
  const described = schemaEntries(one).map(([k, s]) => [k, describedOnly(toStructural(s, `${where}.${k}`))] as const);
  return { ...kept, properties: Object.fromEntries(described) };
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
    for (const [name, sub] of schemaEntries(branch)) {
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
    const required = stringList(branch.required);
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
  if (schema.properties !== undefined) {
    out.properties = Object.fromEntries(schemaEntries(schema).map(([k, s]) => [k, toStructural(s, `${where}.${k}`)]));
  }
  const required = stringList(schema.required);
  if (required.length > 0) out.required = [...required];
  const values = mapValues(schema, where);
  if (values !== undefined) out.additionalProperties = values;
  if (schema[PRESERVE_UNKNOWN_MARK] === true) out[PRESERVE_UNKNOWN] = true;
  return withValues(out, schema);
}

/** The value schema of a map (`additionalProperties: {…}`); undefined for a closed object. */
function mapValues(schema: Schema, where: string): JsonSchemaProps | undefined {
  const extra = schema.additionalProperties;
  if (extra === true) throw new Error(`${where}: additionalProperties: true; use ${PRESERVE_UNKNOWN_MARK}`);
  if (!isPlainObject(extra)) return undefined;
  if (schema.properties !== undefined)
    throw new Error(`${where}: properties and an additionalProperties schema cannot both be structural`);
  return toStructural(extra, `${where}[*]`);
}

function arrayOf(schema: Schema, where: string): JsonSchemaProps {
  const items = schema.items;
  if (!isPlainObject(items)) throw new Error(`${where}: an array needs an items schema`);
  const out: JsonSchemaProps = { type: "array", ...describe(schema), items: toStructural(items, `${where}[*]`) };
  if (schema[LIST_MAP_KEYS_MARK] !== undefined) {
    const keys = stringList(schema[LIST_MAP_KEYS_MARK]);
    if (keys.length === 0) throw new Error(`${where}: ${LIST_MAP_KEYS_MARK} needs a list of field names`);
    Object.assign(out, { "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": [...keys] });
  }
  return withValues(out, schema);
}

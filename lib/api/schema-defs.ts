/**
 * The schemas are composed from shared JavaScript objects (a provider, a Secret reference…),
 * and the CRD needs them written out in full. ajv compiles a schema without `$ref` into one
 * function with every copy inlined: the v1alpha2 spec became ~500 KB of code, too large for
 * V8 to optimize, so every sync validated in the interpreter. For the quick validator, each
 * subschema used more than once, or large, becomes one `$defs` entry compiled into its own
 * small function (with ajv's `inlineRefs: false`). Verdicts are the same; error paths would
 * differ, so the validator that lists errors keeps the schema as written.
 */
import type { Schema } from "./schema-parts";

/** Smaller shared subschemas cost less inlined than a call. */
const MIN_SHARED_JSON = 200;
/** A subschema this large gets its own function even when used once. */
const MIN_OWN_JSON = 1500;

/** Keywords whose value is a subschema, a list of them, or a map of them. */
const ONE = ["items", "additionalProperties", "not"];
const LIST = ["oneOf", "anyOf", "allOf"];
const MAP = ["properties", "patternProperties"];

const isObject = (value: unknown): value is Schema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Every subschema of `schema` (not `schema` itself), with its keyword position. */
function subschemas(schema: Schema): Schema[] {
  const out: Schema[] = [];
  for (const [keyword, value] of Object.entries(schema)) {
    if (ONE.includes(keyword) && isObject(value)) out.push(value);
    else if (LIST.includes(keyword) && Array.isArray(value)) out.push(...value.filter(isObject));
    else if (MAP.includes(keyword) && isObject(value)) out.push(...Object.values(value).filter(isObject));
  }
  return out;
}

function usesOf(schema: Schema): Map<Schema, number> {
  const uses = new Map<Schema, number>();
  const visit = (s: Schema): void => {
    const seen = uses.get(s) ?? 0;
    uses.set(s, seen + 1);
    if (seen === 0) for (const sub of subschemas(s)) visit(sub);
  };
  for (const sub of subschemas(schema)) visit(sub);
  return uses;
}

/** `schema` with each shared or large subschema moved to `$defs`. */
export function withSharedDefs(schema: Schema): Schema {
  const names = new Map<Schema, string>();
  for (const [sub, count] of usesOf(schema)) {
    const size = JSON.stringify(sub).length;
    if (size >= (count > 1 ? MIN_SHARED_JSON : MIN_OWN_JSON)) names.set(sub, `s${names.size}`);
  }
  if (names.size === 0) return schema;
  const refOr = (sub: Schema): Schema => {
    const name = names.get(sub);
    return name !== undefined ? { $ref: `#/$defs/${name}` } : rewrite(sub);
  };
  const rewrite = (s: Schema): Schema => mapSubschemas(s, refOr);
  const defs: { [name: string]: Schema } = {};
  for (const [sub, name] of names) defs[name] = rewrite(sub);
  return { ...rewrite(schema), $defs: defs };
}

/** `schema` with each of its subschemas (not itself) replaced by `map(subschema)`. */
export function mapSubschemas(schema: Schema, map: (subschema: Schema) => Schema): Schema {
  const mapValue = (keyword: string, value: unknown): unknown => {
    if (ONE.includes(keyword) && isObject(value)) return map(value);
    if (LIST.includes(keyword) && Array.isArray(value)) return value.map((v: unknown) => (isObject(v) ? map(v) : v));
    if (MAP.includes(keyword) && isObject(value))
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isObject(v) ? map(v) : v]));
    return value;
  };
  return Object.fromEntries(Object.entries(schema).map(([keyword, value]) => [keyword, mapValue(keyword, value)]));
}

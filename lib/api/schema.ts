/**
 * Schema validation with ajv, reported as FieldErrors with dotted paths. `oneOf` failures are
 * narrowed to the branch whose type matches what the user wrote, so a mistyped field inside
 * a provider list reports that field, not "must match exactly one schema".
 */
import Ajv, { type ErrorObject, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { fieldError, type FieldError } from "../errors";
import { INT_OR_STRING_MARK, LIST_MAP_KEYS_MARK, PRESERVE_UNKNOWN_MARK, type Schema } from "./schema-parts";
import { withSharedDefs } from "./schema-defs";
import { V1ALPHA2_SPEC_SCHEMA } from "./schema-v1alpha2";
import type { LlsdSpecV1alpha2 } from "./v1alpha2";
import { didYouMean } from "../suggest";
import { isPlainObject } from "../json";
import { aliasHint } from "./field-aliases";

/** The fields of a provider entry; any other key is read as a Secret reference. */
const PROVIDER_FIELDS = ["id", "provider", "endpoint", "apiKey", "secretRefs", "settings"];

function objectSchema(apiVersion: string, spec: Schema): Schema {
  return {
    type: "object",
    properties: {
      apiVersion: { const: apiVersion },
      kind: { const: "LlamaStackDistribution" },
      metadata: { type: "object" },
      spec,
      status: { type: "object" },
    },
    required: ["apiVersion", "kind", "spec"],
  };
}

const KEYWORDS = [INT_OR_STRING_MARK, PRESERVE_UNKNOWN_MARK, LIST_MAP_KEYS_MARK];
/**
 * ajv's code optimizer (`code.optimize`) only tidies the generated code; on these schemas it
 * doubles the compile time (the spec schema: ~0.6 s → ~0.3 s without it, paid at startup)
 * and the validators it skips tidying run as fast (bench: one sync, same median).
 */
const CODE = { optimize: false };
/** Stops at the first error: the fast path every valid object takes on every sync. */
const firstError = addFormats(
  new Ajv({ allErrors: false, strict: true, keywords: KEYWORDS, code: CODE, inlineRefs: false }),
);
/** Collects every error, run only once an object is known to be invalid. */
const everyError = addFormats(
  new Ajv({ allErrors: true, verbose: true, strict: true, keywords: KEYWORDS, code: CODE }),
);

export interface CompiledSchema {
  readonly fast: ValidateFunction;
  readonly full: ValidateFunction;
}
const compiled = new Map<Schema, CompiledSchema>();

/**
 * Each validator is compiled on first use: compiling the v1alpha2 spec schema takes ajv about
 * half a second per variant, and `full` is only needed once some object is invalid.
 */
export function compile(schema: Schema): CompiledSchema {
  let fn = compiled.get(schema);
  if (!fn) {
    let fast: ValidateFunction | undefined;
    let full: ValidateFunction | undefined;
    fn = {
      get fast() {
        return (fast ??= firstError.compile(withSharedDefs(schema)));
      },
      get full() {
        return (full ??= everyError.compile(schema));
      },
    };
    compiled.set(schema, fn);
  }
  return fn;
}

/** `/spec/providers/inference/1/id` → `spec.providers.inference[1].id`. */
export function toFieldPath(instancePath: string, prefix = ""): string {
  let path = prefix;
  for (const raw of instancePath.split("/").slice(1)) {
    const segment = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    path = /^\d+$/.test(segment) ? `${path}[${segment}]` : path === "" ? segment : `${path}.${segment}`;
  }
  return path;
}

/** One ajv error in our words: the allowed values, the field it is a typo of (schemas compiled with `verbose`). */
export function describeError(e: ErrorObject): string {
  switch (e.keyword) {
    case "additionalProperties":
      return unknownField(e);
    case "required":
      return `required field "${String(e.params.missingProperty)}" is missing`;
    case "enum":
      return oneOf(e);
    case "minItems":
      return `must list at least ${String(e.params.limit)} item(s)`;
    case "const":
      return `must be ${JSON.stringify(e.params.allowedValue)}`;
    default:
      return e.message ?? "is invalid";
  }
}

/** A schema's `properties`, `{}` when it has none (ajv's parentSchema is untyped). */
function propertiesOf(schema: unknown): Readonly<Record<string, unknown>> {
  const properties: unknown = isPlainObject(schema) ? schema.properties : undefined;
  return isPlainObject(properties) ? properties : {};
}

/**
 * An unknown field: where it belongs when exactly one sibling object has a field of that name
 * (`spec.replicas` → `workload.replicas`: a misplaced field, not a typo), else the known one it
 * is a typo of, or another API's name for one, else remove it.
 */
function unknownField(e: ErrorObject): string {
  const field = String(e.params.additionalProperty);
  const properties = propertiesOf(e.parentSchema);
  const homes = Object.keys(properties).filter((key) => Object.hasOwn(propertiesOf(properties[key]), field));
  if (homes.length === 1) return `unknown field "${field}"; did you mean "${homes[0]}.${field}"?`;
  const near = didYouMean(field, Object.keys(properties)) || aliasHint(e.instancePath, field);
  return `unknown field "${field}";${near || " remove it or check its spelling"}`;
}

/** A value outside an enum: the allowed ones, and the one it is a typo of. */
function oneOf(e: ErrorObject): string {
  const allowed = allowedValues(e).map(String);
  const near = typeof e.data === "string" ? didYouMean(e.data, allowed) : "";
  return `must be one of: ${allowed.join(", ")}${near === "" ? "" : `;${near}`}`;
}

/** ajv types an error's params as `any`; an `enum` error lists the allowed values. */
function allowedValues(e: ErrorObject): readonly unknown[] {
  const values: unknown = e.params.allowedValues;
  return Array.isArray(values) ? values : [];
}

/** What a failed `oneOf` expected, in the user's terms. */
function shapeMessage(one: ErrorObject): string {
  const description: unknown = one.parentSchema?.description;
  if (one.schemaPath.endsWith("/additionalProperties/oneOf")) {
    const field = one.instancePath.split("/").pop();
    const near = didYouMean(field ?? "", PROVIDER_FIELDS);
    return `unknown field "${field}":${near || ` provider fields are id, provider, endpoint, apiKey, secretRefs and settings; any other field must be a Secret reference {name, key} (put other config under settings)`}`;
  }
  return `has the wrong shape for this field${typeof description === "string" && description !== "" ? ` (expected: ${description})` : ""}`;
}

/** Errors of a failed `oneOf` come from every branch; keep the branches whose type matched. */
export function narrowOneOf(errors: readonly ErrorObject[]): ErrorObject[] {
  const failedOneOfs = errors.filter((e) => e.keyword === "oneOf");
  let kept = errors.filter((e) => e.keyword !== "oneOf");
  for (const one of failedOneOfs) {
    const base = one.schemaPath.slice(0, -"/oneOf".length) + "/oneOf/";
    const inBranch = (e: ErrorObject): boolean => e.schemaPath.startsWith(base);
    const branchOf = (e: ErrorObject): string => e.schemaPath.slice(base.length).split("/")[0] ?? "";
    const typeMismatch = new Set(
      kept.filter((e) => inBranch(e) && e.instancePath === one.instancePath && e.keyword === "type").map(branchOf),
    );
    const branches = new Set(kept.filter(inBranch).map(branchOf));
    const matching = [...branches].filter((b) => !typeMismatch.has(b));
    if (matching.length === 0 || (one.params as { passingSchemas?: unknown }).passingSchemas) {
      kept = [...kept.filter((e) => !inBranch(e)), { ...one, message: shapeMessage(one) }];
    } else {
      const keep = matching.slice(0, 1);
      kept = kept.filter((e) => !inBranch(e) || keep.includes(branchOf(e)));
    }
  }
  return kept;
}

export function schemaErrors(schema: CompiledSchema, value: unknown, prefix = ""): FieldError[] {
  return schema.fast(value) ? [] : everyErrorOf(schema.full, value, prefix);
}

function everyErrorOf(fn: ValidateFunction, value: unknown, prefix: string): FieldError[] {
  fn(value);
  const seen = new Set<string>();
  const out: FieldError[] = [];
  for (const e of narrowOneOf(fn.errors ?? [])) {
    const error = fieldError(toFieldPath(e.instancePath, prefix) || "(root)", describeError(e));
    const key = `${error.path}\n${error.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(error);
    }
  }
  return out;
}

export const V1ALPHA2_OBJECT_SCHEMA = objectSchema("llamastack.io/v1alpha2", V1ALPHA2_SPEC_SCHEMA);

/** The object schema with any spec: with the spec schema's own check, the same verdict as the whole. */
const V1ALPHA2_OBJECT_SHELL = objectSchema("llamastack.io/v1alpha2", {});

/** A whole v1alpha2 object the schema accepts, its spec typed as such. */
export function isV1alpha2Object(
  object: unknown,
): object is { readonly spec: LlsdSpecV1alpha2; readonly [field: string]: unknown } {
  // The quick check reuses the spec validator (`/sync` compiles it anyway) instead of
  // compiling the spec schema a second time inside the object schema.
  return compile(V1ALPHA2_OBJECT_SHELL).fast(object) === true && isPlainObject(object) && isV1alpha2Spec(object.spec);
}

/** Schema errors of a whole v1alpha2 object (paths start at `spec.` / `metadata.`). */
export function v1alpha2SchemaErrors(object: unknown): FieldError[] {
  return isV1alpha2Object(object) ? [] : everyErrorOf(compile(V1ALPHA2_OBJECT_SCHEMA).full, object, "");
}

/**
 * A bare v1alpha2 spec the schema accepts, parsed rather than cast: the type is read from the
 * schema (`TypeOf`), so the two say the same thing.
 */
export function isV1alpha2Spec(spec: unknown): spec is LlsdSpecV1alpha2 {
  return compile(V1ALPHA2_SPEC_SCHEMA).fast(spec) === true;
}

/** Schema errors of a bare v1alpha2 spec (paths start at `spec.`). */
export function v1alpha2SpecSchemaErrors(spec: unknown): FieldError[] {
  return schemaErrors(compile(V1ALPHA2_SPEC_SCHEMA), spec, "spec");
}

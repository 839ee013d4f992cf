/**
 * Building blocks of the v1alpha1 and v1alpha2 JSON Schemas (ajv, draft-07), each a TypeBox
 * schema: plain JSON Schema that also carries its TypeScript type, so a field is declared once
 * (type, constraints, `description` for `kubectl explain`, `default` for the CRD) and its type is
 * `TypeOf<typeof schema>`. Only keywords that translate to a structural CRD schema are used, so
 * `npm run gen:crds` derives the CRD from the same objects. TypeBox's own marks are symbol keys,
 * which ajv, JSON and the CRD generator do not see.
 */
import { Type, type Static, type TObject, type TOptional, type TSchema, type TUnsafe } from "@sinclair/typebox";

export type Schema = { readonly [keyword: string]: unknown };
/** Keywords added to a builder's own (`minLength`, `pattern`, `default`…). */
type Extra = { readonly [keyword: string]: unknown };

/** A JSON object whose fields the hooks do not type (settings, Kubernetes pass-through objects). */
export type JsonObject = { readonly [key: string]: unknown };

/** `T` read-only all the way down: the hooks never mutate what users wrote. */
type DeepReadonly<T> = T extends readonly (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/** The TypeScript type of a schema's values. */
export type TypeOf<S extends TSchema> = DeepReadonly<Static<S>>;

/** Marks a schema that the CRD renders as `x-kubernetes-int-or-string: true`. */
export const INT_OR_STRING_MARK = "x-int-or-string";
/** Marks a schema that the CRD renders as `x-kubernetes-preserve-unknown-fields: true`. */
export const PRESERVE_UNKNOWN_MARK = "x-preserve-unknown";
/**
 * Marks a list the CRD renders as `x-kubernetes-list-type: map` keyed by these fields: the
 * apiserver refuses two items with the same key, and server-side apply merges items by it.
 */
export const LIST_MAP_KEYS_MARK = "x-list-map-keys";

/** `schema` with another description (a shared schema where it is used). */
export function describe<S extends TSchema>(description: string, schema: S): S {
  return { ...schema, description };
}

/** A string; with `enum`, one of its values. */
export function str<const X extends Extra = Extra>(
  description: string,
  extra?: X,
): TUnsafe<X extends { readonly enum: readonly (infer V)[] } ? V : string> {
  return Type.Unsafe({ type: "string", description, ...extra });
}

/** A string of `values` (an item schema, without a description of its own). */
export function oneOfStrings<const V extends readonly string[]>(values: V): TUnsafe<V[number]> {
  return Type.Unsafe({ type: "string", enum: values });
}

export function int(description: string, extra: Extra = {}) {
  return Type.Integer({ description, ...extra });
}

export function bool(description: string, extra: Extra = {}) {
  return Type.Boolean({ description, ...extra });
}

export function list<S extends TSchema>(description: string, items: S, extra: Extra = {}) {
  return Type.Array(items, { description, ...extra });
}

export function strList(description: string, extra: Extra = {}) {
  return Type.Array(Type.String(), { description, ...extra });
}

/** An object of any keys, each value of `values` (labels, annotations, quantities). */
export function mapOf<S extends TSchema>(description: string, values: S) {
  return Type.Unsafe<{ [key: string]: Static<S> }>({ type: "object", description, additionalProperties: values });
}

/** Exactly one of `branches` (a polymorphic field: `true` or an object, one object or a list). */
export function oneOf<const B extends readonly TSchema[]>(
  description: string,
  branches: B,
): TUnsafe<Static<B[number]>> {
  return Type.Unsafe({ description, oneOf: branches });
}

/** One object, or a non-empty list of them (`maxItems` bounds the list). */
export function oneOrList<S extends TSchema>(description: string, item: S, extra: { readonly maxItems?: number } = {}) {
  return oneOf(description, [item, Type.Array(item, { minItems: 1, ...extra })]);
}

/** The properties of `P` not named in `R` are optional. */
type WithOptional<P extends { [k: string]: TSchema }, R extends keyof P> = {
  [K in keyof P]: K extends R ? P[K] : TOptional<P[K]>;
};

/** One optional copy per schema: a subschema shared by several objects stays one object (schema-defs.ts). */
const optionalCopies = new WeakMap<TSchema, TSchema>();
function optional(schema: TSchema): TSchema {
  let copy = optionalCopies.get(schema);
  if (copy === undefined) optionalCopies.set(schema, (copy = Type.Optional(schema)));
  return copy;
}

/**
 * A closed object: unknown keys are rejected (the CRD prunes them; ajv reports them). The
 * properties named in `required` are required, in that order, the others optional.
 */
export function obj<const P extends { [k: string]: TSchema }, const R extends keyof P & string = never>(
  description: string,
  properties: P,
  required?: readonly R[],
): TObject<WithOptional<P, R>>;
export function obj(
  description: string,
  properties: { [k: string]: TSchema },
  required: readonly string[] = [],
): TObject {
  // TypeBox lists `required` in property order; a list in another order would change the schema.
  const inOrder = Object.keys(properties).filter((k) => required.includes(k));
  if (inOrder.join() !== required.join()) throw new Error(`required ${required.join()} out of property order`);
  const typed = Object.fromEntries(
    Object.entries(properties).map(([k, s]) => [k, required.includes(k) ? s : optional(s)]),
  );
  return Type.Object(typed, { description, additionalProperties: false });
}

/**
 * `schema` open to fields beyond its properties, each one of `others`. Their type is `unknown`:
 * a field's name does not say which of them it is, so the reader checks.
 */
export function withOtherFields<S extends TObject, O extends TSchema>(schema: S, others: O) {
  return Type.Unsafe<Static<S> & { [field: string]: unknown }>({ ...schema, additionalProperties: others });
}

/** Free-form JSON object (settings, provider config, Kubernetes pass-through objects). */
export function freeObject(description: string): TUnsafe<JsonObject> {
  return Type.Unsafe({ type: "object", description, [PRESERVE_UNKNOWN_MARK]: true });
}

export function intOrString(description: string) {
  return Type.Union([Type.Integer(), Type.String()], { description, [INT_OR_STRING_MARK]: true });
}

/** A Kubernetes resource.Quantity (`10Gi`, `500m`, `2`). */
export function quantity(description: string) {
  const pattern =
    "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$";
  return Type.Union([Type.Integer(), Type.String({ pattern })], { description, [INT_OR_STRING_MARK]: true });
}

/** corev1.ResourceRequirements; `claim` is the schema of one `claims` item. */
export function resourceRequirements(description: string): ReturnType<typeof requirements<TUnsafe<JsonObject>>>;
export function resourceRequirements<C extends TSchema>(
  description: string,
  claim: C,
  maxClaims: number,
): ReturnType<typeof requirements<C>>;
export function resourceRequirements(
  description: string,
  claim: TSchema = freeObject("A resource claim."),
  maxClaims?: number,
) {
  return requirements(description, claim, maxClaims);
}

function requirements<C extends TSchema>(description: string, claim: C, maxClaims?: number) {
  return obj(description, {
    limits: mapOf("Maximum compute resources allowed.", quantity("A resource quantity.")),
    requests: mapOf("Minimum compute resources required.", quantity("A resource quantity.")),
    claims: list(
      "Dynamic resource claims used by the container.",
      claim,
      maxClaims === undefined ? {} : { maxItems: maxClaims },
    ),
  });
}

/** A list of Kubernetes objects passed through untouched (env, volumes, volumeMounts, TSCs). */
export function k8sList(description: string, itemDescription: string) {
  return list(description, freeObject(itemDescription));
}

/** A list of objects keyed by `keys` (a Kubernetes list-map): each key at most once. */
export function listMap<S extends TSchema>(description: string, item: S, keys: readonly string[], extra: Extra = {}) {
  return list(description, item, { [LIST_MAP_KEYS_MARK]: keys, ...extra });
}

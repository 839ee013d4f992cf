/**
 * Building blocks shared by the v1alpha1 and v1alpha2 JSON Schemas (ajv, draft-07).
 * Only keywords that translate to a structural CRD schema are used, so `npm run gen:crds`
 * can derive the CRD from the same objects. Every property carries a `description`
 * (it becomes `kubectl explain` text).
 */
export type Schema = { readonly [keyword: string]: unknown };

/** Marks a schema that the CRD renders as `x-kubernetes-int-or-string: true`. */
export const INT_OR_STRING_MARK = "x-int-or-string";
/** Marks a schema that the CRD renders as `x-kubernetes-preserve-unknown-fields: true`. */
export const PRESERVE_UNKNOWN_MARK = "x-preserve-unknown";
/**
 * Marks a list the CRD renders as `x-kubernetes-list-type: map` keyed by these fields: the
 * apiserver refuses two items with the same key, and server-side apply merges items by it.
 */
export const LIST_MAP_KEYS_MARK = "x-list-map-keys";

export function describe(description: string, schema: Schema): Schema {
  return { ...schema, description };
}

export function str(description: string, extra: Schema = {}): Schema {
  return { type: "string", description, ...extra };
}

export function int(description: string, extra: Schema = {}): Schema {
  return { type: "integer", description, ...extra };
}

export function bool(description: string, extra: Schema = {}): Schema {
  return { type: "boolean", description, ...extra };
}

export function strList(description: string, extra: Schema = {}): Schema {
  return { type: "array", description, items: { type: "string" }, ...extra };
}

/** A closed object: unknown keys are rejected (the CRD prunes them; ajv reports them). */
export function obj(
  description: string,
  properties: { readonly [k: string]: Schema },
  required: readonly string[] = [],
): Schema {
  return {
    type: "object",
    description,
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

/** Free-form JSON object (settings, provider config, Kubernetes pass-through objects). */
export function freeObject(description: string): Schema {
  return { type: "object", description, [PRESERVE_UNKNOWN_MARK]: true };
}

export function intOrString(description: string): Schema {
  return { description, anyOf: [{ type: "integer" }, { type: "string" }], [INT_OR_STRING_MARK]: true };
}

/** A Kubernetes resource.Quantity (`10Gi`, `500m`, `2`). */
export function quantity(description: string): Schema {
  return {
    description,
    anyOf: [
      { type: "integer" },
      {
        type: "string",
        pattern:
          "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$",
      },
    ],
    [INT_OR_STRING_MARK]: true,
  };
}

/** corev1.ResourceRequirements; `claim` is the schema of one `claims` item. */
export function resourceRequirements(
  description: string,
  claim: Schema = freeObject("A resource claim."),
  maxClaims?: number,
): Schema {
  const quantities = (d: string): Schema => ({
    type: "object",
    description: d,
    additionalProperties: quantity("A resource quantity."),
  });
  return obj(description, {
    limits: quantities("Maximum compute resources allowed."),
    requests: quantities("Minimum compute resources required."),
    claims: {
      type: "array",
      description: "Dynamic resource claims used by the container.",
      items: claim,
      ...(maxClaims === undefined ? {} : { maxItems: maxClaims }),
    },
  });
}

/** A list of Kubernetes objects passed through untouched (env, volumes, volumeMounts, TSCs). */
export function k8sList(description: string, itemDescription: string): Schema {
  return { type: "array", description, items: freeObject(itemDescription) };
}

/** A list of objects keyed by `keys` (a Kubernetes list-map): each key at most once. */
export function listMap(description: string, item: Schema, keys: readonly string[], extra: Schema = {}): Schema {
  return { type: "array", description, items: item, [LIST_MAP_KEYS_MARK]: keys, ...extra };
}

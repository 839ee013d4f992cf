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

/** corev1.ResourceRequirements. */
export function resourceRequirements(description: string): Schema {
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
      items: freeObject("A resource claim."),
    },
  });
}

/** A list of Kubernetes objects passed through untouched (env, volumes, volumeMounts, TSCs). */
export function k8sList(description: string, itemDescription: string): Schema {
  return { type: "array", description, items: freeObject(itemDescription) };
}

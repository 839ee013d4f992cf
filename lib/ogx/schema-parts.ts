/**
 * Building blocks of the OGXServer v1beta1 schema (schema.ts), written from the peer's Go types
 * and kubebuilder markers: ogx-ai/ogx-k8s-operator api/v1beta1/*.go at commit 1784464 (v0.14.0).
 * The nodes are `openAPIV3Schema` nodes, as a CRD carries them, so lib/crd/check.ts evaluates
 * them (structure with ajv, `x-kubernetes-validations` with CEL) the way the apiserver would.
 */
import type { JsonSchemaProps } from "../crd/schema-node";

export type Node = JsonSchemaProps;

/** A Secret or ConfigMap key: the marker on `SecretKeyRef.Key` / `ConfigMapKeyRef.Key`. */
export const KEY_PATTERN = "^[a-zA-Z0-9]([a-zA-Z0-9\\-_.]*[a-zA-Z0-9])?$";

export const str = (extra: Node = {}): Node => ({ type: "string", ...extra });
export const nonEmptyStr: Node = str({ minLength: 1 });
export const bool: Node = { type: "boolean" };
export const int = (extra: Node = {}): Node => ({ type: "integer", ...extra });
export const int32 = (extra: Node = {}): Node => ({ type: "integer", format: "int32", ...extra });
export const port: Node = int32({ minimum: 1, maximum: 65535 });
export const atLeastOne: Node = int({ minimum: 1 });

/** `!has(self.x) || self.x.size() > 0`: the peer's "must not be empty if specified" rule. */
export const notEmptyRule = (field: string): Node => ({
  rule: `!has(self.${field}) || self.${field}.size() > 0`,
  message: `${field} must not be empty if specified`,
});

export function obj(properties: Node, extra: { required?: string[]; rules?: Node[] } = {}): Node {
  return {
    type: "object",
    properties,
    ...(extra.required ? { required: extra.required } : {}),
    ...(extra.rules && extra.rules.length > 0 ? { "x-kubernetes-validations": extra.rules } : {}),
  };
}

/** `obj` whose optional string fields each carry the "must not be empty if specified" rule. */
export function objNonEmpty(properties: Node, nonEmpty: string[], extra: { required?: string[]; rules?: Node[] } = {}) {
  return obj(properties, { ...extra, rules: [...nonEmpty.map(notEmptyRule), ...(extra.rules ?? [])] });
}

/** `SecretKeyRef{name, key}` and `ConfigMapKeyRef{name, key}` (the same markers). */
export const keyRef: Node = obj(
  { key: str({ minLength: 1, maxLength: 253, pattern: KEY_PATTERN }), name: nonEmptyStr },
  { required: ["key", "name"] },
);

export const list = (items: Node, extra: Node = {}): Node => ({ type: "array", minItems: 1, items, ...extra });
/** A provider list: `+kubebuilder:validation:MinItems=1`, `MaxItems=100`. */
export const providerList = (items: Node): Node => list(items, { maxItems: 100 });

/** A Kubernetes type the peer embeds (`corev1.EnvVar`…): its required fields, the rest kept as given. */
export function kubeType(properties: Node, extra: Node = {}): Node {
  const required = Object.keys(properties);
  return { type: "object", properties, required, "x-kubernetes-preserve-unknown-fields": true, ...extra };
}

/** Free JSON (`apiextensionsv1.JSON`, e.g. `settings`). */
export const freeJson: Node = { "x-kubernetes-preserve-unknown-fields": true };

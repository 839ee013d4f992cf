/**
 * A reference to a Secret key, as users write it in v1alpha2: a module of its own, because the
 * spec's type modules (v1alpha2.ts, auth-types.ts) all use it and must not import each other.
 */
/** A Secret key in the CR's namespace: the migration guide's flat form. */
export interface FlatSecretRef {
  readonly name: string;
  readonly key: string;
}
/** The spec's nested form, `{secretKeyRef: {name, key}}`. Exactly one form per reference. */
export interface NestedSecretRef {
  readonly secretKeyRef: FlatSecretRef;
}
export type SecretRefInput = FlatSecretRef | NestedSecretRef;

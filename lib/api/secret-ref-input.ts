/**
 * A reference to a Secret key, as users write it in v1alpha2: a module of its own, because the
 * spec's schema modules (schema-v1alpha2.ts, auth-types.ts) all use it and must not import each
 * other.
 */
import { obj, oneOf, str, type TypeOf } from "./schema-parts";

const flatRef = obj(
  "A key of a Secret in the CR's namespace.",
  {
    name: str("Name of the Secret.", { minLength: 1 }),
    key: str("Key within the Secret.", { minLength: 1 }),
  },
  ["name", "key"],
);

const nestedRef = obj("A Secret key reference (Kubernetes form).", { secretKeyRef: flatRef }, ["secretKeyRef"]);

/** A Secret key: the migration guide's flat form, or the spec's nested `{secretKeyRef: {name, key}}`. */
export function secretRef(description: string) {
  return oneOf(description, [flatRef, nestedRef]);
}

/** A Secret key in the CR's namespace: the migration guide's flat form. */
export type FlatSecretRef = TypeOf<typeof flatRef>;
/** The spec's nested form, `{secretKeyRef: {name, key}}`. Exactly one form per reference. */
export type NestedSecretRef = TypeOf<typeof nestedRef>;
export type SecretRefInput = FlatSecretRef | NestedSecretRef;

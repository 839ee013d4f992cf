/**
 * Names and labels of everything the hooks create for a parent, in one place (style rule 3).
 * Names and selector labels follow the Go operator, so a takeover keeps selectors (DESIGN §7).
 */

export const CONTAINER_NAME = "llama-stack";
export const SERVICE_PORT_NAME = "http";

export const names = {
  deployment: (parent: string): string => parent,
  service: (parent: string): string => `${parent}-service`,
  /** Hash-named and immutable: a new config is a new ConfigMap (FR-023/024, NFR-005). */
  config: (parent: string, hash: string): string => `${parent}-config-${hash.slice(0, 10)}`,
  pvc: (parent: string): string => `${parent}-pvc`,
  networkPolicy: (parent: string): string => `${parent}-network-policy`,
  ingress: (parent: string): string => `${parent}-ingress`,
  route: (parent: string): string => `${parent}-route`,
  hpa: (parent: string): string => `${parent}-hpa`,
  pdb: (parent: string): string => `${parent}-pdb`,
  caBundle: (parent: string): string => `${parent}-ca-bundle`,
  postgres: (parent: string): string => `${parent}-postgres`,
};

/** Derived Secret holding the discrete parts of the user's Postgres DSN. */
export function postgresSecretName(parent: string): string {
  return names.postgres(parent);
}

/** The Deployment's selector and pod labels; every Service, NetworkPolicy and PDB selects with these. */
export function selectorLabels(parent: string): { readonly [k: string]: string } {
  return { app: "llama-stack", "app.kubernetes.io/instance": parent };
}

/** Labels on every child (Metacontroller adds `controller-uid` itself under generateSelector). */
export function commonLabels(parent: string): { readonly [k: string]: string } {
  // The selector labels written out (same keys, same order): a literal is much cheaper than a
  // spread, and this runs several times per child on every sync.
  return {
    app: "llama-stack",
    "app.kubernetes.io/instance": parent,
    "app.kubernetes.io/name": "llama-stack",
    "app.kubernetes.io/part-of": "llama-stack",
    "app.kubernetes.io/managed-by": "llsd-hooks",
  };
}

/** Pod-template annotation that changes with the config content, so a new config rolls the pods (FR-026). */
export const CONFIG_HASH_ANNOTATION = "llamastack.io/config-hash";

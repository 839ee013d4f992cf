/**
 * Names and labels of everything the hooks create for a parent, in one place (style rule 3).
 * Names and selector labels follow the Go operator, so a takeover keeps selectors (DESIGN §7).
 */

import { createHash } from "node:crypto";

export const CONTAINER_NAME = "llama-stack";
/** The init container that pip-installs every external provider's wheels (after their copy containers). */
export const EXTERNAL_INSTALL_CONTAINER = "install-ext-providers";

/**
 * The init container that copies one external provider's wheels: `ext-<providerId>` when that
 * is a DNS label, else a slug of the id plus 8 hex of its SHA-256 (still unique, still ≤ 63).
 */
export function externalProviderContainer(providerId: string): string {
  const plain = `ext-${providerId}`;
  if (/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(plain) && plain.length <= 63) return plain;
  const slug = providerId.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 45).replace(/-+$/, "");
  const hash = createHash("sha256").update(providerId).digest("hex").slice(0, 8);
  return slug === "" ? `ext-${hash}` : `ext-${slug}-${hash}`;
}
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

/**
 * CR annotation: `"true"` lets the hooks delete the PVC once `workload.storage` is gone from the
 * spec. Without it the PVC (and its data) stays, unmounted, until the user says so.
 */
export const RELEASE_STORAGE_ANNOTATION = "llamastack.io/release-storage";

/** Pod-template annotation that changes with the config content, so a new config rolls the pods (FR-026). */
export const CONFIG_HASH_ANNOTATION = "llamastack.io/config-hash";

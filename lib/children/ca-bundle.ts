/**
 * The managed CA bundle ConfigMap `<name>-ca-bundle` (Go operator name and
 * key): one key, `ca-bundle.crt`, with the certificates the sync checked. Not
 * immutable: its name is fixed, and a change rolls the pods through the template annotation.
 */
import type { V1ConfigMap } from "@kubernetes/client-node";
import type { ChildContext } from "./context";
import { childMeta } from "./meta";

/** The one key of the managed ConfigMap, and the file name in the pod. */
export const CA_BUNDLE_KEY = "ca-bundle.crt";
/** Where the pod sees it (Go operator `ManagedCABundleMountPath`). */
export const CA_BUNDLE_MOUNT_DIR = "/etc/ssl/certs/ca-bundle";
/** `SSL_CERT_FILE`: Python's ssl, httpx and requests read their trust store from it. */
export const CA_BUNDLE_FILE = `${CA_BUNDLE_MOUNT_DIR}/${CA_BUNDLE_KEY}`;
/** Pod-template annotation with the bundle's content hash: new CAs roll the pods (they read it at start). */
export const CA_BUNDLE_HASH_ANNOTATION = "llamastack.io/ca-bundle-hash";
/** Volume name (Go operator `CABundleVolumeName`), so a takeover merges into its volume. */
export const CA_BUNDLE_VOLUME = "ca-bundle";

export function buildCaBundle(ctx: ChildContext): V1ConfigMap | undefined {
  const bundle = ctx.caBundle;
  if (!bundle) return undefined;
  return {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: childMeta(ctx, bundle.configMapName),
    data: { [CA_BUNDLE_KEY]: bundle.data },
  };
}

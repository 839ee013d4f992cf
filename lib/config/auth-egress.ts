/**
 * What `spec.auth` makes the server call out to, for the NetworkPolicy's egress rules
 * (lib/children/network-policy.ts): the API server for `kubernetes`, the key or introspection
 * URL for `oidc`, the endpoint for `custom`. `upstreamHeader` calls nothing: the gateway checked.
 */
import type { AuthInput } from "../api/auth-types";
import type { CanonicalSpec } from "../api/canonical";
import { IN_CLUSTER_API_SERVER } from "./auth";

export interface AuthEgressTarget {
  /** `apiServer`: the cluster's own API server (a NetworkPolicy reaches it by its endpoints' IPs, not by name). */
  readonly kind: "apiServer" | "url";
  readonly url: string;
  /** The spec field that asks for it. */
  readonly path: string;
}

type Reader = (auth: AuthInput) => string | undefined;

/** Field path → where the URL is; the first that is set is the one the server calls. */
const URLS: readonly (readonly [string, Reader])[] = [
  ["spec.auth.kubernetes", (a) => a.kubernetes && (a.kubernetes.apiServerUrl ?? IN_CLUSTER_API_SERVER)],
  ["spec.auth.oidc.jwks.uri", (a) => a.oidc?.jwks?.uri],
  ["spec.auth.oidc.introspection.url", (a) => a.oidc?.introspection?.url],
  ["spec.auth.custom.endpoint", (a) => a.custom?.endpoint],
];

export function authEgressTargets(spec: CanonicalSpec): AuthEgressTarget[] {
  const auth = spec.auth?.input;
  if (!auth) return [];
  for (const [path, read] of URLS) {
    const url = read(auth);
    if (url !== undefined) return [{ kind: url === IN_CLUSTER_API_SERVER ? "apiServer" : "url", url, path }];
  }
  return [];
}

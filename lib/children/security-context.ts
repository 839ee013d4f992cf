/**
 * The server container's hardening; the external providers' init containers get the same. Its own
 * module so that container.ts and external-providers.ts both use it without importing each other.
 */
import type { V1SecurityContext } from "@kubernetes/client-node";

export function serverSecurityContext(): V1SecurityContext {
  return { allowPrivilegeEscalation: false, capabilities: { drop: ["ALL"] } };
}

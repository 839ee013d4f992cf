/**
 * Network access after a takeover. The Go operator created a NetworkPolicy only with its
 * `enableNetworkPolicy` feature flag, which is off by default; a CR it ran without one was
 * reachable from every namespace. Taking such a CR over must not cut those clients off, so the
 * hooks keep it open until its owner opts in, and say so in the status. New CRs, and CRs whose
 * Go operator had the flag on, get the NetworkPolicy as always.
 *
 * The decision comes from the request alone: the first sync sees the Go operator's Deployment
 * (its `managed-by` label) and no NetworkPolicy; the Deployment the hooks then write carries a
 * mark that later syncs read back from the observed children.
 */
import { KEPT_OPEN, NETWORK_POLICY_ANNOTATION, NETWORK_POLICY_OPT_IN as OPT_IN } from "../children/network-policy";
import type { KubeObject } from "../wire/metacontroller";
import type { Observed } from "../status/observed";

/** The Go operator's `app.kubernetes.io/managed-by` on every child it made. */
export const GO_OPERATOR_MANAGER = "llama-stack-operator";

export const KEPT_OPEN_NOTE = `networking: no NetworkPolicy, as under the Go operator (its enableNetworkPolicy flag was off when this CR was taken over), so clients in every namespace still reach the server; to allow only the same namespace, the hooks' namespace and networking.allowedFrom, as for new CRs, annotate the CR ${NETWORK_POLICY_ANNOTATION}=${OPT_IN}`;

/** True when this CR keeps the open access it had under the Go operator. */
export function keptOpen(parent: KubeObject, observed: Observed): boolean {
  if (parent.metadata.annotations?.[NETWORK_POLICY_ANNOTATION] === OPT_IN) return false;
  const deployment = observed.deployment;
  if (!deployment) return false;
  if (deployment.annotations[NETWORK_POLICY_ANNOTATION] === KEPT_OPEN) return true;
  const goMade = deployment.labels["app.kubernetes.io/managed-by"] === GO_OPERATOR_MANAGER;
  return goMade && !observed.networkPolicy;
}

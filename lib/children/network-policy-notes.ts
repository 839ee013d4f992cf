/**
 * The status notes of `networking.policy`: what the NetworkPolicy leaves to the user, and whom it
 * admits to a server that believes a gateway's headers (`auth.upstreamHeader`). Pure
 * functions of the same inputs the policy is built from, so the note and the policy agree.
 */
import type { ChildContext } from "./context";
import { coverageNotes, specEndpoints } from "./network-policy-coverage";
import { egressRules, platformNeeds, platformNotes } from "./network-policy-egress";
import { headersTrusted, policyEnabled } from "./network-policy";
import { listenPort } from "../defaults";

export const POLICY_DISABLED_NOTE =
  "networking.policy.enabled is false: the server has no NetworkPolicy (Metacontroller deletes one made before), so every pod that can route to it reaches it and its egress is open; remove the field to restore the policy";

/** With upstreamHeader, who the policy admits to the server's port (network-policy.ts `peers`), said in the status. */
export function gatewayOnlyNote(ctx: Pick<ChildContext, "spec" | "hooksNamespace" | "gatewayHeaders">): string[] {
  const source = headersTrusted(ctx);
  if (source === undefined) return [];
  const { allowedFrom, policy, port } = ctx.spec.networking;
  const named = [
    ...(allowedFrom?.namespaces ?? []).map((n) => `namespace ${n}`),
    ...(allowedFrom?.labels ?? []).map((k) => `namespaces labelled ${k}`),
    ...((policy?.ingress?.length ?? 0) > 0 ? ["the networking.policy.ingress rules"] : []),
  ];
  return [
    `${source}: the NetworkPolicy admits to port ${listenPort(port)} only the gateway (${named.join(", ")}) and the hooks' namespace ${ctx.hooksNamespace} (status reads), not the CR's own namespace nor an ingress controller: the server believes the headers of whoever reaches it`,
  ];
}

export function networkPolicyNotes(
  ctx: Pick<ChildContext, "spec" | "exposeWith" | "postgres" | "apiServer" | "hooksNamespace" | "gatewayHeaders">,
): string[] {
  if (!policyEnabled(ctx)) return [POLICY_DISABLED_NOTE];
  const gateway = gatewayOnlyNote(ctx);
  const needs = platformNeeds(ctx.spec, ctx.apiServer);
  const egress = egressRules(ctx, needs);
  if (!egress) return gateway;
  return [...gateway, ...coverageNotes(egress, specEndpoints(ctx.spec, ctx.postgres)), ...platformNotes(needs)];
}

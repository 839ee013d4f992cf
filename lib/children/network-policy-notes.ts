/**
 * The status notes of `networking.policy`: what the NetworkPolicy leaves to the user, and whom it
 * admits when its default rule is reduced (`auth.upstreamHeader`, `policy.defaultIngress: false`).
 * Pure functions of the same inputs the policy is built from, so the note and the policy agree.
 */
import type { ChildContext } from "./context";
import { coverageNotes, specEndpoints } from "./network-policy-coverage";
import { egressRules, platformNeeds, platformNotes } from "./network-policy-egress";
import { defaultIngressOn, headersTrusted, policyEnabled } from "./network-policy";
import { listenPort } from "../defaults";

export const POLICY_DISABLED_NOTE =
  "networking.policy.enabled is false: the server has no NetworkPolicy (Metacontroller deletes one made before), so every pod that can route to it reaches it and its egress is open; remove the field to restore the policy";

type NoteContext = Pick<ChildContext, "spec" | "hooksNamespace" | "gatewayHeaders">;

/** Whom the CR names as callers: allowedFrom and its own ingress rules. */
function named(ctx: NoteContext): string[] {
  const { allowedFrom, policy } = ctx.spec.networking;
  return [
    ...(allowedFrom?.namespaces ?? []).map((n) => `namespace ${n}`),
    ...(allowedFrom?.labels ?? []).map((k) => `namespaces labelled ${k}`),
    ...((policy?.ingress?.length ?? 0) > 0 ? ["the networking.policy.ingress rules"] : []),
  ];
}

/** With upstreamHeader, who the policy admits to the server's port (network-policy.ts `peers`), said in the status. */
export function gatewayOnlyNote(ctx: NoteContext): string[] {
  const source = headersTrusted(ctx);
  if (source === undefined) return [];
  return [
    `${source}: the NetworkPolicy admits to port ${listenPort(ctx.spec.networking.port)} only the gateway (${named(ctx).join(", ")}) and the hooks' namespace ${ctx.hooksNamespace} (status reads), not the CR's own namespace nor an ingress controller: the server believes the headers of whoever reaches it`,
  ];
}

/** With `defaultIngress: false` (and no upstreamHeader, whose note says more), who the policy admits to the server's port. */
export function replacedDefaultNote(ctx: NoteContext): string[] {
  if (defaultIngressOn(ctx.spec) || headersTrusted(ctx) !== undefined) return [];
  const exposed = ctx.spec.networking.expose.enabled ? ["the ingress controllers of expose"] : [];
  const callers = [...named(ctx), ...exposed];
  return [
    `spec.networking.policy.defaultIngress is false: the NetworkPolicy admits to port ${listenPort(ctx.spec.networking.port)} only ${callers.length > 0 ? `${callers.join(", ")} and ` : ""}the hooks' namespace ${ctx.hooksNamespace} (status reads), not the CR's own namespace`,
  ];
}

export function networkPolicyNotes(
  ctx: Pick<ChildContext, "spec" | "exposeWith" | "postgres" | "apiServer" | "hooksNamespace" | "gatewayHeaders">,
): string[] {
  if (!policyEnabled(ctx)) return [POLICY_DISABLED_NOTE];
  const gateway = [...gatewayOnlyNote(ctx), ...replacedDefaultNote(ctx)];
  const needs = platformNeeds(ctx.spec, ctx.apiServer);
  const egress = egressRules(ctx, needs);
  if (!egress) return gateway;
  return [...gateway, ...coverageNotes(egress, specEndpoints(ctx.spec, ctx.postgres)), ...platformNotes(needs)];
}

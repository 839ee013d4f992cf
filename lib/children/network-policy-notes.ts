/**
 * The status notes of `networking.policy`: what the NetworkPolicy leaves to the user. Pure
 * functions of the same inputs the policy is built from, so the note and the policy agree.
 */
import type { ChildContext } from "./context";
import { coverageNotes, specEndpoints } from "./network-policy-coverage";
import { egressRules, platformNeeds, platformNotes } from "./network-policy-egress";
import { policyEnabled } from "./network-policy";

export const POLICY_DISABLED_NOTE =
  "networking.policy.enabled is false: the server has no NetworkPolicy (Metacontroller deletes one made before), so every pod that can route to it reaches it and its egress is open; remove the field to restore the policy";

export function networkPolicyNotes(
  ctx: Pick<ChildContext, "spec" | "exposeWith" | "postgres" | "apiServer">,
): string[] {
  if (!policyEnabled(ctx)) return [POLICY_DISABLED_NOTE];
  const needs = platformNeeds(ctx.spec, ctx.apiServer);
  const egress = egressRules(ctx, needs);
  if (!egress) return [];
  return [...coverageNotes(egress, specEndpoints(ctx.spec, ctx.postgres)), ...platformNotes(needs)];
}

/**
 * PodDisruptionBudget `<name>-pdb`: the user's, or `maxUnavailable: 1` when more than one pod
 * can run. Never a default `minAvailable: 1`: with one replica it forbids every eviction and
 * blocks node drains (Go operator PR #277).
 */
import type { V1PodDisruptionBudget, V1PodDisruptionBudgetSpec } from "@kubernetes/client-node";
import { names } from "../names";
import type { ChildContext } from "./context";
import { childMeta } from "./meta";
import { podSelectorLabels } from "./selector";
import { legacyRunsSeveralPods, runsSeveralPods } from "./workload";

export const DEFAULT_MAX_UNAVAILABLE = 1;

export function buildPdb(ctx: ChildContext): V1PodDisruptionBudget | undefined {
  const { workload } = ctx.spec;
  const given = workload.podDisruptionBudget;
  // A v1alpha1 CR: the Go operator's rule (a budget given, or spec.replicas > 1).
  const several = ctx.legacy ? legacyRunsSeveralPods(workload) : runsSeveralPods(workload);
  if (!given && !several) return undefined;
  const spec: V1PodDisruptionBudgetSpec = { selector: { matchLabels: podSelectorLabels(ctx) } };
  // Assigned, not spread in: every sync builds this.
  if (given?.minAvailable !== undefined) spec.minAvailable = given.minAvailable;
  if (given?.maxUnavailable !== undefined) spec.maxUnavailable = given.maxUnavailable;
  if (spec.minAvailable === undefined && spec.maxUnavailable === undefined)
    spec.maxUnavailable = DEFAULT_MAX_UNAVAILABLE;
  return {
    apiVersion: "policy/v1",
    kind: "PodDisruptionBudget",
    metadata: childMeta(ctx, names.pdb(ctx.name)),
    spec,
  };
}

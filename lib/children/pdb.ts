/**
 * PodDisruptionBudget `<name>-pdb`: the user's, or `maxUnavailable: 1` when more than one pod
 * can run. Never a default `minAvailable: 1`: with one replica it forbids every eviction and
 * blocks node drains (Go operator PR #277).
 */
import type { V1PodDisruptionBudget } from "@kubernetes/client-node";
import { names, selectorLabels } from "../names";
import type { ChildContext } from "./context";
import { childMeta, labelsOf } from "./meta";
import { legacyRunsSeveralPods, runsSeveralPods } from "./workload";

export const DEFAULT_MAX_UNAVAILABLE = 1;

export function buildPdb(ctx: ChildContext): V1PodDisruptionBudget | undefined {
  const { workload } = ctx.spec;
  const given = workload.podDisruptionBudget;
  // A v1alpha1 CR: the Go operator's rule (a budget given, or spec.replicas > 1).
  const several = ctx.legacy ? legacyRunsSeveralPods(workload) : runsSeveralPods(workload);
  if (!given && !several) return undefined;
  const budget =
    given?.minAvailable !== undefined || given?.maxUnavailable !== undefined
      ? {
          ...(given.minAvailable !== undefined ? { minAvailable: given.minAvailable } : {}),
          ...(given.maxUnavailable !== undefined ? { maxUnavailable: given.maxUnavailable } : {}),
        }
      : { maxUnavailable: DEFAULT_MAX_UNAVAILABLE };
  return {
    apiVersion: "policy/v1",
    kind: "PodDisruptionBudget",
    metadata: childMeta(ctx, names.pdb(ctx.name)),
    spec: { selector: { matchLabels: labelsOf(selectorLabels(ctx.name)) }, ...budget },
  };
}

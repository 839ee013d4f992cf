/**
 * Conditions from one vocabulary. `lastTransitionTime` moves only when a condition's status
 * flips, so identical syncs give identical status (no churn, no Metacontroller hot loop).
 */

import type { Condition } from "../api/v1alpha1";

/** metav1.Condition: the same type in both API versions. */
export type { Condition };

export type ConditionInput = Omit<Condition, "lastTransitionTime" | "observedGeneration">;

export const CONDITION_TYPES = {
  configGenerated: "ConfigGenerated",
  secretsResolved: "SecretsResolved",
  deploymentReady: "DeploymentReady",
  available: "Available",
  /** The running server answered `/v1/version` and `/v1/providers` (Go operator type). */
  healthCheck: "HealthCheck",
} as const;

/** Kubernetes caps condition messages at 32768 bytes; ours stay far shorter and readable. */
const MAX_MESSAGE = 4000;

/** RFC 3339 with second precision, as metav1.Time serializes. */
export function timestamp(now: Date): string {
  return now.toISOString().replace(/\.\d{3}Z$/, "Z");
}

export function toConditions(
  inputs: readonly ConditionInput[],
  previous: readonly Condition[] | undefined,
  now: () => Date,
  generation: number | undefined,
): Condition[] {
  // The clock is read only when a condition flips: an unchanged status never reads it (lib/sync/memo.ts relies on that).
  let at: string | undefined;
  const changedAt = (): string => (at ??= timestamp(now()));
  return inputs.map((c) => {
    const before = previous?.find((p) => p.type === c.type);
    const message = c.message.length > MAX_MESSAGE ? `${c.message.slice(0, MAX_MESSAGE - 1)}…` : c.message;
    return {
      ...c,
      message,
      lastTransitionTime: before && before.status === c.status ? before.lastTransitionTime : changedAt(),
      ...(generation !== undefined ? { observedGeneration: generation } : {}),
    };
  });
}

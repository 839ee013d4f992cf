/**
 * Conditions from one vocabulary. `lastTransitionTime` moves only when a condition's status
 * flips, so identical syncs give identical status (no churn, no Metacontroller hot loop).
 */
import type { Condition } from "../api/v1alpha1";
import { isPlainObject } from "../json";

/** metav1.Condition: the same type in both API versions. */
export type { Condition };

export type ConditionInput = Omit<Condition, "lastTransitionTime" | "observedGeneration">;

const TEXT_FIELDS = ["type", "reason", "message", "lastTransitionTime"] as const;
const STATUSES: readonly unknown[] = ["True", "False", "Unknown"];

/** A condition of a previous status, in the shape we write them (a status is the cluster's word, not ours). */
export function isCondition(value: unknown): value is Condition {
  if (!isPlainObject(value) || !STATUSES.includes(value.status)) return false;
  const generation = value.observedGeneration;
  return (
    TEXT_FIELDS.every((field) => typeof value[field] === "string") &&
    (generation === undefined || typeof generation === "number")
  );
}

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
  const out: Condition[] = [];
  for (const c of inputs) {
    const before = previous === undefined ? undefined : sameType(previous, c.type);
    const unchanged = before !== undefined && before.status === c.status;
    out.push(condition(c, unchanged ? before.lastTransitionTime : (at ??= timestamp(now())), generation));
  }
  return out;
}

/** The previous condition of `type` (a loop, not `find`: no closure per condition on every sync). */
function sameType(previous: readonly Condition[], type: string): Condition | undefined {
  for (const p of previous) if (p.type === type) return p;
  return undefined;
}

/**
 * The input's four fields in the order every condition input is written, then ours. Spelled
 * out rather than spread: this runs for every condition of every sync.
 */
function condition(c: ConditionInput, lastTransitionTime: string, generation: number | undefined): Condition {
  const { type, status, reason } = c;
  const message = c.message.length > MAX_MESSAGE ? `${c.message.slice(0, MAX_MESSAGE - 1)}…` : c.message;
  return generation === undefined
    ? { type, status, reason, message, lastTransitionTime }
    : { type, status, reason, message, lastTransitionTime, observedGeneration: generation };
}

/**
 * What an upgrade does to a parent's status, beside its pods: a running LLSD the new code refuses
 * keeps its children (no restart) but turns `Stalled` or `Failed`, and its users must hear of it
 * (e.g. `UnsharedState`: several pods on state kept inside each pod). The phase before is the
 * previous release's answer where its goldens recorded it, else the phase the cluster had in the
 * recorded request, else unknown.
 */
import { isPlainObject } from "../../lib/json";

/** A phase and the reason it has (the `Stalled` condition's, else the first condition not True). */
export interface PhaseAndReason {
  readonly phase: string;
  readonly reason?: string;
}

export interface StatusChange {
  /** undefined: the previous release's phase is not known. */
  readonly before?: PhaseAndReason;
  readonly after: PhaseAndReason;
}

/** The phases a user must act on: nothing the spec asks for is applied while in them. */
const ATTENTION = new Set(["Stalled", "Failed"]);

interface Condition {
  readonly type?: unknown;
  readonly status?: unknown;
  readonly reason?: unknown;
}

/** A status's phase and reason, or undefined when it has no phase. */
export function phaseAndReason(status: unknown): PhaseAndReason | undefined {
  if (!isPlainObject(status) || typeof status.phase !== "string") return undefined;
  const conditions: readonly Condition[] = Array.isArray(status.conditions)
    ? status.conditions.filter((c): c is Condition => isPlainObject(c))
    : [];
  const stalled = conditions.find((c) => c.type === "Stalled" && c.status === "True");
  const first = stalled ?? conditions.find((c) => c.status === "False" && typeof c.reason === "string");
  const reason = typeof first?.reason === "string" ? first.reason : undefined;
  return reason === undefined ? { phase: status.phase } : { phase: status.phase, reason };
}

/**
 * The change when the new phase needs the user's attention and the phase before was another (or
 * is unknown); else undefined. Reasons alone are not compared: a recorded request's were written
 * by whichever older code synced it last, and a parent Failed before stays in the user's sight.
 */
export function statusChange(before: PhaseAndReason | undefined, afterStatus: unknown): StatusChange | undefined {
  const after = phaseAndReason(afterStatus);
  if (after === undefined || !ATTENTION.has(after.phase) || before?.phase === after.phase) return undefined;
  return before === undefined ? { after } : { before, after };
}

export const showPhase = (p: PhaseAndReason): string => (p.reason === undefined ? p.phase : `${p.phase} (${p.reason})`);

/** A phase as the goldens keep it (`{phase, reason?}`), or undefined. */
export function storedPhase(value: unknown): PhaseAndReason | undefined {
  if (!isPlainObject(value) || typeof value.phase !== "string") return undefined;
  return typeof value.reason === "string" ? { phase: value.phase, reason: value.reason } : { phase: value.phase };
}

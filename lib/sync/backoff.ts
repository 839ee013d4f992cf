/**
 * When to sync again after a problem that may pass (a registry that did not answer): soon at
 * first, then less often the longer it lasts. Stateless: the time the failure has lasted is
 * read from its condition's `lastTransitionTime` in the previous status (Metacontroller also
 * syncs at once when a related object changes).
 */
import type { Condition } from "../status/conditions";
import type { SyncFailure } from "../status/status";

export const TRANSIENT_RESYNC = Object.freeze({ firstSeconds: 30, maxSeconds: 300 });

/** `firstSeconds` for a new failure; then as long as it has lasted (doubling each time), at most `maxSeconds`. */
export function transientResync(
  previous: readonly Condition[] | undefined,
  failure: SyncFailure,
  now: () => Date,
): number {
  const before = previous?.find((c) => c.type === failure.type && c.status === "False" && c.reason === failure.reason);
  if (before === undefined) return TRANSIENT_RESYNC.firstSeconds;
  const lasted = Math.round((now().getTime() - Date.parse(before.lastTransitionTime)) / 1000);
  if (!Number.isFinite(lasted)) return TRANSIENT_RESYNC.firstSeconds;
  return Math.min(TRANSIENT_RESYNC.maxSeconds, Math.max(TRANSIENT_RESYNC.firstSeconds, lasted));
}

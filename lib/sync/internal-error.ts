/**
 * The last line of the failure policy: an exception anywhere in a sync whose request had the
 * right shape (a bug of ours, or data nothing checked) is still a status, never a 5xx that
 * Metacontroller retries forever while the CR says nothing. The answer keeps every observed
 * child (as every other Failed path does, keep.ts), keeps the last status it reported, and
 * says what happened in `ConfigGenerated` (reason `InternalError`).
 */
import { isPlainObject } from "../json";
import { thrownMessage } from "../errors";
import { scrub, secretValuesOf } from "../secret-scrub";
import { CONDITION_TYPES as T, isCondition, toConditions, type ConditionInput } from "../status/conditions";
import { summaryConditions } from "../status/summary";
import type { SyncRequest, SyncResponse } from "../wire/metacontroller";
import { keptChildren } from "./keep";

export const INTERNAL_ERROR_REASON = "InternalError";

/** What the error says, with every Secret value of the request replaced (never a stack). */
function describe(err: unknown, request: SyncRequest): string {
  const text = thrownMessage(err) || "a non-error value was thrown";
  return scrub(text, secretValuesOf(request));
}

/** The Failed answer for an exception in the sync of `request`: children kept, last status kept, the error named. */
export function internalFailure(request: SyncRequest, err: unknown, now: () => Date): SyncResponse {
  const before = isPlainObject(request.parent.status) ? request.parent.status : {};
  const previous = Array.isArray(before.conditions) ? before.conditions.filter(isCondition) : [];
  const generation =
    typeof request.parent.metadata.generation === "number" ? request.parent.metadata.generation : undefined;
  const failure: ConditionInput = {
    type: T.configGenerated,
    status: "False",
    reason: INTERNAL_ERROR_REASON,
    message: `Internal error in the hooks (a bug: please report it with the hooks' log line): ${describe(err, request)}. The running children are kept unchanged; the spec is applied once this is fixed`,
  };
  // The other conditions still describe the last state they were checked in; the summary is this failure's.
  const summary = summaryConditions({ failure });
  const replaced = new Set<string>([T.configGenerated, ...summary.map((c) => c.type)]);
  const others: ConditionInput[] = previous
    .filter((c) => !replaced.has(c.type))
    .map(({ type, status, reason, message }) => ({ type, status, reason, message }));
  const { notes: _notes, ...kept } = before;
  return {
    status: {
      ...kept,
      phase: "Failed",
      ...(generation !== undefined ? { observedGeneration: generation } : {}),
      conditions: toConditions([failure, ...others, ...summary], previous, now, generation),
    },
    children: keptChildren(request.children),
  };
}

/**
 * A running server whose spec now asks for more pods than its state allows (state kept inside
 * each pod, lib/config/shared-state.ts) keeps running as it is: the sync stops like any other
 * refusal (its observed children re-emitted unchanged, `Stalled` with reason `UnsharedState`),
 * and the status says what runs and what would let the spec apply.
 */
import { UNSHARED_STATE } from "./config-plan";
import type { Extra, SyncContext } from "./answer";
import type { SyncFailure } from "../status/status";

export function withUnsharedNote(ctx: SyncContext, failure: SyncFailure, extra: Extra): Extra {
  const deployment = ctx.observed.deployment;
  if (failure.reason !== UNSHARED_STATE || deployment === undefined) return extra;
  const note = `spec.workload: the running Deployment (${deployment.totalReplicas} pods) and the other children are kept as they are; this spec applies once its state is shared between pods (see ConfigGenerated) or it runs a single pod`;
  return { ...extra, notes: [...extra.notes, note] };
}

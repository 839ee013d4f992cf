/**
 * How a sync answers: what it depends on (`SyncDeps`), the status it reports, and the answer of a
 * sync that stops — every observed child kept as it is (docs/failure-policy.md), the status
 * saying what to fix, first-time failures creating nothing.
 */
import type { ExposeWith, GatewayParentRefInput } from "../api/expose-types";
import type { ServerMonitoringSettings } from "../distributions/monitoring";
import type { DistributionTable } from "../distributions/table";
import { buildStatus, type StatusInput, type SyncFailure } from "../status/status";
import type { KubeObject, SyncRequest, SyncResponse } from "../wire/metacontroller";
import { transientResync } from "./backoff";
import { keptChildren } from "./keep";
import type { Observed } from "../status/observed";
import type { Parent } from "./parent";

export interface SyncDeps {
  readonly now: () => Date;
  readonly distributions: DistributionTable;
  /** Namespace of the hooks and Metacontroller, admitted by every NetworkPolicy. */
  readonly hooksNamespace: string;
  readonly exposeWith: ExposeWith;
  /** The Gateway of exposed CRs that name none (LLSD_GATEWAY_PARENT). */
  readonly gatewayParent?: GatewayParentRefInput;
  /** `status.version.operatorVersion` (OPERATOR_VERSION or the package version). */
  readonly operatorVersion?: string;
  /** What is wrong with the operator's image overrides file; noted in the status of the parents it concerns. */
  readonly imageOverrideProblems?: readonly string[];
  /** ServiceMonitors and the scraper namespace (lib/distributions/monitoring.ts); absent: none, `monitoring`. */
  readonly serverMonitoring?: ServerMonitoringSettings;
}

/** One sync of one parent: the request (its parent in v1alpha2), the parent as it states it, its observed children. */
export interface SyncContext {
  readonly request: SyncRequest;
  readonly deps: SyncDeps;
  readonly parent: Parent;
  readonly observed: Observed;
}

/** What the status says besides the outcome. */
export interface Extra {
  readonly port: number;
  readonly image?: string;
  readonly notes: readonly string[];
  readonly live: StatusInput["live"];
  readonly externalProviders?: StatusInput["externalProviders"];
  /** Secret references checked; absent when the sync stopped before checking them. */
  readonly secretCount?: number;
}

/** A sync that stops: what failed, what the status can still say, and whether it may pass by itself. */
export interface Stop {
  readonly failure: SyncFailure;
  readonly extra: Extra;
  readonly transient?: boolean;
}

/** Re-check soon while pods come up, so status follows the rollout without waiting for the resync period. */
export const ROLLOUT_RESYNC_SECONDS = 15;
/** Ask a server that did not answer again after this long (lib/live caches the failure as long). */
const LIVE_RETRY_SECONDS = 30;

export function respond(
  status: ReturnType<typeof buildStatus>,
  children: KubeObject[],
  resync: number | undefined,
): SyncResponse {
  const retry = status.retrySoon ? LIVE_RETRY_SECONDS : undefined;
  const after = [resync, retry].filter((s): s is number => s !== undefined);
  return { status: status.status, children, ...(after.length > 0 ? { resyncAfterSeconds: Math.min(...after) } : {}) };
}

/** A failed sync: keep every observed child as it is, say what to fix. */
/**
 * The status's input from the parent and what the sync found, field by field: spreading both
 * into one object and adding fields to it is among the slowest things V8 does with a literal.
 * Callers add what only they know (a failure; the config in use).
 */
export function statusInput(ctx: SyncContext, extra: Extra): { -readonly [K in keyof StatusInput]: StatusInput[K] } {
  const { parent, observed, deps } = ctx;
  return {
    name: parent.name,
    namespace: parent.namespace,
    generation: parent.generation,
    previous: parent.previous,
    port: extra.port,
    image: extra.image,
    live: extra.live,
    externalProviders: extra.externalProviders,
    notes: extra.notes,
    secretCount: extra.secretCount,
    observed,
    now: deps.now,
  };
}

export function failed(ctx: SyncContext, stop: Stop): SyncResponse {
  const { parent: p, deps } = ctx;
  const input = statusInput(ctx, stop.extra);
  input.failure = stop.transient ? { ...stop.failure, transient: true } : stop.failure;
  const status = buildStatus(input);
  return respond(
    status,
    keptChildren(ctx.request.children),
    stop.transient ? transientResync(p.previous?.conditions, stop.failure, deps.now) : undefined,
  );
}

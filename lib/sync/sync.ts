/**
 * The sync hook as a pure function: observed (parent, children, related) → desired (children,
 * status). The clock and the environment come in through `deps` (style rule 1).
 */
import type { FieldError } from "../errors";
import type { CanonicalSpec } from "../api/canonical";
import { validate } from "../api/validate";
import { desiredChildren } from "../children";
import { findDistribution, type DistributionTable } from "../distributions/table";
import type { Condition } from "../status/conditions";
import { buildStatus, type ConfigInUse, type SyncFailure } from "../status/status";
import type { KubeObject, SyncRequest, SyncResponse } from "../wire/metacontroller";
import type { BaseOutcome } from "./base-source";
import { planConfig } from "./config-plan";
import { configMapInUse, keptChildren, reemit } from "./keep";
import { referencesOf } from "./references";
import { checkRelated } from "./related";

export interface SyncDeps {
  readonly now: () => Date;
  readonly distributions: DistributionTable;
  /** Namespace of the hooks and Metacontroller, admitted by every NetworkPolicy. */
  readonly hooksNamespace: string;
  readonly exposeWith: "ingress" | "route";
}

/** Re-check soon while pods come up, so status follows the rollout without waiting for the resync period. */
const ROLLOUT_RESYNC_SECONDS = 15;

type PreviousStatus = { conditions?: readonly Condition[]; configGeneration?: { configMapName?: string; generatedAt?: string } };

interface Parent {
  readonly name: string;
  readonly namespace: string;
  readonly generation?: number;
  readonly previous?: PreviousStatus;
}

/** Only what a previous status can contribute (timestamps), and only in the shape we wrote it. */
function previousOf(status: unknown): PreviousStatus | undefined {
  if (typeof status !== "object" || status === null) return undefined;
  const { conditions, configGeneration } = status as { conditions?: unknown; configGeneration?: unknown };
  const isCondition = (c: unknown): c is Condition =>
    typeof c === "object" && c !== null && typeof (c as Condition).type === "string" && typeof (c as Condition).lastTransitionTime === "string";
  return {
    ...(Array.isArray(conditions) ? { conditions: conditions.filter(isCondition) } : {}),
    ...(typeof configGeneration === "object" && configGeneration !== null ? { configGeneration: configGeneration as PreviousStatus["configGeneration"] } : {}),
  };
}

function parentOf(request: SyncRequest): Parent {
  const m = request.parent.metadata;
  const previous = previousOf(request.parent.status);
  return {
    name: m.name,
    namespace: m.namespace ?? "default",
    ...(typeof m.generation === "number" ? { generation: m.generation } : {}),
    ...(previous ? { previous } : {}),
  };
}

function imageOf(spec: CanonicalSpec, table: DistributionTable): string | undefined {
  const d = spec.distribution;
  return d.kind === "name" ? findDistribution(d.name, table)?.image : d.kind === "image" ? d.image : undefined;
}

/** Retry soon after a registry problem that may pass (Metacontroller also retries on related changes). */
const TRANSIENT_RESYNC_SECONDS = 30;

/** A failed sync: keep every observed child as it is, say what to fix. First-time failures create nothing. */
function failed(request: SyncRequest, p: Parent, deps: SyncDeps, failure: SyncFailure, extra: { port: number; image?: string; notes: readonly string[] }, transient = false): SyncResponse {
  const status = buildStatus({
    ...p, ...extra, failure, secretCount: 0, children: request.children ?? {}, now: deps.now(),
  });
  return { status, children: keptChildren(request.children), ...(transient ? { resyncAfterSeconds: TRANSIENT_RESYNC_SECONDS } : {}) };
}

function invalidSpec(errors: readonly FieldError[]): SyncFailure {
  return { type: "ConfigGenerated", reason: "InvalidSpec", errors };
}

/**
 * `found` is the base config read from the image before this pure step (lib/sync/base-source);
 * without it, named distributions use their bundled config.
 */
export function sync(request: SyncRequest, deps: SyncDeps, found: BaseOutcome = { notes: [] }): SyncResponse {
  const p = parentOf(request);
  const checked = validate((request.parent as { spec?: unknown }).spec, { distributions: deps.distributions });
  const notes = [...checked.warnings.map((w) => `${w.path}: ${w.message}`), ...found.notes];
  if (!checked.spec || checked.errors.length > 0) return failed(request, p, deps, invalidSpec(checked.errors), { port: 0, notes });
  const spec = checked.spec;
  const base = { port: spec.networking.port, image: imageOf(spec, deps.distributions), notes };
  const refs = referencesOf(spec);
  const related = checkRelated(refs, request.related, p.namespace);
  if (related.secrets.length > 0) {
    const reason = related.secrets.some((e) => e.message.startsWith("Secret not found")) ? "SecretNotFound" : "SecretKeyMissing";
    return failed(request, p, deps, { type: "SecretsResolved", reason, errors: related.secrets }, base);
  }
  if (related.configMaps.length > 0) return failed(request, p, deps, { type: "ConfigGenerated", reason: "ConfigMapNotFound", errors: related.configMaps }, base);
  if (found.failure) return failed(request, p, deps, found.failure, base, found.transient === true);
  const plan = planConfig({
    name: p.name, namespace: p.namespace, spec, related: request.related, distributions: deps.distributions,
    ...(found.base ? { base: found.base } : {}),
  });
  if ("failure" in plan) return failed(request, p, deps, plan.failure, base);
  const children = desiredChildren({
    name: p.name, namespace: p.namespace, spec, image: base.image ?? "",
    ...(plan.mounted ? { config: plan.mounted } : {}),
    secretEnv: plan.secretEnv, plainEnv: plan.plainEnv, ...(plan.postgres ? { postgres: plan.postgres } : {}),
    hooksNamespace: deps.hooksNamespace, exposeWith: deps.exposeWith,
  });
  const status = buildStatus({
    ...p, ...base, notes: [...notes, ...plan.notes], secretCount: refs.secretKeys.length + refs.secrets.length,
    config: plan.inUse as ConfigInUse, children: request.children ?? {}, now: deps.now(),
    ...(found.base ? { digest: found.base.digest } : {}),
  });
  return {
    status,
    children: withPreviousConfigMap(children, request, p),
    ...(status.phase === "Initializing" || status.phase === "Pending" ? { resyncAfterSeconds: ROLLOUT_RESYNC_SECONDS } : {}),
  };
}

/** Rollout safety: the ConfigMap the running pods mount stays until the Deployment no longer does (at most two). */
function withPreviousConfigMap(children: KubeObject[], request: SyncRequest, p: Parent): KubeObject[] {
  const inUse = configMapInUse(request.children, p.name, p.namespace);
  if (!inUse || children.some((c) => c.kind === "ConfigMap" && c.metadata.name === inUse.metadata.name)) return children;
  const all = [...children, reemit(inUse)];
  return all.sort((a, b) => (a.kind === b.kind ? (a.metadata.name < b.metadata.name ? -1 : 1) : a.kind < b.kind ? -1 : 1));
}

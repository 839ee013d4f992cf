/**
 * The conditions generic tools read: `Ready` (what `kubectl wait --for=condition=Ready` and Argo
 * CD's health check wait for) and kstatus's `Reconciling` and `Stalled` (what Flux reads). They
 * summarise the others: Ready is True only once the pods run the Deployment spec of this very
 * sync, every one of them updated and ready, and the server answered when it was asked.
 */
import type { ObservedDeployment } from "./observed";
import type { ConditionInput } from "./conditions";

export const SUMMARY_TYPES = { ready: "Ready", reconciling: "Reconciling", stalled: "Stalled" } as const;

/** A sync that stopped (lib/status/status.ts's SyncFailure). */
interface Failure {
  readonly type: string;
  readonly reason: string;
  /** What the failed condition says. */
  readonly message: string;
  /** It may pass by itself (the registry came back): retried, not stalled. */
  readonly transient?: boolean;
}

export interface SummaryInput {
  readonly failure?: Failure;
  /** The hash of the Deployment spec this sync asked for (absent when the sync stopped). */
  readonly desiredDeploymentHash?: string;
  /** The hash the observed Deployment carries: the spec Metacontroller last applied. */
  readonly appliedDeploymentHash?: string;
  readonly deployment?: ObservedDeployment;
  /** The HealthCheck condition of this sync (absent: nobody asked). */
  readonly health?: ConditionInput;
  readonly generation?: number;
  /** Why `llamastack.io/hold-children` keeps the running children (lib/sync/hold.ts). */
  readonly held?: string;
}

/** Where the rollout of the current spec stands, read from the observed Deployment like `kubectl rollout status`. */
type Rollout =
  | { readonly state: "rolling"; readonly message: string }
  | { readonly state: "stuck"; readonly message: string }
  | { readonly state: "scaledToZero" }
  | { readonly state: "done"; readonly ready: number };

function rolloutOf(input: SummaryInput): Rollout {
  const d = input.deployment;
  if (!d) return { state: "rolling", message: "Waiting for the Deployment to be created" };
  if (input.appliedDeploymentHash !== input.desiredDeploymentHash)
    return { state: "rolling", message: "Waiting for Metacontroller to apply the current Deployment spec" };
  if (d.generation !== undefined && d.observedGeneration !== d.generation)
    return { state: "rolling", message: "Waiting for the Deployment controller to observe the new spec" };
  if (d.progressDeadlineExceeded) return { state: "stuck", message: d.progressDeadlineExceeded };
  return podsOf(d);
}

/** The pods of a Deployment whose controller saw the current spec. */
function podsOf(d: ObservedDeployment): Rollout {
  const wanted = d.replicas ?? 1;
  if (wanted === 0) return d.totalReplicas > 0 ? rolling("pods still terminating") : { state: "scaledToZero" };
  if (d.updatedReplicas < wanted) return rolling(`${d.updatedReplicas} of ${wanted} pods updated`);
  if (d.totalReplicas > d.updatedReplicas)
    return rolling(`${d.totalReplicas - d.updatedReplicas} old pods still running`);
  if (d.readyReplicas < wanted) return rolling(`${d.readyReplicas} of ${wanted} updated pods ready`);
  return { state: "done", ready: d.readyReplicas };
}

const rolling = (detail: string): Rollout => ({ state: "rolling", message: `Rolling out: ${detail}` });

interface Verdict {
  readonly ready: boolean;
  readonly reason: string;
  readonly message: string;
  readonly reconciling: boolean;
  readonly stalled: boolean;
}

/** The failed condition's reason and message: what Argo CD and `kubectl wait` show. */
function failureVerdict(f: Failure): Verdict {
  const message = `${f.type} is False (${f.reason}): ${f.message}`;
  return f.transient
    ? { ready: false, reason: f.reason, message, reconciling: true, stalled: false }
    : { ready: false, reason: f.reason, message, reconciling: false, stalled: true };
}

function rolloutVerdict(input: SummaryInput, r: Rollout): Verdict {
  const generation = input.generation === undefined ? "The current spec" : `Generation ${input.generation}`;
  switch (r.state) {
    case "rolling":
      return { ready: false, reason: "RolloutInProgress", message: r.message, reconciling: true, stalled: false };
    case "stuck":
      return {
        ready: false,
        reason: "ProgressDeadlineExceeded",
        message: r.message,
        reconciling: false,
        stalled: true,
      };
    case "scaledToZero":
      return {
        ready: false,
        reason: "ScaledToZero",
        message: `${generation} is rolled out with 0 replicas (spec.workload.replicas): no server runs`,
        reconciling: false,
        stalled: false,
      };
    case "done":
      return healthVerdict(input.health, `${generation} is served by ${r.ready} ready pods`);
  }
}

/** A finished rollout is Ready unless the server was asked and did not answer. */
function healthVerdict(health: ConditionInput | undefined, served: string): Verdict {
  if (health?.status === "False")
    return { ready: false, reason: health.reason, message: health.message, reconciling: false, stalled: false };
  return { ready: true, reason: "Serving", message: served, reconciling: false, stalled: false };
}

/**
 * Held on purpose: not Ready for this generation, and Stalled, not Reconciling: nothing is under
 * way, and nothing changes until someone removes the annotation (docs/gitops.md says why).
 */
const heldVerdict = (message: string): Verdict => ({
  ready: false,
  reason: HELD_REASON,
  message,
  reconciling: false,
  stalled: true,
});

export const HELD_REASON = "ChildrenHeld";

export function summaryConditions(input: SummaryInput): ConditionInput[] {
  const v = input.failure
    ? failureVerdict(input.failure)
    : input.held !== undefined
      ? heldVerdict(input.held)
      : rolloutVerdict(input, rolloutOf(input));
  const { reconciling, stalled } = SUMMARY_TYPES;
  return [
    { type: SUMMARY_TYPES.ready, status: v.ready ? "True" : "False", reason: v.reason, message: v.message },
    v.reconciling
      ? { type: reconciling, status: "True", reason: v.reason, message: v.message }
      : v.stalled
        ? { type: reconciling, status: "False", reason: "Stalled", message: "Nothing is retried: see Stalled" }
        : { type: reconciling, status: "False", reason: "Reconciled", message: "Nothing left to roll out" },
    v.stalled
      ? { type: stalled, status: "True", reason: v.reason, message: v.message }
      : {
          type: stalled,
          status: "False",
          reason: v.reconciling ? "Reconciling" : "Reconciled",
          message: "Nothing blocks the rollout",
        },
  ];
}

/** Whether the summary asks to look again soon (a rollout under way). */
export const isReconciling = (conditions: readonly ConditionInput[]): boolean =>
  conditions.some((c) => c.type === SUMMARY_TYPES.reconciling && c.status === "True");

/**
 * Small getters over `spec.workload` that several children agree on (Deployment, HPA, PDB):
 * how many pods run, whether there can be more than one, where the storage is mounted; and how
 * the user's pass-through Kubernetes objects (`workload.overrides`) join ours.
 */
import type { WorkloadInput } from "../api/v1alpha2";
import { copyJson } from "../json-copy";
import { DEFAULT_MOUNT_PATH, DEFAULT_REPLICAS } from "../defaults";

/** Server workers when `workload.workers` is absent (Go operator: `LLS_WORKERS` and the cpu request default to 1). */
export const DEFAULT_WORKERS = 1;

export function replicaCount(workload: WorkloadInput): number {
  return workload.replicas ?? DEFAULT_REPLICAS;
}

/**
 * The HPA's floor: max(1, replicas, minReplicas) like the Go operator, but never above
 * maxReplicas. Nothing rejects `replicas > maxReplicas`, and an HPA with min > max is refused
 * by the apiserver, which would fail every apply of this parent.
 */
export function hpaMinReplicas(workload: WorkloadInput): number {
  const a = workload.autoscaling;
  if (!a) return replicaCount(workload);
  const floor = Math.max(1, replicaCount(workload), a.minReplicas ?? 1);
  return Math.min(floor, a.maxReplicas);
}

/**
 * Can the workload run more than one pod? Decides the default spread, anti-affinity and PDB.
 * Under an HPA the ceiling counts, not `replicas` (which the HPA owns): those defaults are soft
 * (ScheduleAnyway, preferred) or harmless at one pod (`maxUnavailable: 1` never blocks eviction).
 */
export function runsSeveralPods(workload: WorkloadInput): boolean {
  const a = workload.autoscaling;
  return a ? a.maxReplicas > 1 : replicaCount(workload) > 1;
}

/**
 * The same question for a v1alpha1 CR, answered like the Go operator: `spec.replicas > 1`,
 * even under an HPA.
 */
export function legacyRunsSeveralPods(workload: WorkloadInput): boolean {
  return replicaCount(workload) > 1;
}

/** Where the server's state (and `HF_HOME`) lives: the PVC, or an emptyDir without storage. */
export function storageMountPath(workload: WorkloadInput): string {
  return workload.storage?.mountPath ?? DEFAULT_MOUNT_PATH;
}

/**
 * Kubernetes sub-objects the CRD schema already validated (env, volumes, spread constraints…)
 * are passed through as written. Deep-copied so the response never aliases the request.
 */
export function passThrough<T>(items: readonly object[] | undefined): T[] {
  const out: T[] = [];
  // A loop, not a map with a closure: several lists are passed through on every sync.
  for (const item of items ?? [])
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- copied through unchanged: the CRD admits these lists as free objects and the apiserver checks each as a T when it admits the Deployment; here only the upsert key (name, mountPath) is read, and a missing one never matches
    out.push(copyJson(item) as T);
  return out;
}

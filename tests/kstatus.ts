/**
 * kstatus's generic rules (sigs.k8s.io/cli-utils/pkg/kstatus/status, `checkGenericProperties`
 * and `checkGeneration`), which Flux's health checks and `kubectl`-free CI tools apply to a
 * custom resource: deletion → Terminating; an observedGeneration behind metadata.generation →
 * InProgress; `Reconciling: True` → InProgress; `Stalled: True` → Failed; otherwise Current.
 */
type Condition = { readonly type?: unknown; readonly status?: unknown; readonly message?: unknown };

export type KstatusResult = "Terminating" | "InProgress" | "Failed" | "Current";

export function kstatus(object: {
  readonly metadata?: { readonly generation?: unknown; readonly deletionTimestamp?: unknown };
  readonly status?: { readonly observedGeneration?: unknown; readonly conditions?: readonly Condition[] };
}): KstatusResult {
  if (typeof object.metadata?.deletionTimestamp === "string" && object.metadata.deletionTimestamp !== "")
    return "Terminating";
  const generation = object.metadata?.generation;
  const observed = object.status?.observedGeneration;
  if (typeof generation === "number" && typeof observed === "number" && observed !== generation) return "InProgress";
  for (const c of object.status?.conditions ?? []) {
    if (c.type === "Reconciling" && c.status === "True") return "InProgress";
    if (c.type === "Stalled" && c.status === "True") return "Failed";
  }
  return "Current";
}

/**
 * The server container's resources: the user's `workload.resources`, with the Go operator's
 * defaults filled in where a value is missing.
 */
import { copyJson } from "../json-copy";
import type { V1ResourceRequirements } from "@kubernetes/client-node";
import type { WorkloadInput } from "../api/v1alpha2";
import { DEFAULT_WORKERS } from "./workload";

/** Memory request when none is given (Go operator default). */
export const DEFAULT_MEMORY_REQUEST = "1Gi";

type Quantities = { [name: string]: string };

/** Quantities may be written as JSON numbers; the client types (and the apiserver's output) use strings. */
function quantities(value: unknown): Quantities {
  if (typeof value !== "object" || value === null) return {};
  const out: Quantities = {};
  for (const [name, q] of Object.entries(value)) {
    if (typeof q === "string" || typeof q === "number") out[name] = String(q);
  }
  return out;
}

/** "0", "0m", "0.0" and 0 all mean no request (the Go operator treats a zero cpu request as missing). */
function nonZero(q: string | undefined): string | undefined {
  return q === undefined || Number.parseFloat(q) === 0 ? undefined : q;
}

export function buildResources(workload: WorkloadInput): V1ResourceRequirements {
  const user = (workload.resources ?? {}) as { requests?: unknown; limits?: unknown; claims?: unknown };
  const { requests, limits } = withDefaults(workload, quantities(user.requests), quantities(user.limits));
  // Assigned when present, not spread in: every container of every sync builds this.
  const resources: V1ResourceRequirements = { requests };
  if (Object.keys(limits).length > 0) resources.limits = limits;
  if (Array.isArray(user.claims)) resources.claims = copyJson(user.claims);
  return resources;
}

/** The user's quantities with the cpu and memory requests filled in (and limits, when sized by workers). */
function withDefaults(
  workload: WorkloadInput,
  requests: Quantities,
  limits: Quantities,
): { requests: Quantities; limits: Quantities } {
  // A missing request falls back to the limit first (what the apiserver itself does): a
  // default above a smaller user limit would make the pod invalid.
  const cpu = nonZero(requests.cpu) ?? limits.cpu ?? String(workload.workers ?? DEFAULT_WORKERS);
  const memory = requests.memory ?? limits.memory ?? DEFAULT_MEMORY_REQUEST;
  requests.cpu = cpu;
  requests.memory = memory;
  // Guaranteed-style limits only when the user sized the server by workers (Go operator).
  if (workload.workers !== undefined) {
    limits.cpu ??= cpu;
    limits.memory ??= memory;
  }
  return { requests, limits };
}

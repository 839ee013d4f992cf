/**
 * What a sync request says about its parent: name, namespace, generation, the distribution as
 * written, and what its previous status can contribute. The parent's status and spec are the
 * cluster's word: read through guards, in the shape we write them, never cast.
 */
import { isPlainObject } from "../json";
import { isCondition, type Condition } from "../status/conditions";
import type { PreviousConfigGeneration, PreviousResolvedConfig } from "../status/held";
import { previousLiveOf, type PreviousLive } from "../status/live";
import type { SyncRequest } from "../wire/metacontroller";

export interface PreviousStatus {
  readonly conditions?: readonly Condition[];
  readonly configGeneration?: PreviousConfigGeneration;
  /** `resolvedDistribution`'s config fields: the source of a config a held CR still runs. */
  readonly resolvedConfig?: PreviousResolvedConfig;
  readonly live?: PreviousLive;
}

export interface Parent {
  readonly name: string;
  readonly namespace: string;
  readonly generation?: number;
  readonly previous?: PreviousStatus;
}

const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

function configGenerationOf(value: unknown): PreviousStatus["configGeneration"] {
  if (!isPlainObject(value)) return undefined;
  const previous: { -readonly [K in keyof PreviousConfigGeneration]: PreviousConfigGeneration[K] } = {
    configMapName: text(value.configMapName),
    generatedAt: text(value.generatedAt),
  };
  // The counts, for a held CR whose status names the same ConfigMap again (lib/status/held.ts).
  for (const key of ["providerCount", "resourceCount", "configVersion"] as const)
    if (typeof value[key] === "number") previous[key] = value[key];
  return previous;
}

/** Only what a previous status can contribute (timestamps, the server's last answer), and only in the shape we wrote it. */
function previousOf(status: unknown): PreviousStatus | undefined {
  if (!isPlainObject(status)) return undefined;
  const { conditions } = status;
  const configGeneration = configGenerationOf(status.configGeneration);
  // Fields assigned in order: a literal that starts with a spread and adds keys is slow in V8.
  const previous: { -readonly [K in keyof PreviousStatus]: PreviousStatus[K] } = {};
  if (Array.isArray(conditions)) previous.conditions = conditions.filter(isCondition);
  if (configGeneration) previous.configGeneration = configGeneration;
  const resolved = status.resolvedDistribution;
  if (isPlainObject(resolved))
    previous.resolvedConfig = { configSource: text(resolved.configSource), configHash: text(resolved.configHash) };
  previous.live = previousLiveOf(status);
  return previous;
}

export function parentOf(request: SyncRequest): Parent {
  const m = request.parent.metadata;
  const previous = previousOf(request.parent.status);
  return {
    name: m.name,
    namespace: m.namespace ?? "default",
    ...(typeof m.generation === "number" ? { generation: m.generation } : {}),
    ...(previous ? { previous } : {}),
  };
}

/** The spec's distribution as written (also for a spec that does not validate). */
export function distributionOf(request: SyncRequest): { name?: string; image?: string } {
  const spec = request.parent.spec;
  const d = isPlainObject(spec) ? spec.distribution : undefined;
  if (!isPlainObject(d)) return {};
  const name = text(d.name);
  const image = text(d.image);
  return { ...(name !== undefined ? { name } : {}), ...(image !== undefined ? { image } : {}) };
}

/**
 * State that holds with more than one replica. Every pod runs its own server process: state
 * the server keeps inside its pod is not shared, so each pod would answer from its own registry,
 * files and vector stores. When the workload can run more than one pod, the config the server
 * will run (generated, an override, or the image's own) is read for such state. What counts is
 * derived from the line's own config classes (provider-fields.generated.ts), not a hand list:
 * - a storage backend whose class stores at a `db_path` (kv_sqlite, sql_sqlite: a file on the
 *   pod's disk), when a store or a provider uses it; redis, postgres and mongodb are servers
 *   every pod reaches;
 * - an `inline::` provider of `files` or `vector_io`: these two APIs hold data themselves
 *   (localfs writes files to the pod's disk; faiss keeps its index in the process; sqlite-vec,
 *   milvus-lite, inline chromadb and qdrant write a local file). Their `remote::` types are
 *   servers. Other inline providers (responses, batches, messages…) keep their data through a
 *   storage backend (`persistence`, `kvstore`, `sqlstore`), judged as a backend.
 * A provider switched off by env (`${env.X:+id}` with X unset) does not run, so it holds nothing.
 */
import type { WorkloadInput } from "../api/v1alpha2";
import type { Release } from "../distributions/table";
import { isMap, type ConfigDoc, type ProviderEntry } from "./doc";
import { resolvedWithout } from "./env-check";
import { fieldsOf } from "./provider-fields";

/** Said in every refusal of this rule: the sync hook tells it from the other generation errors by it. */
export const KEPT_IN_POD = "kept inside each pod";

/** The field that lets the workload run more than one pod, and what it asks for. */
export interface ScaleOut {
  readonly path: string;
  readonly what: string;
}

export function scaleOut(workload: WorkloadInput): ScaleOut | undefined {
  const a = workload.autoscaling;
  if (a && a.maxReplicas > 1)
    return { path: "spec.workload.autoscaling.maxReplicas", what: `up to ${a.maxReplicas} pods` };
  const replicas = workload.replicas ?? 1;
  return replicas > 1 ? { path: "spec.workload.replicas", what: `${replicas} pods` } : undefined;
}

export type StateKind = "kv" | "sql" | "files" | "vector_io";

/** One piece of pod-local state in a config: a backend (`id` its name) or a provider (`id` its provider_id). */
export interface LocalState {
  readonly kind: StateKind;
  readonly id: string;
  readonly type: string;
  /** Where it is in config.yaml. */
  readonly where: string;
}

/** APIs whose inline providers hold the data themselves (see the file comment). */
const DATA_APIS: readonly StateKind[] = ["files", "vector_io"];

/** The providers the server will start, with the id each answers to. */
function running(doc: ConfigDoc, provided: ReadonlySet<string>): { api: string; id: string; entry: ProviderEntry }[] {
  return Object.keys(doc.providers).flatMap((api) =>
    (doc.providers[api] ?? []).flatMap((entry) => {
      const id = resolvedWithout(entry.provider_id, provided);
      if (id === "" || id === "__disabled__") return [];
      return [{ api, id: id ?? String(entry.provider_id), entry }];
    }),
  );
}

/** Every `backend: <name>` under `value`. */
function backendRefs(value: unknown, out: Set<string>): void {
  if (Array.isArray(value)) for (const v of value) backendRefs(v, out);
  if (!isMap(value)) return;
  for (const key of Object.keys(value)) {
    const v = value[key];
    if (key === "backend" && typeof v === "string") out.add(v);
    else backendRefs(v, out);
  }
}

function localBackends(doc: ConfigDoc, release: Release, used: ReadonlySet<string>, provided: ReadonlySet<string>) {
  const storage = isMap(doc.storage) ? doc.storage : {};
  const backends = isMap(storage.backends) ? storage.backends : {};
  const classes = fieldsOf(release).backends;
  const out: LocalState[] = [];
  for (const id of Object.keys(backends)) {
    const backend = backends[id];
    const type = isMap(backend) ? resolvedWithout(backend.type, provided) : undefined;
    if (type === undefined || !used.has(id) || !("db_path" in (classes[type] ?? {}))) continue;
    out.push({ kind: type.startsWith("kv_") ? "kv" : "sql", id, type, where: `storage.backends.${id}` });
  }
  return out;
}

/** The pod-local state of a config the server will run, backends first, in config order. */
export function podLocalState(doc: ConfigDoc, release: Release, provided: ReadonlySet<string>): LocalState[] {
  const providers = running(doc, provided);
  const used = new Set<string>();
  backendRefs(isMap(doc.storage) ? doc.storage.stores : undefined, used);
  for (const p of providers) backendRefs(p.entry.config, used);
  const local = providers.flatMap(({ api, id, entry }): LocalState[] => {
    const kind = DATA_APIS.find((k) => k === api);
    if (kind === undefined || !entry.provider_type.startsWith("inline::")) return [];
    return [{ kind, id, type: entry.provider_type, where: `providers.${api}.${id}` }];
  });
  return [...localBackends(doc, release, used, provided), ...local];
}

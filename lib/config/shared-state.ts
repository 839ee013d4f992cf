/**
 * State that holds with more than one replica. Every pod runs its own server process: state
 * the server keeps inside its pod is not shared, so each pod would answer from its own registry,
 * files and vector stores. When the workload can run more than one pod, the config the server
 * will run (generated, an override, or the image's own) is read for such state, with `${env.…}`
 * evaluated against the container's env as the server will (lib/config/container-env.ts). What
 * counts is what the server's code does with each entry (lib/config/state-place.ts), not its
 * type's prefix:
 * - a storage backend a store or a running provider uses: a `db_path` class (kv_sqlite,
 *   sql_sqlite) is a file on the pod's disk; a server backend at a loopback host is each pod's own;
 * - a provider of `files` or `vector_io`, the APIs that hold data themselves: every `inline::`
 *   type (localfs writes to the pod's disk; faiss keeps its index in the process; sqlite-vec,
 *   milvus-lite, inline chromadb and qdrant write a local file), and a `remote::` type that runs
 *   in the process (milvus with a file `uri`, qdrant at `:memory:`) or is reached at the pod's
 *   loopback. Other providers (responses, batches, messages…) keep their data through a storage
 *   backend (`persistence`, `kvstore`, `sqlstore`), judged as a backend.
 * A provider switched off by env (`${env.X:+id}` with X unset) does not run, so it holds nothing.
 */
import type { WorkloadInput } from "../api/v1alpha2";
import type { Release } from "../distributions/table";
import { type ConfigDoc, type ProviderEntry } from "./doc";
import { isPlainObject as isMap } from "../json";
import { resolvedWith, type EnvValues } from "./container-env";
import { fieldsOf, typeFields } from "./provider-fields";
import { backendPlace, remotePlace } from "./state-place";
import { perFrozen } from "../remembered";

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
  /** Why it stays in the pod, when its type does not say it (a `remote::` type, a server backend). */
  readonly why?: string;
}

/** APIs whose inline providers hold the data themselves (see the file comment). */
const DATA_APIS: readonly StateKind[] = ["files", "vector_io"];

interface Running {
  readonly api: string;
  readonly id: string;
  readonly entry: ProviderEntry;
}

/** The providers the server will start, with the id each answers to (their types are resolved where asked). */
function running(doc: ConfigDoc, env: EnvValues): Running[] {
  const out: Running[] = [];
  for (const api of Object.keys(doc.providers))
    for (const entry of doc.providers[api] ?? []) {
      const id = resolvedWith(entry.provider_id, env);
      if (id !== "" && id !== "__disabled__") out.push({ api, id: id ?? String(entry.provider_id), entry });
    }
  return out;
}

/** Every `backend: <name>` under `value`. */
function collectBackendRefs(value: unknown, out: Set<string>): void {
  if (Array.isArray(value)) for (const v of value) collectBackendRefs(v, out);
  if (!isMap(value)) return;
  for (const key of Object.keys(value)) {
    const v = value[key];
    if (key === "backend" && typeof v === "string") out.add(v);
    else collectBackendRefs(v, out);
  }
}

/** A kept base's provider configs are frozen: their references are read once (lib/remembered.ts). */
const frozenBackendRefs = perFrozen((value: object): ReadonlySet<string> => {
  const refs = new Set<string>();
  collectBackendRefs(value, refs);
  return refs;
});

/** Every `backend: <name>` under `value`, added to `out`. */
function backendRefs(value: unknown, out: Set<string>): void {
  if (typeof value !== "object" || value === null) return;
  for (const ref of frozenBackendRefs(value)) out.add(ref);
}

/** One backend, if it is pod-local; `id` its name. */
function localBackend(id: string, backend: unknown, release: Release, env: EnvValues): LocalState | undefined {
  if (!isMap(backend)) return undefined;
  const type = resolvedWith(backend.type, env);
  const keys = type === undefined ? undefined : fieldsOf(release).backends[type];
  const place = type !== undefined && keys !== undefined ? backendPlace(backend, keys, env) : undefined;
  if (type === undefined || place === undefined) return undefined;
  const at = {
    kind: type.startsWith("kv_") ? ("kv" as const) : ("sql" as const),
    id,
    type,
    where: `storage.backends.${id}`,
  };
  // A file backend's type says where it is; a server's host needs saying.
  return "db_path" in (keys ?? {}) ? at : { ...at, why: place.why };
}

function localBackends(doc: ConfigDoc, release: Release, used: ReadonlySet<string>, env: EnvValues): LocalState[] {
  const storage = isMap(doc.storage) ? doc.storage : {};
  const backends = isMap(storage.backends) ? storage.backends : {};
  return Object.keys(backends).flatMap((id) =>
    used.has(id) ? (localBackend(id, backends[id], release, env) ?? []) : [],
  );
}

/** A running provider of a data API that keeps its data in the pod, or undefined. */
function localProvider(p: Running, release: Release, env: EnvValues): LocalState | undefined {
  const kind = DATA_APIS.find((k) => k === p.api);
  // The type after substitution; undefined when a value not known here decides it.
  const type = kind === undefined ? undefined : resolvedWith(p.entry.provider_type, env);
  if (kind === undefined || type === undefined) return undefined;
  const at = { kind, id: p.id, type, where: `providers.${p.api}.${p.id}` };
  if (type.startsWith("inline::")) return at;
  const place = remotePlace(type, p.entry.config, typeFields(release, p.api, type)?.url, env);
  return place && { ...at, why: place.why };
}

/** The pod-local state of a config the server will run, backends first, in config order. */
export function podLocalState(doc: ConfigDoc, release: Release, env: EnvValues): LocalState[] {
  const providers = running(doc, env);
  const used = new Set<string>();
  backendRefs(isMap(doc.storage) ? doc.storage.stores : undefined, used);
  for (const p of providers) backendRefs(p.entry.config, used);
  const local = providers.flatMap((p) => localProvider(p, release, env) ?? []);
  return [...localBackends(doc, release, used, env), ...local];
}

/**
 * The refusals of lib/config/shared-state.ts's rule, with their fixes: in the spec's terms for a
 * generated config (or the image's own, which a spec field turns into a generated one), in the
 * config's own terms for a ConfigMap mounted as is.
 */
import { SERVER_API } from "../api/apis";
import type { CanonicalSpec } from "../api/canonical";
import { KV_BACKEND, SQL_BACKEND } from "../defaults";
import type { Release } from "../distributions/table";
import { child, fieldError, type FieldError } from "../errors";
import { readBase } from "./base";
import type { JsonMap } from "../json";
import type { ConfigDoc } from "./doc";
import { containerEnv, type EnvValues } from "./container-env";
import { KEPT_IN_POD, podLocalState, scaleOut, type LocalState, type ScaleOut, type StateKind } from "./shared-state";

/** Where an override ConfigMap is named (the refusal of its config is said there). */
const OVERRIDE_PATH = "spec.overrideConfig.configMapName";

/** How to share state of one kind, in the spec's terms: what replaces it in the generated config (`ids` its names). */
function specFix(kind: StateKind, ids: readonly string[]): string {
  const some = ids.join(", ");
  switch (kind) {
    case "kv":
      return ids.every((id) => id === KV_BACKEND)
        ? "spec.storage.kv with type: postgres and a connectionString Secret (or type: redis and its endpoint)"
        : `kv_redis or kv_postgres for ${some} in an overrideConfig (only ${KV_BACKEND} follows spec.storage.kv)`;
    case "sql":
      return ids.every((id) => id === SQL_BACKEND)
        ? "spec.storage.sql with type: postgres and a connectionString Secret"
        : `sql_postgres for ${some} in an overrideConfig (only ${SQL_BACKEND} follows spec.storage.sql)`;
    case "files":
      return `files on S3 (spec.providers.files with id ${some} and provider: s3), or files in spec.disabled`;
    case "vector_io":
      return `a vector store server every pod reaches (spec.providers.vectorIo with provider pgvector, qdrant, milvus or chromadb with an http(s) endpoint that is not the pod's loopback) with vectorIo in spec.replace, which drops the base's others (or under the same id: ${some}), or vectorIo in spec.disabled`;
  }
}

/** The same, in the config's own terms (a ConfigMap mounted as is). */
const CONFIG_FIX: { readonly [k in StateKind]: string } = {
  kv: "a kv_redis or kv_postgres backend",
  sql: "a sql_postgres backend",
  files: "remote::s3 files (or no files API)",
  vector_io:
    "a vector_io provider on a server every pod reaches, such as remote::pgvector, remote::qdrant with a url, remote::milvus with an http(s) uri or remote::chromadb, at an address other than the pod's loopback (or no vector_io API)",
};

/** Where the refusal is said, and in whose terms its fix is. */
export interface StateAt {
  readonly path: string;
  /** Before the list, e.g. `ConfigMap my-config: `. */
  readonly prefix?: string;
  readonly fixIn: "spec" | "config";
}

/** One fix per kind of state, in the order the kinds first appear. */
function fixesOf(items: readonly LocalState[], fixIn: StateAt["fixIn"]): string {
  const ids = new Map<StateKind, string[]>();
  for (const s of items) ids.set(s.kind, [...(ids.get(s.kind) ?? []), s.id]);
  return [...ids].map(([kind, some]) => (fixIn === "spec" ? specFix(kind, some) : CONFIG_FIX[kind])).join("; ");
}

export function stateError(items: readonly LocalState[], scale: ScaleOut, at: StateAt): FieldError {
  const listed = items.map((s) => `${s.where} (${s.type}${s.why ? `, ${s.why}` : ""})`).join(", ");
  const verb = items.length === 1 ? "is" : "are";
  return fieldError(
    at.path,
    `${at.prefix ?? ""}${listed} ${verb} ${KEPT_IN_POD}, and ${scale.path} runs ${scale.what}: each pod would answer from its own copy. To share the state, use ${fixesOf(items, at.fixIn)}; or run a single pod`,
  );
}

/** The spec field that made a backend pod-local: its sqlite type, or its loopback endpoint. */
function storagePathOf(s: LocalState, spec: CanonicalSpec): string | undefined {
  const store = s.kind === "kv" || s.kind === "sql" ? spec.storage?.[s.kind] : undefined;
  const own = s.id === (s.kind === "kv" ? KV_BACKEND : SQL_BACKEND);
  if (!own || store === undefined) return undefined;
  if (store.type === "sqlite") return child(store.path, "type");
  return store.type === "redis" && store.endpoint !== undefined ? child(store.path, "endpoint") : undefined;
}

/** The spec field that put a piece of state in the generated config, if one did. */
function specPathOf(s: LocalState, spec: CanonicalSpec): string | undefined {
  if (s.kind === "kv" || s.kind === "sql") return storagePathOf(s, spec);
  const p = spec.providers.find((q) => SERVER_API[q.api] === s.kind && q.id === s.id);
  if (p === undefined) return undefined;
  // A remote type kept in the pod is so by where it points: the endpoint, else its settings.
  if (s.why === undefined) return child(p.path, "provider");
  if (p.endpoint !== undefined) return child(p.path, "endpoint");
  return child(p.path, p.settings !== undefined ? "settings" : "provider");
}

/** The generated config's pod-local state, refused once per spec field that brought it (the rest at the scale field). */
export function generatedStateErrors(
  spec: CanonicalSpec,
  doc: ConfigDoc,
  release: Release,
  env: EnvValues,
): FieldError[] {
  const scale = scaleOut(spec.workload);
  if (scale === undefined) return [];
  const byPath = new Map<string, LocalState[]>();
  for (const s of podLocalState(doc, release, env)) {
    const path = specPathOf(s, spec) ?? scale.path;
    byPath.set(path, [...(byPath.get(path) ?? []), s]);
  }
  return [...byPath].map(([path, items]) => stateError(items, scale, { path, fixIn: "spec" }));
}

/** A config run as it is (an override ConfigMap, the image's own): its pod-local state, refused at `at.path`. */
export function configStateErrors(spec: CanonicalSpec, doc: ConfigDoc, release: Release, at: StateAt): FieldError[] {
  const scale = scaleOut(spec.workload);
  if (scale === undefined) return [];
  const items = podLocalState(doc, release, containerEnv(spec, []));
  return items.length === 0 ? [] : [stateError(items, scale, at)];
}

/** Whether a refusal is this rule's (the sync hook's reason for it is `UnsharedState`). */
export const isStateError = (e: FieldError): boolean => e.message.includes(KEPT_IN_POD);

/** The image's own config (no providers, resources, storage or disabled): a spec field turns it into a generated one, so the fix is in the spec's terms. */
export function imageStateErrors(spec: CanonicalSpec, doc: ConfigDoc, release: Release): FieldError[] {
  const scale = scaleOut(spec.workload);
  const at = { path: scale?.path ?? "", prefix: "the image's own config.yaml: ", fixIn: "spec" } as const;
  return configStateErrors(spec, doc, release, at);
}

/** An override ConfigMap's config, mounted as is: refused at the field that names it, with fixes in the config's terms. */
export function overrideStateErrors(
  spec: CanonicalSpec,
  configMapName: string,
  parsed: JsonMap,
  release: Release,
): FieldError[] {
  const base = readBase(parsed);
  if (!base.ok) return [];
  const at = { path: OVERRIDE_PATH, prefix: `ConfigMap ${configMapName}: `, fixIn: "config" } as const;
  return configStateErrors(spec, base.doc, release, at);
}

/** Where `workload.storage` is (the volume rule's refusal is said there). */
const VOLUME_PATH = "spec.workload.storage";

/**
 * `workload.storage` is one PersistentVolumeClaim, ReadWriteOnce (lib/children/pvc.ts): it
 * attaches to one node at a time, so a pod scheduled on another node cannot start, and pods on
 * the same node write the same files from separate processes. The spec has no access mode to ask
 * for a volume several pods can mount, so more than one pod with it is refused.
 */
export function volumeStateErrors(spec: CanonicalSpec): FieldError[] {
  const scale = scaleOut(spec.workload);
  if (scale === undefined || spec.workload.storage === undefined) return [];
  return [
    fieldError(
      VOLUME_PATH,
      `the volume this field creates is ReadWriteOnce, attached to one node at a time: what the server writes there is ${KEPT_IN_POD} (or its node), and ${scale.path} runs ${scale.what}: a pod on another node cannot mount it. To scale out, remove spec.workload.storage and keep the state on stores every pod reaches (spec.storage.kv with type: postgres or redis, spec.storage.sql with type: postgres, vector stores on servers, files on S3); or run a single pod`,
    ),
  ];
}

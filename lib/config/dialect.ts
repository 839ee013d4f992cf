/**
 * What a server line cannot take, and a base config brought in line with it. A spec that asks
 * for what the line removed (the Safety API on 1.x) is an error naming the field and what to
 * use instead; a base config written for an older line (a file passed to `llsd render
 * --base-config`, an image whose labels carry an older config) is adapted, with a note per change.
 */
import { fieldError, type FieldError } from "../errors";
import type { CanonicalSpec } from "../api/canonical";
import type { Release } from "../distributions/table";
import { SQL_BACKEND } from "../defaults";
import { effectiveId, isMap, type ConfigDoc, type JsonMap, type ProviderEntry } from "./doc";
import { API_DEPENDENCIES, hasSafety, PROVIDER_DEPENDENCIES, REMOVED_TYPES, SAFETY_ALTERNATIVES } from "./releases";

/** The spec's requests the line cannot serve. */
export function dialectErrors(spec: CanonicalSpec, release: Release): FieldError[] {
  // A spec that disables safety itself asks for nothing: its safety entries are ignored on every line.
  if (hasSafety(release) || spec.disabled.some((d) => d.api === "safety")) return [];
  const gone = `the ${release} server line has no Safety API (removed in OGX 1.0)`;
  return [
    ...spec.providers
      .filter((p) => p.api === "safety")
      .map((p) => fieldError(p.path, `${gone}: remove this provider; ${SAFETY_ALTERNATIVES}`)),
    ...spec.resources.shields.map((s) =>
      fieldError(s.path, `${gone}, so shields cannot be registered: remove it; ${SAFETY_ALTERNATIVES}`),
    ),
    ...spec.externalProviders
      .filter((e) => e.api === "safety")
      .map((e) => fieldError(e.path, `${gone}: remove this external provider; ${SAFETY_ALTERNATIVES}`)),
  ];
}

function withoutKey(map: JsonMap, key: string): JsonMap {
  const { [key]: _dropped, ...rest } = map;
  return rest;
}

/** Provider configs whose shape changed in 1.x: batches keep state in SQL, messages need a KV store, no agent_state. */
function adaptProviderConfig(api: string, entry: ProviderEntry): { entry: ProviderEntry; change?: string } {
  const config = isMap(entry.config) ? entry.config : undefined;
  if (api === "batches" && entry.provider_type === "inline::reference" && config && !isMap(config.sqlstore)) {
    return {
      entry: {
        ...entry,
        config: { ...withoutKey(config, "kvstore"), sqlstore: { table_name: "batches", backend: SQL_BACKEND } },
      },
      change: "batches keep their state in a sqlstore (sql_default)",
    };
  }
  if (api === "messages" && entry.provider_type === "inline::builtin" && !isMap(config?.kvstore)) {
    return {
      entry: {
        ...entry,
        config: { ...(config ?? {}), kvstore: { namespace: "message_batches", backend: "kv_default" } },
      },
      change: "messages need a kvstore (kv_default)",
    };
  }
  const persistence = config && isMap(config.persistence) ? config.persistence : undefined;
  if (api === "responses" && persistence && "agent_state" in persistence) {
    return {
      entry: { ...entry, config: { ...config, persistence: withoutKey(persistence, "agent_state") } },
      change: "responses have no persistence.agent_state",
    };
  }
  return { entry };
}

function dropSafety(doc: ConfigDoc, notes: string[]): void {
  const had =
    doc.providers.safety !== undefined ||
    (doc.apis ?? []).includes("safety") ||
    doc.safety !== undefined ||
    (doc.registered_resources?.shields ?? []).length > 0;
  if (!had) return;
  delete doc.providers.safety;
  if (doc.apis) doc.apis = doc.apis.filter((a) => a !== "safety" && a !== "shields");
  delete doc.safety;
  if (doc.registered_resources) delete doc.registered_resources.shields;
  notes.push(
    "baseConfig: the Safety API (safety providers, shields, safety:) was removed for this server line, which has none",
  );
}

/** Removed provider types and whatever registered on them go, each said. */
function dropRemovedTypes(doc: ConfigDoc, release: Release, notes: string[]): void {
  const removedIds = new Set<string>();
  for (const [api, list] of Object.entries(doc.providers)) {
    const removed = (list ?? []).filter((p) => REMOVED_TYPES[release].has(p.provider_type));
    if (removed.length === 0) continue;
    for (const p of removed) {
      removedIds.add(effectiveId(p.provider_id));
      notes.push(
        `baseConfig.providers.${api}: ${p.provider_type} (${effectiveId(p.provider_id)}) was left out: the ${release} line does not have it`,
      );
    }
    doc.providers[api] = (list ?? []).filter((p) => !removed.includes(p));
  }
  if (removedIds.size === 0) return;
  const rr = doc.registered_resources;
  if (rr)
    for (const kind of Object.keys(rr))
      rr[kind] = (rr[kind] ?? []).filter((e) => !removedIds.has(effectiveId(e.provider_id)));
  if (isMap(doc.vector_stores)) {
    const vs: JsonMap = { ...doc.vector_stores };
    for (const key of ["default_embedding_model", "default_reranker_model"]) {
      const ref = vs[key];
      if (isMap(ref) && removedIds.has(effectiveId(ref.provider_id))) delete vs[key];
    }
    doc.vector_stores = vs;
  }
}

/** 1.x keeps prompts and connectors in SQL tables; the older `{namespace, backend: kv_…}` form is migrated by the server, written here as 1.x reads it. */
function adaptStores(doc: ConfigDoc, release: Release, notes: string[]): void {
  const stores = isMap(doc.storage) && isMap(doc.storage.stores) ? doc.storage.stores : undefined;
  if (!stores) return;
  const moved = ["prompts", "connectors"].filter(
    (name) => isMap(stores[name]) && !("table_name" in (stores[name] as JsonMap)),
  );
  if (moved.length === 0) return;
  const next: JsonMap = { ...stores };
  for (const name of moved) next[name] = { table_name: name, backend: SQL_BACKEND };
  doc.storage = { ...doc.storage, stores: next };
  notes.push(
    `baseConfig.storage.stores: ${moved.join(" and ")} are SQL tables on the ${release} line; pointed at ${SQL_BACKEND}`,
  );
}

/** A base config with shapes an older line wrote, brought to `release` (a no-op for configs of that line). */
export function adaptBase(doc: ConfigDoc, release: Release): string[] {
  const notes: string[] = [];
  if (hasSafety(release)) return notes;
  dropSafety(doc, notes);
  dropRemovedTypes(doc, release, notes);
  for (const [api, list] of Object.entries(doc.providers)) {
    doc.providers[api] = (list ?? []).map((p) => {
      const adapted = adaptProviderConfig(api, p);
      if (adapted.change) notes.push(`baseConfig.providers.${api}: ${adapted.change} on the ${release} line; adapted`);
      return adapted.entry;
    });
  }
  adaptStores(doc, release, notes);
  if (isMap(doc.server) && ("cors" in doc.server || "quota" in doc.server)) {
    doc.server = withoutKey(withoutKey(doc.server, "cors"), "quota");
    notes.push(`baseConfig.server: cors and quota were removed; the ${release} line has neither setting`);
  }
  return notes;
}

/** The first provider that cannot start without a `files` provider, if any. */
function needsFiles(doc: ConfigDoc): string | undefined {
  for (const [api, list] of Object.entries(doc.providers)) {
    for (const p of list ?? []) {
      if (
        (API_DEPENDENCIES[api] ?? []).includes("files") ||
        (PROVIDER_DEPENDENCIES[p.provider_type] ?? []).includes("files")
      ) {
        return `${api} provider ${effectiveId(p.provider_id)} (${p.provider_type})`;
      }
    }
  }
  return undefined;
}

/**
 * A base config with a provider that needs `files` but no `files` provider (upstream's
 * postgres-demo) stops the server at startup; add the one the bundled bases have, with its
 * files on the workload's storage and its metadata in sql_default.
 */
export function ensureFiles(doc: ConfigDoc, mountPath: string): string[] {
  if ((doc.providers.files ?? []).length > 0) return [];
  const needer = needsFiles(doc);
  const backends = isMap(doc.storage) && isMap(doc.storage.backends) ? doc.storage.backends : {};
  if (needer === undefined || !isMap(backends[SQL_BACKEND])) return [];
  doc.providers.files = [
    {
      provider_id: "builtin-files",
      provider_type: "inline::localfs",
      config: {
        storage_dir: `${mountPath}/files`,
        metadata_store: { table_name: "files_metadata", backend: SQL_BACKEND },
      },
    },
  ];
  if (doc.apis && !doc.apis.includes("files")) doc.apis = [...doc.apis, "files"];
  return [
    `baseConfig.providers.files: the base config has none and the ${needer} needs one (the server would stop at startup); added builtin-files (inline::localfs) under ${mountPath}/files`,
  ];
}

/**
 * A base config brought in line with the server line it will run on: one written for an older
 * line (a file passed to `llsd render --base-config`, an image whose labels carry an older
 * config) is adapted, with a note per change. What the spec asks of a line it cannot serve is
 * refused before (lib/api/dialect-errors.ts).
 */
import type { Release } from "../distributions/table";
import { SQL_BACKEND } from "../defaults";
import { effectiveId, type ConfigDoc, type ProviderEntry } from "./doc";
import { isPlainObject, type JsonMap } from "../json";
import { dropDefaultModels } from "./disabled";
import { hasSafety, REMOVED_TYPES } from "../distributions/releases";

function withoutKey(map: JsonMap, key: string): JsonMap {
  const { [key]: _dropped, ...rest } = map;
  return rest;
}

type Adapted = { entry: ProviderEntry; change?: string };

/** Batches keep their state in SQL on 1.x. */
function batchesInSql(api: string, entry: ProviderEntry, config: JsonMap | undefined): Adapted | undefined {
  if (api !== "batches" || entry.provider_type !== "inline::reference" || !config || isPlainObject(config.sqlstore))
    return undefined;
  return {
    entry: {
      ...entry,
      config: { ...withoutKey(config, "kvstore"), sqlstore: { table_name: "batches", backend: SQL_BACKEND } },
    },
    change: "batches keep their state in a sqlstore (sql_default)",
  };
}

/** Messages need a KV store on 1.x. */
function messagesWithKv(api: string, entry: ProviderEntry, config: JsonMap | undefined): Adapted | undefined {
  if (api !== "messages" || entry.provider_type !== "inline::builtin" || isPlainObject(config?.kvstore))
    return undefined;
  return {
    entry: {
      ...entry,
      config: { ...(config ?? {}), kvstore: { namespace: "message_batches", backend: "kv_default" } },
    },
    change: "messages need a kvstore (kv_default)",
  };
}

/** Responses keep no agent_state on 1.x. */
function responsesWithoutAgentState(
  api: string,
  entry: ProviderEntry,
  config: JsonMap | undefined,
): Adapted | undefined {
  const persistence = config && isPlainObject(config.persistence) ? config.persistence : undefined;
  if (api !== "responses" || !persistence || !("agent_state" in persistence)) return undefined;
  return {
    entry: { ...entry, config: { ...config, persistence: withoutKey(persistence, "agent_state") } },
    change: "responses have no persistence.agent_state",
  };
}

/** Provider configs whose shape changed in 1.x: batches keep state in SQL, messages need a KV store, no agent_state. */
function adaptProviderConfig(api: string, entry: ProviderEntry): Adapted {
  const config = isPlainObject(entry.config) ? entry.config : undefined;
  return (
    batchesInSql(api, entry, config) ??
    messagesWithKv(api, entry, config) ??
    responsesWithoutAgentState(api, entry, config) ?? { entry }
  );
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

/** Providers of types the line removed leave `doc.providers`, each said; their effective ids are returned. */
function removeProviders(doc: ConfigDoc, release: Release, notes: string[]): Set<string> {
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
  return removedIds;
}

/** Registered resources and default vector-store models on the removed providers go too. */
function dropReferences(doc: ConfigDoc, removedIds: ReadonlySet<string>): void {
  const rr = doc.registered_resources;
  if (rr)
    for (const kind of Object.keys(rr))
      rr[kind] = (rr[kind] ?? []).filter((e) => !removedIds.has(effectiveId(e.provider_id)));
  dropDefaultModels(doc, (providerId) => removedIds.has(effectiveId(providerId)));
}

/** Removed provider types and whatever registered on them go, each said. */
function dropRemovedTypes(doc: ConfigDoc, release: Release, notes: string[]): void {
  const removedIds = removeProviders(doc, release, notes);
  if (removedIds.size > 0) dropReferences(doc, removedIds);
}

/** 1.x keeps prompts and connectors in SQL tables; the older `{namespace, backend: kv_…}` form is migrated by the server, written here as 1.x reads it. */
function adaptStores(doc: ConfigDoc, release: Release, notes: string[]): void {
  const stores = isPlainObject(doc.storage) && isPlainObject(doc.storage.stores) ? doc.storage.stores : undefined;
  if (!stores) return;
  const moved = ["prompts", "connectors"].filter(
    (name) => isPlainObject(stores[name]) && !("table_name" in stores[name]),
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
    const adapted = (list ?? []).map((p) => adaptProviderConfig(api, p));
    for (const { change } of adapted)
      if (change) notes.push(`baseConfig.providers.${api}: ${change} on the ${release} line; adapted`);
    // An unchanged list stays the base's (shared, frozen: the YAML memo emits it).
    if (adapted.some((a) => a.change)) doc.providers[api] = adapted.map((a) => a.entry);
  }
  adaptStores(doc, release, notes);
  if (isPlainObject(doc.server) && ("cors" in doc.server || "quota" in doc.server)) {
    doc.server = withoutKey(withoutKey(doc.server, "cors"), "quota");
    notes.push(`baseConfig.server: cors and quota were removed; the ${release} line has neither setting`);
  }
  return notes;
}

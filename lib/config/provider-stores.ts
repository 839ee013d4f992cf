/**
 * Where the providers of the OGX sections (files, batches, responses, messages, skills…) keep
 * their state. A store their config class requires and neither the base entry nor `settings`
 * gives is filled in, on the backends every generated config keeps (`kv_default`,
 * `sql_default`; storage.ts), each under a name of its own (`<api>_<id>`), so two providers
 * never share a table. A store naming a backend the config does not define stops the server at
 * startup, so it is refused with the fix.
 */
import { child, fieldError, type FieldError } from "../errors";
import { KV_BACKEND, SQL_BACKEND } from "../defaults";
import { OGX_SECTIONS, SERVER_API } from "../api/apis";
import type { Release } from "../distributions/table";
import { type ConfigDoc } from "./doc";
import { isPlainObject, type Json, type JsonMap } from "../json";
import type { ProviderOutcome } from "./providers";
import { keepsAgentState } from "../distributions/releases";

interface StoreContext {
  /** `<api>_<id>`, with what a table name cannot hold turned to `_`. */
  readonly name: string;
  readonly id: string;
  readonly release: Release;
  readonly mountPath: string;
}

const kv = (namespace: string): JsonMap => ({ namespace, backend: KV_BACKEND });
const sql = (table: string): JsonMap => ({ table_name: table, backend: SQL_BACKEND });

/** Per `<api> <key>`: the value a required key gets (the shapes of the line's config classes). */
const DEFAULTS: { readonly [apiKey: string]: (c: StoreContext) => Json } = {
  "files metadata_store": (c) => sql(c.name),
  "files storage_dir": (c) => `${c.mountPath}/files/${c.id}`,
  "batches kvstore": (c) => kv(c.name),
  "batches sqlstore": (c) => sql(c.name),
  "messages kvstore": (c) => kv(c.name),
  "skills persistence": (c) => kv(c.name),
  "responses persistence": (c) => ({
    ...(keepsAgentState(c.release) ? { agent_state: kv(`agents_${c.id.replace(/\W/g, "_")}`) } : {}),
    responses: sql(c.name),
  }),
};

/** The server APIs of the OGX sections: the older sections' stores are not checked here (unset changes nothing). */
const OGX_APIS: ReadonlySet<string> = new Set([...OGX_SECTIONS].map((s) => SERVER_API[s]));

/** The store keys the OGX sections' types take (for the backend check). */
const STORE_KEYS = new Set(["metadata_store", "kvstore", "sqlstore", "persistence", "store"]);

/** Fills each spec entry's required stores its final config (base underneath, settings on top) lacks. */
export function fillStores(
  doc: ConfigDoc,
  entries: ProviderOutcome["entries"],
  target: { readonly release: Release; readonly mountPath: string },
): void {
  for (const { api, entry, required } of entries) {
    const final = (doc.providers[api] ?? []).find((p) => p.provider_id === entry.provider_id);
    if (final === undefined) continue;
    const context: StoreContext = {
      ...target,
      id: entry.provider_id,
      name: `${api}_${entry.provider_id}`.replace(/\W/g, "_"),
    };
    for (const key of required ?? []) {
      const fill = DEFAULTS[`${api} ${key}`];
      if (fill === undefined || (final.config?.[key] !== undefined && final.config[key] !== null)) continue;
      final.config = { ...final.config, [key]: fill(context) };
    }
  }
}

/** What a store reference needs: `namespace` makes it a KV store, `table_name` a SQL store. */
type StoreRef = { key: string; backend: string; kind?: "kv" | "sql" };

/** Every `{backend: …}` a store of `config` names, with the config key it sits under. */
function backendRefs(config: JsonMap, key: string, out: StoreRef[]): void {
  if (typeof config.backend === "string") {
    const kind = "table_name" in config ? "sql" : "namespace" in config ? "kv" : undefined;
    out.push({ key, backend: config.backend, ...(kind ? { kind } : {}) });
  }
  for (const [sub, value] of Object.entries(config)) if (isPlainObject(value)) backendRefs(value, `${key}.${sub}`, out);
}

/**
 * A store of a spec entry that names a backend `storage.backends` lacks, or one of the other kind
 * (a KV store on a `sql_*` backend): the server stops at startup ("Unknown KVStore backend",
 * "Unknown SQL store backend": each kind is registered apart, `core/stack.py` `_initialize_storage`).
 */
export function undefinedBackends(doc: ConfigDoc, entries: ProviderOutcome["entries"]): FieldError[] {
  const storage = isPlainObject(doc.storage) && isPlainObject(doc.storage.backends) ? doc.storage.backends : {};
  const defined = Object.keys(storage);
  const typeOf = (name: string): string => {
    const b = storage[name];
    return isPlainObject(b) && typeof b.type === "string" ? b.type : "";
  };
  return entries.flatMap(({ api, entry, path }) => {
    const final = (doc.providers[api] ?? []).find((p) => p.provider_id === entry.provider_id);
    const refs: StoreRef[] = [];
    for (const [key, value] of Object.entries(final?.config ?? {}))
      if (STORE_KEYS.has(key) && isPlainObject(value)) backendRefs(value, key, refs);
    if (path === undefined || !OGX_APIS.has(api)) return [];
    return refs.flatMap((r) => {
      if (!defined.includes(r.backend)) return [backendError(path, r, defined)];
      const type = typeOf(r.backend);
      return r.kind && type && !type.startsWith(`${r.kind}_`) ? [kindError(path, r, type, defined)] : [];
    });
  });
}

function kindError(path: string, ref: StoreRef, type: string, defined: readonly string[]): FieldError {
  const kind = ref.kind === "kv" ? "KV" : "SQL";
  return fieldError(
    child(path, "settings"),
    `${ref.key} is a ${kind} store (${ref.kind === "kv" ? "namespace" : "table_name"}) on backend "${ref.backend}", which is ${type}: the server stops at startup; point settings.${ref.key}.backend at a ${ref.kind}_* backend (it has: ${defined.join(", ")})`,
  );
}

function backendError(path: string, ref: StoreRef, defined: readonly string[]): FieldError {
  const fix =
    ref.backend === KV_BACKEND ? "spec.storage.kv" : ref.backend === SQL_BACKEND ? "spec.storage.sql" : undefined;
  const how = fix ? `set ${fix} (the config then defines ${ref.backend}), or ` : "";
  return fieldError(
    child(path, "settings"),
    `${ref.key} uses storage backend "${ref.backend}", which the config does not define (it has: ${defined.join(", ") || "none"}); ${how}point settings.${ref.key}.backend at a defined one`,
  );
}

/**
 * The rule OGX 1.x vector_io providers apply at start-up (`initialize_openai_vector_stores`,
 * `providers/utils/memory/openai_vector_store_mixin.py` at v1.2.2 and v1.3.0): with access rules
 * (`server.auth.access_policy`) or multi tenancy (`server.tenancy.mode: multi`), a provider
 * without a SQL store for vector store metadata stops the server ("metadata_store is required
 * when …"). The resolver gives every provider whose config class takes `metadata_store` the
 * server-wide `storage.stores.vector_stores` (`core/resolver.py`). 0.7 and 0.8 have neither the
 * rule nor the store. What the hooks do about it: lib/config/vector-store-startup.ts.
 */
import { SQL_BACKEND } from "../defaults";
import type { Release } from "../distributions/table";
import { effectiveId, isConditional, type ConfigDoc, type ProviderEntry } from "./doc";
import { isPlainObject } from "../json";
import { typeFields } from "./provider-fields";

/** Where the server's own `ogx stack run --providers` config keeps it (`core/stack.py` at v1.3.0). */
export const VECTOR_STORES_TABLE = "vector_store_metadata";

/**
 * The vector_io type that never starts on these lines: the adapter it shares with remote::chromadb
 * reads `config.metadata_store` first thing, and the inline config class has no such field
 * (AttributeError; `providers/remote/vector_io/chroma/chroma.py` at v1.2.2 and v1.3.0).
 */
export const NO_START_TYPE = "inline::chromadb";

/** The lines whose vector_io providers enforce the rule: all of 1.x that these hooks serve. */
export function guardsVectorStoreMetadata(release: Release): boolean {
  return release !== "0.7" && release !== "0.8";
}

/** A vector_io provider that the rule stops, and whether the server-wide store would reach it. */
export interface UnmetProvider {
  readonly entry: ProviderEntry;
  /** Its config class takes `metadata_store` (the server-wide store is injected into it). */
  readonly takesStore: boolean;
  /** Enabled only when an env var is set (`${env.X:+id}`). */
  readonly conditional: boolean;
}

export interface VectorMetadataNeed {
  /** `server.auth.access_policy` or `server.tenancy.mode: multi`, for the messages. */
  readonly because: string;
  readonly unmet: readonly UnmetProvider[];
}

/** Not switched off (`""`, `__disabled__`); a provider behind an env switch counts, it may be on. */
export function enabledVectorIo(doc: ConfigDoc): ProviderEntry[] {
  return (doc.providers.vector_io ?? []).filter((p) => {
    const id = effectiveId(p.provider_id);
    return id !== "" && id !== "__disabled__";
  });
}

/** The config keys of the entry's type; undefined for an external provider (its own class) or a type unknown here. */
function keysOf(entry: ProviderEntry, release: Release): { readonly [key: string]: string } | undefined {
  if (typeof entry.module === "string" && entry.module !== "") return undefined;
  return typeFields(release, "vector_io", entry.provider_type)?.fields;
}

function unmetOf(entry: ProviderEntry, release: Release, shared: boolean, multi: boolean): UnmetProvider[] {
  const keys = keysOf(entry, release);
  const own = entry.config?.metadata_store;
  if (keys === undefined || entry.provider_type === NO_START_TYPE || (own !== undefined && own !== null)) return [];
  const takesStore = "metadata_store" in keys;
  // A type without the key gets no access policy either (its factory takes none): only multi tenancy stops it.
  if ((takesStore && shared) || (!takesStore && !multi)) return [];
  return [{ entry, takesStore, conditional: isConditional(entry.provider_id) }];
}

/** The settings that trigger the rule, as written in the config. */
function triggersOf(doc: ConfigDoc): { readonly policy: boolean; readonly multi: boolean } {
  const server = isPlainObject(doc.server) ? doc.server : {};
  const auth = isPlainObject(server.auth) ? server.auth : {};
  return {
    policy: Array.isArray(auth.access_policy) && auth.access_policy.length > 0,
    multi: isPlainObject(server.tenancy) && server.tenancy.mode === "multi",
  };
}

/** What the rule asks of `doc` on `release`; undefined when nothing is asked or all is met. */
export function vectorMetadataNeed(doc: ConfigDoc, release: Release): VectorMetadataNeed | undefined {
  if (!guardsVectorStoreMetadata(release)) return undefined;
  const { policy, multi } = triggersOf(doc);
  if (!policy && !multi) return undefined;
  const storage = isPlainObject(doc.storage) ? doc.storage : {};
  const shared = isPlainObject(storage.stores) && isPlainObject(storage.stores.vector_stores);
  const unmet = enabledVectorIo(doc).flatMap((entry) => unmetOf(entry, release, shared, multi));
  if (unmet.length === 0) return undefined;
  return { because: multi ? "server.tenancy.mode is multi" : "server.auth.access_policy is set", unmet };
}

/** The SQL backend the store goes on: `sql_default` when it is one, else the first `sql_*` backend. */
export function sqlBackendOf(doc: ConfigDoc): string | undefined {
  const storage = isPlainObject(doc.storage) ? doc.storage : {};
  const backends = isPlainObject(storage.backends) ? storage.backends : {};
  const isSql = (name: string): boolean => {
    const b = backends[name];
    return isPlainObject(b) && typeof b.type === "string" && b.type.startsWith("sql_");
  };
  return isSql(SQL_BACKEND) ? SQL_BACKEND : Object.keys(backends).find(isSql);
}

/** `faiss (inline::faiss)`, and when it is switched by a variable, says so. */
export function describeProvider(p: UnmetProvider): string {
  const when = p.conditional ? ", when its variable is set" : "";
  return `${effectiveId(p.entry.provider_id)} (${p.entry.provider_type})${when}`;
}

/** `faiss, sqlite-vec; when their variables are set: milvus, qdrant`. */
export function idList(providers: readonly UnmetProvider[]): string {
  const ids = (conditional: boolean): string[] =>
    providers.filter((p) => p.conditional === conditional).map((p) => effectiveId(p.entry.provider_id));
  const switched = ids(true);
  const rest = switched.length > 0 ? `when their variables are set: ${switched.join(", ")}` : "";
  return [ids(false).join(", "), rest].filter((s) => s !== "").join("; ");
}

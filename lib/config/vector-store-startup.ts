/**
 * What the hooks do about the 1.x vector_io start-up rule (lib/config/vector-store-metadata.ts):
 * a generated config that needs `storage.stores.vector_stores` gets it on its SQL backend, with a
 * note; what no store can satisfy is refused with the field path and the fix. A ConfigMap
 * mounted as is stays the user's: the same findings are status notes (docs/server-lines.md).
 */
import { child, fieldError, type FieldError } from "../errors";
import { AUTH_PATH } from "../api/normalize-auth";
import type { Release } from "../distributions/table";
import { effectiveId, type ConfigDoc, type ProviderEntry } from "./doc";
import { isPlainObject, type JsonMap } from "../json";
import {
  describeProvider,
  enabledVectorIo,
  guardsVectorStoreMetadata,
  idList,
  NO_START_TYPE,
  sqlBackendOf,
  vectorMetadataNeed,
  VECTOR_STORES_TABLE,
  type VectorMetadataNeed,
} from "./vector-store-metadata";

interface Outcome {
  readonly notes: readonly string[];
  readonly errors: readonly FieldError[];
}
type SpecEntry = { readonly api: string; readonly entry: ProviderEntry; readonly path?: string };

const TENANCY_PATH = child(AUTH_PATH, "tenancy");

export function vectorStoresStore(backend: string): JsonMap {
  return { table_name: VECTOR_STORES_TABLE, backend };
}

/** Multi tenancy with a type that cannot keep the metadata: refused where the provider (or tenancy) is set. */
function multiErrors(need: VectorMetadataNeed, release: Release, entries: readonly SpecEntry[]): FieldError[] {
  return need.unmet
    .filter((p) => !p.takesStore)
    .map((p) => {
      const spec = entries.find((e) => e.api === "vector_io" && e.entry.provider_id === p.entry.provider_id);
      return fieldError(
        spec?.path ?? child(TENANCY_PATH, "mode"),
        `vector_io provider ${describeProvider(p)} keeps no vector store metadata in SQL, which the ${release} server requires with multi tenancy (it stops at start-up): use another vectorIo provider type (faiss, sqlite-vec, milvus, qdrant, pgvector, chromadb with an endpoint), or tenancy mode single`,
      );
    });
}

/**
 * Vector stores kept before in the KV store move to SQL at the first start with the store; with a
 * tenancy mode other than disabled they need a tenant (`_migration_tenant_data`), or the server stops.
 */
function migrationNote(doc: ConfigDoc): string[] {
  const tenancy = isPlainObject(doc.server) && isPlainObject(doc.server.tenancy) ? doc.server.tenancy : {};
  if (tenancy.mode !== "multi" || tenancy.default_tenant_id) return [];
  return [
    `${child(TENANCY_PATH, "defaultTenantId")}: not set; vector stores this server already keeps move to the SQL store at its next start and need a tenant then, or the server stops ("default_tenant_id is required when migrating legacy KVStore data"); set it when the server has vector stores`,
  ];
}

/** Adds the store when the rule asks for it; what it cannot satisfy is an error. */
function ensureStore(doc: ConfigDoc, release: Release, entries: readonly SpecEntry[]): Outcome {
  const need = vectorMetadataNeed(doc, release);
  if (need === undefined) return { notes: [], errors: [] };
  const errors = multiErrors(need, release, entries);
  const takers = need.unmet.filter((p) => p.takesStore);
  if (takers.length === 0) return { notes: [], errors };
  const backend = sqlBackendOf(doc);
  if (backend === undefined) {
    const why = `${need.because}: the ${release} server keeps vector store metadata in a SQL store then, and the config has no sql_* backend; set spec.storage.sql`;
    return { notes: [], errors: [...errors, fieldError("spec.storage.sql", why)] };
  }
  const storage: JsonMap = isPlainObject(doc.storage) ? { ...doc.storage } : {};
  storage.stores = {
    ...(isPlainObject(storage.stores) ? storage.stores : {}),
    vector_stores: vectorStoresStore(backend),
  };
  doc.storage = storage;
  const added = `storage.stores.vector_stores: added on ${backend} (table ${VECTOR_STORES_TABLE}): ${need.because}, and the ${release} server then stops at start-up unless its vector_io providers keep their metadata in SQL (${idList(takers)})`;
  return { notes: [added, ...migrationNote(doc)], errors };
}

/** `inline::chromadb` from the spec, refused at its field path. */
function noStartErrors(entries: readonly SpecEntry[], release: Release): FieldError[] {
  return entries
    .filter((e) => e.api === "vector_io" && e.path !== undefined && e.entry.provider_type === NO_START_TYPE)
    .map((e) =>
      fieldError(
        e.path!,
        `${NO_START_TYPE} does not start on the ${release} server line (its adapter reads metadata_store, which the inline config lacks): give chromadb an endpoint (remote::chromadb), or use faiss or sqlite-vec`,
      ),
    );
}

/**
 * `outcome` (of the auth step, which sets what triggers the rule) with the rule's notes and
 * errors; call after `server.auth`, `server.tenancy` and storage are written. `entries` are the
 * spec's providers, for the field paths.
 */
export function withVectorStoreStartup<T extends Outcome>(
  outcome: T,
  doc: ConfigDoc,
  release: Release,
  entries: readonly SpecEntry[],
): T {
  if (!guardsVectorStoreMetadata(release)) return outcome;
  const store = ensureStore(doc, release, entries);
  return {
    ...outcome,
    notes: [...outcome.notes, ...store.notes],
    errors: [...outcome.errors, ...store.errors, ...noStartErrors(entries, release)],
  };
}

/** The same rule on a ConfigMap mounted as is: said, never changed (the user owns it). */
export function overrideVectorStoreNotes(configMapName: string, doc: ConfigDoc, release: Release): string[] {
  if (!guardsVectorStoreMetadata(release)) return [];
  const chroma = enabledVectorIo(doc)
    .filter((p) => p.provider_type === NO_START_TYPE)
    .map(
      (p) =>
        `vector_io provider ${effectiveId(p.provider_id)} is ${NO_START_TYPE}, which does not start on the ${release} server line (its adapter reads metadata_store, which the inline config lacks); use remote::chromadb, inline::faiss or inline::sqlite-vec`,
    );
  const need = vectorMetadataNeed(doc, release);
  const unmet = (need?.unmet ?? []).map((p) => {
    const when = p.conditional ? "stops at start-up when the provider's variable is set" : "stops at start-up";
    const fix = p.takesStore
      ? `add storage.stores.vector_stores: {backend: ${sqlBackendOf(doc) ?? "<a sql_* backend>"}, table_name: ${VECTOR_STORES_TABLE}} (or metadata_store in the provider's config)`
      : "use another vector_io provider type, or tenancy mode single";
    return `${need!.because} and vector_io provider ${describeProvider(p)} has no metadata_store: the ${release} server ${when} ("metadata_store is required"); ${fix}`;
  });
  return [...chroma, ...unmet].map((note) => `ConfigMap ${configMapName}: ${note}`);
}

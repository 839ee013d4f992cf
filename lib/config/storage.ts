/**
 * `storage` → the `kv_default` / `sql_default` backends every store points at.
 * Backend names never change, so the base's stores and provider references stay valid.
 * No `storage` in the spec leaves the base untouched (docs/spec-reference.md).
 */
import type { Storage } from "../api/canonical";
import { DEFAULT_REDIS_PORT, KV_BACKEND, SQL_BACKEND } from "../defaults";
import { parseRedisEndpoint } from "../api/validate-resources";
import { type ConfigDoc } from "./doc";
import { isPlainObject, type JsonMap } from "../json";
import { postgresBackend, postgresNote, postgresParts, type PostgresParts } from "./postgres-stores";

export type { PostgresParts } from "./postgres-stores";

export interface StorageOutcome {
  readonly notes: string[];
  postgres?: PostgresParts;
}

function sqliteBackend(kind: "kv" | "sql", mountPath: string): JsonMap {
  return kind === "kv"
    ? { type: "kv_sqlite", db_path: `${mountPath}/kvstore.db` }
    : { type: "sql_sqlite", db_path: `${mountPath}/sql_store.db` };
}

/** A store on Postgres: its backend from the derived Secret's variables, and the note that says so. */
function onPostgres(kind: "kv" | "sql", storage: Storage, secretName: string, out: StorageOutcome): JsonMap {
  const note = postgresNote(kind, storage, secretName);
  if (note !== undefined) out.notes.push(note);
  return postgresBackend(kind);
}

function kvBackend(storage: Storage, mountPath: string, secretName: string, out: StorageOutcome): JsonMap | undefined {
  const kv = storage.kv;
  if (kv === undefined) return undefined;
  if (kv.type === "sqlite" || (kv.type === "postgres" && !kv.connectionString)) return sqliteBackend("kv", mountPath);
  if (kv.type === "postgres") return onPostgres("kv", storage, secretName, out);
  // The server's kv_redis has no password field: a password is refused, or kept with a warning (lib/api/validate-redis-password.ts).
  const parsed = parseRedisEndpoint(kv.endpoint ?? "") ?? { host: "localhost", port: DEFAULT_REDIS_PORT };
  return { type: "kv_redis", host: parsed.host, port: parsed.port };
}

function sqlBackend(storage: Storage, mountPath: string, secretName: string, out: StorageOutcome): JsonMap | undefined {
  const sql = storage.sql;
  if (sql === undefined) return undefined;
  if (sql.type === "sqlite" || !sql.connectionString) return sqliteBackend("sql", mountPath);
  return onPostgres("sql", storage, secretName, out);
}

export function applyStorage(
  doc: ConfigDoc,
  storage: Storage | undefined,
  mountPath: string,
  postgresSecretName: string,
): StorageOutcome {
  const out: StorageOutcome = { notes: [] };
  if (storage === undefined) return out;
  const sql = sqlBackend(storage, mountPath, postgresSecretName, out);
  const kv = kvBackend(storage, mountPath, postgresSecretName, out);
  if (!kv && !sql) return out;
  const postgres = postgresParts(storage, postgresSecretName);
  if (postgres) out.postgres = postgres;
  setBackends(doc, { kv, sql }, mountPath);
  return out;
}

/** The spec's backends in place of the base's; a base without storage gets both (the server's default stores name both). */
function setBackends(doc: ConfigDoc, spec: { kv?: JsonMap; sql?: JsonMap }, mountPath: string): void {
  const current = isPlainObject(doc.storage) ? doc.storage : {};
  const backends: JsonMap = isPlainObject(current.backends) ? { ...current.backends } : {};
  backends[KV_BACKEND] = spec.kv ?? backends[KV_BACKEND] ?? sqliteBackend("kv", mountPath);
  backends[SQL_BACKEND] = spec.sql ?? backends[SQL_BACKEND] ?? sqliteBackend("sql", mountPath);
  doc.storage = { ...current, backends };
}

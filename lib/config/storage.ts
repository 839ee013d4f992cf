/**
 * `storage` → the `kv_default` / `sql_default` backends every store points at.
 * Backend names never change, so the base's stores and provider references stay valid.
 * No `storage` in the spec leaves the base untouched (docs/spec-reference.md).
 */
import type { Storage } from "../api/canonical";
import { DEFAULT_REDIS_PORT, KV_BACKEND, SQL_BACKEND } from "../defaults";
import { parseRedisEndpoint } from "../api/validate-resources";
import { isMap, type ConfigDoc, type JsonMap } from "./doc";
import { envRef, POSTGRES_PARTS, storageSecretEnv } from "./env-names";

/** The derived Secret that holds the parts of the user's Postgres DSN (built by the sync hook). */
export interface PostgresParts {
  readonly sourceSecret: { readonly name: string; readonly key: string; readonly path: string };
  readonly secretName: string;
  /** Env var name per DSN part, each read from `secretName` under the part's name. */
  readonly env: { readonly name: string; readonly key: string }[];
}

export interface StorageOutcome {
  readonly notes: string[];
  postgres?: PostgresParts;
}

function sqliteBackend(kind: "kv" | "sql", mountPath: string): JsonMap {
  return kind === "kv"
    ? { type: "kv_sqlite", db_path: `${mountPath}/kvstore.db` }
    : { type: "sql_sqlite", db_path: `${mountPath}/sql_store.db` };
}

function kvBackend(storage: Storage, mountPath: string, out: StorageOutcome): JsonMap | undefined {
  const kv = storage.kv;
  if (kv === undefined) return undefined;
  if (kv.type === "sqlite") return sqliteBackend("kv", mountPath);
  const parsed = parseRedisEndpoint(kv.endpoint ?? "") ?? { host: "localhost", port: DEFAULT_REDIS_PORT };
  if (kv.password) {
    out.notes.push(
      `${kv.password.path}: the server's redis store has no password field; the password is not passed to the server`,
    );
  }
  return { type: "kv_redis", host: parsed.host, port: parsed.port };
}

function sqlBackend(storage: Storage, mountPath: string, secretName: string, out: StorageOutcome): JsonMap | undefined {
  const sql = storage.sql;
  if (sql === undefined) return undefined;
  if (sql.type === "sqlite" || !sql.connectionString) return sqliteBackend("sql", mountPath);
  const env = POSTGRES_PARTS.map((part) => ({ name: storageSecretEnv("sql", part), key: part }));
  out.postgres = { sourceSecret: sql.connectionString, secretName, env };
  out.notes.push(
    `${sql.connectionString.path}: the server takes host/port/db/user/password, not a DSN; the DSN is split into Secret ${secretName}`,
  );
  const backend: JsonMap = { type: "sql_postgres" };
  for (const { name, key } of env) backend[key] = envRef(name);
  return backend;
}

export function applyStorage(
  doc: ConfigDoc,
  storage: Storage | undefined,
  mountPath: string,
  postgresSecretName: string,
): StorageOutcome {
  const out: StorageOutcome = { notes: [] };
  if (storage === undefined) return out;
  const kv = kvBackend(storage, mountPath, out);
  const sql = sqlBackend(storage, mountPath, postgresSecretName, out);
  if (!kv && !sql) return out;
  const current = isMap(doc.storage) ? doc.storage : {};
  const backends: JsonMap = isMap(current.backends) ? { ...current.backends } : {};
  // A base without storage gets both backends: the server's default stores name both.
  backends[KV_BACKEND] = kv ?? backends[KV_BACKEND] ?? sqliteBackend("kv", mountPath);
  backends[SQL_BACKEND] = sql ?? backends[SQL_BACKEND] ?? sqliteBackend("sql", mountPath);
  doc.storage = { ...current, backends };
  return out;
}

/**
 * The stores on Postgres (`storage.sql`, `storage.kv`). The server's `sql_postgres` and
 * `kv_postgres` backends take host/port/db/user/password, not a DSN, so the sync hook splits
 * each DSN into the one derived Secret `<name>-postgres` and the pod reads the parts through env
 * (docs/spec-reference.md). The SQL store's parts sit under `host`…`password` (as they always
 * have); a KV store on another Secret key gets its own under `kv-host`…; a KV store on the SQL
 * store's Secret key reads the SQL store's keys, so the Secret holds one copy of the password.
 */
import type { SecretRef, Storage } from "../api/canonical";
import type { JsonMap } from "../json";
import { envRef, POSTGRES_PARTS, storageSecretEnv, type PostgresPart } from "../env-names";

/** The user's Secret key that holds a DSN, and the spec field that names it. */
export type DsnSource = Pick<SecretRef, "name" | "key" | "path">;

/** A DSN the derived Secret holds the parts of, under keys `<prefix><part>`. */
export interface PostgresSource {
  readonly secret: DsnSource;
  readonly prefix: "" | "kv-";
}

/** The derived Secret that holds the parts of the user's Postgres DSNs (built by the sync hook). */
export interface PostgresParts {
  readonly secretName: string;
  /** Each DSN to split, the SQL store's first. */
  readonly sources: readonly PostgresSource[];
  /** Env var name per store and part, each read from `secretName` under `key`; `path` names the DSN's field. */
  readonly env: readonly { readonly name: string; readonly key: string; readonly path: string }[];
}

/** One DSN, split (lib/sync/postgres-dsn.ts): what the derived Secret child holds. */
export interface SplitDsn extends PostgresSource {
  readonly parts: { readonly [part in PostgresPart]: string };
}

export interface DerivedPostgres {
  readonly secretName: string;
  readonly dsns: readonly SplitDsn[];
}

type Store = "kv" | "sql";

const sameKey = (a: DsnSource, b: DsnSource | undefined): boolean =>
  b !== undefined && a.name === b.name && a.key === b.key;

/** The DSN each store on Postgres names, the SQL store's first; undefined when neither is on Postgres. */
function dsnsOf(storage: Storage): { store: Store; secret: DsnSource }[] {
  const out: { store: Store; secret: DsnSource }[] = [];
  const { sql, kv } = storage;
  if (sql?.type === "postgres" && sql.connectionString) out.push({ store: "sql", secret: sql.connectionString });
  if (kv?.type === "postgres" && kv.connectionString) out.push({ store: "kv", secret: kv.connectionString });
  return out;
}

/** The derived Secret's layout for the spec's Postgres stores; undefined when none is on Postgres. */
export function postgresParts(storage: Storage, secretName: string): PostgresParts | undefined {
  const dsns = dsnsOf(storage);
  if (dsns.length === 0) return undefined;
  const sources: PostgresSource[] = [];
  const env: { name: string; key: string; path: string }[] = [];
  for (const { store, secret } of dsns) {
    const shared = sources.find((s) => sameKey(secret, s.secret));
    const prefix = shared?.prefix ?? (store === "sql" ? "" : "kv-");
    if (!shared) sources.push({ secret, prefix });
    for (const part of POSTGRES_PARTS)
      env.push({ name: storageSecretEnv(store, part), key: `${prefix}${part}`, path: secret.path });
  }
  return { secretName, sources, env };
}

/** The `kv_postgres` / `sql_postgres` backend: every field from the store's variables, none in the ConfigMap. */
export function postgresBackend(store: Store): JsonMap {
  const backend: JsonMap = { type: `${store}_postgres` };
  for (const part of POSTGRES_PARTS) backend[part] = envRef(storageSecretEnv(store, part));
  return backend;
}

/** What the storage step says about a store on Postgres. */
export function postgresNote(store: Store, storage: Storage, secretName: string): string | undefined {
  const dsns = dsnsOf(storage);
  const secret = dsns.find((d) => d.store === store)?.secret;
  if (secret === undefined) return undefined;
  const split =
    store === "kv" && sameKey(secret, dsns.find((d) => d.store === "sql")?.secret)
      ? `it is the sql store's DSN, whose parts in Secret ${secretName} serve both stores`
      : `the DSN is split into Secret ${secretName}`;
  return `${secret.path}: the server takes host/port/db/user/password, not a DSN; ${split}`;
}

/** The derived Secret's data, key → value, in the order the keys are written. */
export function derivedData(postgres: DerivedPostgres): [string, string][] {
  return postgres.dsns.flatMap((d) =>
    POSTGRES_PARTS.map((part): [string, string] => [`${d.prefix}${part}`, d.parts[part]]),
  );
}

/** The DSN a key of the derived Secret came from, and which part it is. */
export function partOfKey(
  postgres: DerivedPostgres,
  key: string,
): { readonly dsn: SplitDsn; readonly part: PostgresPart } | undefined {
  for (const dsn of postgres.dsns) {
    const part = POSTGRES_PARTS.find((p) => `${dsn.prefix}${p}` === key);
    if (part !== undefined) return { dsn, part };
  }
  return undefined;
}

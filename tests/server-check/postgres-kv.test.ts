/**
 * `storage.kv: {type: postgres, connectionString}` → `kv_default: kv_postgres` on every line (each
 * line's StorageConfig has the backend: tests/fixtures/server-schemas/*), its fields from the
 * derived Secret `<name>-postgres` through env, never in the ConfigMap. The mounted config is
 * read as the line's server reads it (substituted, then checked against its classes).
 *
 * Facts from the real 1.3.0 server (tools/ogx-server check.sh on a config rendered from this
 * spec, kv and sql on one local Postgres that asks user llsd for a password): it started and
 * answered a chat completion; the KV store is table `ogx_kvstore` (key text primary key, value
 * text, expiration timestamptz) holding the registry, keys such as
 * `registry:distributions:registry:v10::model:vllm/fake-model`; with a wrong
 * LLSD_STORAGE_KV_PASSWORD it does not start (asyncpg InvalidPasswordError, "Could not connect to
 * PostgreSQL database server"). Only the 1.3 server runs here; the other lines are checked by
 * their schemas.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { schemaTagOf } from "../../lib/distributions/releases";
import { RELEASES, type Release } from "../../lib/distributions/table";
import { sync } from "../../lib/sync/sync";
import type { KubeObject, SyncResponse } from "../../lib/wire/metacontroller";
import { aParent, aRequest, aSecret, deps } from "../sync-builders";
import { checkServerConfigs, type ServerCheck } from "./check";
import { serverCheckOf, tableFor } from "./from-sync";

const DSN = "postgresql://llsd:pw-text@pg.db.svc:5432/llsd";
const KV_DSN = "postgresql://kv:kv-pw@kv.db.svc:6432/kvdb";
const PARTS = ["host", "port", "db", "user", "password"];

const ref = (key: string) => ({ name: "pg", key });
const SHARED = {
  kv: { type: "postgres", connectionString: ref("dsn") },
  sql: { type: "postgres", connectionString: ref("dsn") },
};
const SEPARATE = {
  kv: { type: "postgres", connectionString: ref("kv-dsn") },
  sql: { type: "postgres", connectionString: ref("dsn") },
};
const KV_ONLY = { kv: { type: "postgres", connectionString: ref("kv-dsn") } };

function synced(release: Release, storage: object): { answer: SyncResponse; check: ServerCheck | undefined } {
  const request = aRequest(
    aParent({ distribution: { name: "starter" }, storage }),
    [],
    [aSecret("pg", { dsn: DSN, "kv-dsn": KV_DSN })],
  );
  const answer = sync(request, { ...deps(), distributions: tableFor(release) });
  return { answer, check: serverCheckOf(answer, request.related, release) };
}

const backends = (check: ServerCheck | undefined) =>
  (parse(check?.configYaml ?? "{}") as { storage: { backends: { [id: string]: { [k: string]: unknown } } } }).storage
    .backends;

const derived = (answer: SyncResponse): { [key: string]: string } => {
  const secret = answer.children.find((c: KubeObject) => c.kind === "Secret" && c.metadata.name === "demo-postgres");
  const data = (secret as { data?: { [k: string]: string } } | undefined)?.data ?? {};
  return Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v, "base64").toString("utf8")]));
};

type Env = { name: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } };
const envRef = (answer: SyncResponse, name: string) => {
  const deployment = answer.children.find((c) => c.kind === "Deployment") as
    { spec: { template: { spec: { containers: { env?: Env[] }[] } } } } | undefined;
  const env = deployment?.spec.template.spec.containers[0]?.env ?? [];
  return env.find((e) => e.name === name)?.valueFrom?.secretKeyRef;
};

describe("every line's server has a kv_postgres backend with the five fields the hooks write", () => {
  it.each(RELEASES)("%s", (release) => {
    const file = join(__dirname, "..", "fixtures", "server-schemas", schemaTagOf(release), "stack-config.schema.json");
    const defs = (JSON.parse(readFileSync(file, "utf8")) as { $defs: { [k: string]: { properties: object } } }).$defs;
    expect(Object.keys(defs.PostgresKVStoreConfig?.properties ?? {})).toEqual(
      expect.arrayContaining(["type", ...PARTS]),
    );
  });
});

describe.each(RELEASES)("storage.kv type postgres on the %s line", (release) => {
  it.each([
    ["kv and sql on one DSN", SHARED, { kv: "", sql: "" }, ["host", "port", "db", "user", "password"]],
    ["kv and sql on two DSNs", SEPARATE, { kv: "kv-", sql: "" }, [...PARTS, ...PARTS.map((p) => `kv-${p}`)]],
    ["kv alone", KV_ONLY, { kv: "kv-" }, PARTS.map((p) => `kv-${p}`)],
  ])("%s: kv_default is kv_postgres from env, the server accepts the config", (_t, storage, prefixes, keys) => {
    const { answer, check } = synced(release, storage);
    expect(answer.status.phase).not.toBe("Failed");
    expect(backends(check).kv_default).toEqual({
      type: "kv_postgres",
      ...Object.fromEntries(PARTS.map((p) => [p, `\${env.LLSD_STORAGE_KV_${p.toUpperCase()}}`])),
    });
    expect(Object.keys(derived(answer))).toEqual(keys);
    // Each store's variables read its DSN's keys of the derived Secret.
    for (const [store, prefix] of Object.entries(prefixes))
      expect(envRef(answer, `LLSD_STORAGE_${store.toUpperCase()}_PASSWORD`)).toEqual({
        name: "demo-postgres",
        key: `${prefix}password`,
      });
    expect(check?.configYaml).not.toMatch(/pw-text|kv-pw/);
    expect(checkServerConfigs([check!])).toEqual([[]]);
  });
});

describe("the derived Secret", () => {
  it("holds each DSN's parts once: the KV store's own under kv-, none twice when both stores share one", () => {
    expect(derived(synced("1.3", SEPARATE).answer)).toEqual({
      host: "pg.db.svc",
      port: "5432",
      db: "llsd",
      user: "llsd",
      password: "pw-text",
      "kv-host": "kv.db.svc",
      "kv-port": "6432",
      "kv-db": "kvdb",
      "kv-user": "kv",
      "kv-password": "kv-pw",
    });
    expect(Object.values(derived(synced("1.3", SHARED).answer)).filter((v) => v === "pw-text")).toHaveLength(1);
  });

  it("a KV DSN that is not a Postgres URL is refused with its field, never echoing the value", () => {
    const request = aRequest(
      aParent({ distribution: { name: "starter" }, storage: KV_ONLY }),
      [],
      [aSecret("pg", { "kv-dsn": "mysql://kv:kv-pw@kv:3306/db" })],
    );
    const answer = sync(request, deps());
    expect(answer.status.phase).toBe("Failed");
    expect(answer.children).toEqual([]);
    const said = JSON.stringify(answer.status.conditions);
    expect(said).toContain(
      'spec.storage.kv.connectionString: the value of Secret pg key \\"kv-dsn\\" uses scheme \\"mysql\\"',
    );
    expect(said).not.toContain("kv-pw");
  });
});

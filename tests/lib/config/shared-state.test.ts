/**
 * Issue 37 part 2 and issue 46 part 3: state kept inside each pod, refused when the workload
 * runs more than one pod. The expected answers are facts about the server and its client
 * libraries, written here with where they come from, not the rule under test:
 * - which provider types exist and which are inline: the lines' registries as the schema
 *   fixtures record them (index.json's `kind`);
 * - the defaults of each remote class: the same fixtures' JSON Schemas (the classes' own
 *   `default`s, e.g. weaviate_cluster_url `localhost:8080`);
 * - what a client does with its config: read below, per case, in the server's source at the tag
 *   and the client library it calls.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import type { LlsdSpecV1alpha2 } from "../../../lib/api/v1alpha2";
import { checkSpec } from "../../../lib/config/check";
import { containerEnv } from "../../../lib/config/container-env";
import type { ConfigDoc } from "../../../lib/config/doc";
import type { JsonMap } from "../../../lib/json";
import { podLocalState, scaleOut } from "../../../lib/config/shared-state";
import { isStateError } from "../../../lib/config/shared-state-errors";
import { render } from "../../../lib/config/render";
import type { Release } from "../../../lib/distributions/table";
import { aCanonicalSpec, aSpec } from "../../builders";

const SCHEMAS = join(__dirname, "../../fixtures/server-schemas");
const TAGS: [Release, string][] = [
  ["0.7", "v0.7.3"],
  ["0.8", "v0.8.0"],
  ["1.3", "v1.3.0"],
];

type IndexEntry = { api: string; provider_type: string; kind: string };
const registry = (tag: string): IndexEntry[] =>
  JSON.parse(readFileSync(join(SCHEMAS, tag, "providers/index.json"), "utf8")) as IndexEntry[];
/** The string defaults of a type's config class, from its JSON Schema. */
function classDefaults(tag: string, api: string, type: string): string[] {
  const file = join(SCHEMAS, tag, "providers", api, `${type.replace("::", "__")}.schema.json`);
  const schema = JSON.parse(readFileSync(file, "utf8")) as { properties?: { [k: string]: { default?: unknown } } };
  return Object.values(schema.properties ?? {}).flatMap((p) => (typeof p.default === "string" ? [p.default] : []));
}
const LOOPBACK_ADDRESS = /^(?:[a-z]+:\/\/)?(?:localhost|127\.0\.0\.1)(?:[:/]|$)/;

const NO_ENV = new Map<string, string | null>();
const docWith = (api: string, type: string, config: JsonMap = {}, id = "p"): ConfigDoc => ({
  providers: { [api]: [{ provider_id: id, provider_type: type, config }] },
});
/** A spec whose `workload.overrides.env` sets these variables. */
const withEnv = (vars: { [name: string]: string }) =>
  aCanonicalSpec({ workload: { overrides: { env: Object.entries(vars).map(([name, value]) => ({ name, value })) } } });
const localTypes = (doc: ConfigDoc, env: ReadonlyMap<string, string | null> = NO_ENV, release: Release = "1.3") =>
  podLocalState(doc, release, env).map((s) => s.type);

describe("which provider types keep state inside the pod, written with their class defaults", () => {
  /**
   * Inline types run in the server process. A remote type with nothing set connects where its
   * class's defaults point; qdrant's client, given no url, host or location, connects to
   * localhost (qdrant_client AsyncQdrantClient: "If url and host are None, set to 'localhost'").
   */
  const cases = TAGS.flatMap(([release, tag]) =>
    registry(tag)
      .filter((e) => e.api === "vector_io" || e.api === "files")
      .map((e): [Release, string, string, boolean] => {
        const atLoopback =
          e.provider_type === "remote::qdrant" ||
          classDefaults(tag, e.api, e.provider_type).some((d) => LOOPBACK_ADDRESS.test(d));
        return [release, e.api, e.provider_type, e.kind === "inline" || atLoopback];
      }),
  );

  it.each(cases)("%s %s %s with nothing set: pod-local %s", (release, api, type, local) => {
    expect(localTypes(docWith(api, type), NO_ENV, release)).toEqual(local ? [type] : []);
  });

  it.each(TAGS)("no other API's provider is pod-local on %s (their state goes through a backend)", (release, tag) => {
    const others = registry(tag).filter((e) => e.api !== "vector_io" && e.api !== "files");
    const found = others.flatMap((e) => podLocalState(docWith(e.api, e.provider_type), release, NO_ENV));
    expect(found).toEqual([]);
  });
});

/**
 * [case, type, config, user env (workload.overrides.env), kept in the pod]. The facts:
 * - remote::milvus passes its config to pymilvus `MilvusClient` (src/ogx/providers/remote/vector_io/milvus/milvus.py
 *   at v1.3.0, `initialize`); pymilvus `connections.connect` runs Milvus Lite in the process for a
 *   uri whose scheme is not unix, http, https, tcp or grpc, and wants it to end in `.db`.
 * - remote::qdrant passes `model_dump(exclude_none)` of its class to `AsyncQdrantClient`
 *   (src/ogx/providers/remote/vector_io/qdrant/qdrant.py at v1.3.0): `location: ":memory:"` is
 *   a local in-memory client, another location is the url; its class has no `path` key and
 *   ignores unknown keys (pydantic's default: run on the 1.3.0 classes,
 *   `QdrantVectorIOConfig(path=…)` dumps `{port, grpc_port, prefer_grpc}`), so with a path it connects
 *   to localhost.
 * - A Service name is reached by every pod; a loopback address only inside the pod itself.
 */
const PROVIDER_FACTS: [string, string, JsonMap, { [name: string]: string }, boolean][] = [
  ["milvus, an absolute .db path", "remote::milvus", { uri: "/data/milvus.db" }, {}, true],
  ["milvus, a relative .db path", "remote::milvus", { uri: "./milvus.db" }, {}, true],
  ["milvus, a server", "remote::milvus", { uri: "http://milvus.vectors.svc:19530" }, {}, false],
  ["milvus, Zilliz over https", "remote::milvus", { uri: "https://in03-x.zillizcloud.com" }, {}, false],
  ["milvus, tcp", "remote::milvus", { uri: "tcp://milvus.vectors.svc:19530" }, {}, false],
  ["milvus, a server on the pod's loopback", "remote::milvus", { uri: "http://localhost:19530" }, {}, true],
  ["milvus, a path by env default", "remote::milvus", { uri: "${env.MILVUS_URI:=/data/m.db}" }, {}, true],
  [
    "milvus, the env default replaced by a server",
    "remote::milvus",
    { uri: "${env.MILVUS_URI:=/data/m.db}" },
    { MILVUS_URI: "http://milvus.vectors.svc:19530" },
    false,
  ],
  ["qdrant, :memory:", "remote::qdrant", { location: ":memory:" }, {}, true],
  ["qdrant, a path (dropped)", "remote::qdrant", { path: "/data/qdrant" }, {}, true],
  ["qdrant, a url", "remote::qdrant", { url: "http://qdrant.vectors.svc:6333" }, {}, false],
  ["qdrant, a location that is a url", "remote::qdrant", { location: "http://qdrant.vectors.svc:6333" }, {}, false],
  ["qdrant, a host", "remote::qdrant", { host: "qdrant.vectors.svc" }, {}, false],
  ["qdrant, :memory: by env default", "remote::qdrant", { location: "${env.QDRANT_LOCATION:=:memory:}" }, {}, true],
  ["pgvector, the starter's host default", "remote::pgvector", { host: "${env.PGVECTOR_HOST:=localhost}" }, {}, true],
  [
    "pgvector, the host set in the env",
    "remote::pgvector",
    { host: "${env.PGVECTOR_HOST:=localhost}" },
    { PGVECTOR_HOST: "pg.db.svc" },
    false,
  ],
  ["weaviate on 127.0.0.1", "remote::weaviate", { weaviate_cluster_url: "127.0.0.1:8080" }, {}, true],
  ["chromadb, a server", "remote::chromadb", { url: "http://chroma.vectors.svc:8000" }, {}, false],
  ["files on S3", "remote::s3", { bucket_name: "b" }, {}, false],
  ["files on a MinIO in the pod", "remote::s3", { bucket_name: "b", endpoint_url: "http://localhost:9000" }, {}, true],
  ["a type chosen by env default", "${env.VECTOR_TYPE:=inline::faiss}", {}, {}, true],
];

describe("a provider kept in the pod by what its client does with the config", () => {
  const rows = PROVIDER_FACTS.map(([name, type, config, userEnv, local]) => ({ name, type, config, userEnv, local }));
  it.each(rows)("$name ($type): pod-local $local", ({ type, config, userEnv, local }) => {
    const api = type.includes("s3") ? "files" : "vector_io";
    const env = containerEnv(withEnv(userEnv), []);
    expect(podLocalState(docWith(api, type, config), "1.3", env).length).toBe(local ? 1 : 0);
  });

  it("leaves to the server what a Secret's value decides", () => {
    const spec = aCanonicalSpec({
      workload: { overrides: { env: [{ name: "MILVUS_URI", valueFrom: { secretKeyRef: { name: "s", key: "k" } } }] } },
    });
    const doc = docWith("vector_io", "remote::milvus", { uri: "${env.MILVUS_URI:=/data/m.db}" });
    expect(podLocalState(doc, "1.3", containerEnv(spec, []))).toEqual([]);
  });
});

describe("which storage backends keep state inside the pod", () => {
  const storage = (backend: JsonMap, used = true): ConfigDoc => ({
    providers: {},
    storage: {
      backends: { kv_default: backend },
      stores: used ? { metadata: { namespace: "registry", backend: "kv_default" } } : {},
    },
  });
  /**
   * kv_sqlite and sql_sqlite store at a `db_path` file; redis, postgres and mongodb are servers
   * whose class defaults `host` to "localhost" (src/ogx/core/storage/datatypes.py at v1.3.0).
   * [case, backend, user env, kept in the pod]
   */
  const cases: [string, JsonMap, { [name: string]: string }, boolean][] = [
    ["kv_sqlite", { type: "kv_sqlite", db_path: "/x.db" }, {}, true],
    ["sql_sqlite", { type: "sql_sqlite", db_path: "/x.db" }, {}, true],
    ["kv_redis on a Service", { type: "kv_redis", host: "redis.db.svc" }, {}, false],
    ["kv_redis with no host (localhost)", { type: "kv_redis" }, {}, true],
    ["kv_postgres on a Service", { type: "kv_postgres", host: "pg.db.svc" }, {}, false],
    ["kv_postgres at the env default localhost", { type: "kv_postgres", host: "${env.PG_HOST:=localhost}" }, {}, true],
    [
      "kv_postgres, the env default replaced",
      { type: "kv_postgres", host: "${env.PG_HOST:=localhost}" },
      { PG_HOST: "pg.db.svc" },
      false,
    ],
    ["kv_mongodb on a Service", { type: "kv_mongodb", host: "mongo.db.svc" }, {}, false],
    ["sqlite chosen by an env default", { type: "${env.KV_TYPE:=kv_sqlite}", db_path: "/x.db" }, {}, true],
    [
      "sqlite chosen by the container's env",
      { type: "${env.KV_TYPE:=kv_redis}", host: "redis.db.svc", db_path: "/x.db" },
      { KV_TYPE: "kv_sqlite" },
      true,
    ],
    [
      "redis chosen by the container's env",
      { type: "${env.KV_TYPE:=kv_sqlite}", host: "redis.db.svc", db_path: "/x.db" },
      { KV_TYPE: "kv_redis" },
      false,
    ],
  ];
  const rows = TAGS.flatMap(([release]) =>
    cases.map(([name, backend, userEnv, local]) => ({ release, name, backend, userEnv, local })),
  );
  it.each(rows)("$release $name: pod-local $local", ({ release, backend, userEnv, local }) => {
    expect(podLocalState(storage(backend), release, containerEnv(withEnv(userEnv), [])).length).toBe(local ? 1 : 0);
  });

  it("counts only a backend something uses", () => {
    expect(podLocalState(storage({ type: "kv_sqlite", db_path: "/x.db" }, false), "1.3", NO_ENV)).toEqual([]);
  });

  it("counts a backend a running provider uses, not one only a provider switched off by env uses", () => {
    const doc: ConfigDoc = {
      providers: {
        batches: [
          {
            provider_id: "${env.BATCHES:+reference}",
            provider_type: "inline::reference",
            config: { sqlstore: { backend: "sql_default" } },
          },
        ],
      },
      storage: { backends: { sql_default: { type: "sql_sqlite", db_path: "/x.db" } } },
    };
    expect(podLocalState(doc, "1.3", NO_ENV)).toEqual([]);
    expect(podLocalState(doc, "1.3", new Map([["BATCHES", "1"]])).map((s) => s.where)).toEqual([
      "storage.backends.sql_default",
    ]);
  });
});

describe("when the workload runs more than one pod", () => {
  const cases: [string, LlsdSpecV1alpha2["workload"], string | undefined][] = [
    ["no workload", undefined, undefined],
    ["one replica", { replicas: 1 }, undefined],
    ["two replicas", { replicas: 2 }, "spec.workload.replicas"],
    ["autoscaling up to 3", { autoscaling: { maxReplicas: 3 } }, "spec.workload.autoscaling.maxReplicas"],
    ["autoscaling up to 1", { autoscaling: { minReplicas: 1, maxReplicas: 1 } }, undefined],
  ];
  it.each(cases)("%s → %s", (_name, workload, path) => {
    expect(scaleOut(workload ?? {})?.path).toBe(path);
  });
});

const SCALED: [string, LlsdSpecV1alpha2["workload"], string][] = [
  ["replicas", { replicas: 3 }, "spec.workload.replicas"],
  ["autoscaling", { autoscaling: { maxReplicas: 4 } }, "spec.workload.autoscaling.maxReplicas"],
];

/**
 * postgres-demo's base reaches its Postgres at `${env.POSTGRES_HOST:=localhost}`: the pod's own
 * loopback unless the container's env names the database.
 */
const POSTGRES_HOST = { name: "POSTGRES_HOST", value: "postgres.db.svc" };
const shared = (workload: LlsdSpecV1alpha2["workload"]): LlsdSpecV1alpha2["workload"] => ({
  ...workload,
  overrides: { env: [POSTGRES_HOST] },
});

/** A spec on postgres-demo with one pod-local piece; where it is refused. */
const KINDS: [string, Partial<LlsdSpecV1alpha2>, string | undefined, RegExp][] = [
  [
    "kv sqlite",
    { storage: { kv: { type: "sqlite" } } },
    "spec.storage.kv.type",
    /spec.storage.kv with type: postgres and a connectionString Secret \(or type: redis and its endpoint\)/,
  ],
  ["sql sqlite", { storage: { sql: { type: "sqlite" } } }, "spec.storage.sql.type", /type: postgres/],
  [
    "kv redis on the pod's loopback",
    { storage: { kv: { type: "redis", endpoint: "localhost:6379" } } },
    "spec.storage.kv.endpoint",
    /the pod's own loopback/,
  ],
  [
    "faiss",
    { providers: { vectorIo: { id: "faiss", provider: "faiss" } } },
    "spec.providers.vectorIo.provider",
    /pgvector, qdrant, milvus or chromadb/,
  ],
  [
    "sqlite-vec",
    { providers: { vectorIo: { id: "sv", provider: "sqlite-vec", settings: { db_path: "/d/sv.db" } } } },
    "spec.providers.vectorIo.provider",
    /vectorIo in spec.disabled/,
  ],
  [
    "Milvus Lite through remote::milvus",
    { providers: { vectorIo: { id: "mv", provider: "remote::milvus", settings: { uri: "/data/m.db", token: "t" } } } },
    "spec.providers.vectorIo.settings",
    /Milvus Lite inside the process/,
  ],
  [
    "qdrant in memory",
    { providers: { vectorIo: { id: "qd", provider: "remote::qdrant", settings: { location: ":memory:" } } } },
    "spec.providers.vectorIo.settings",
    /location :memory:/,
  ],
  [
    "localfs files (the base's)",
    {},
    undefined,
    /files on S3 \(spec.providers.files with id builtin-files and provider: s3\)/,
  ],
];

/** postgres-demo's APIs that need its localfs files. */
const UNSHARED_APIS: LlsdSpecV1alpha2["disabled"] = ["files", "responses", "toolRuntime"];

describe.each(SCALED)("generated config, %s", (_s, workload, scalePath) => {
  it.each(KINDS)("%s is refused at its field with the fix", (_k, fields, path, fix) => {
    // Without the disabled APIs, the base's own localfs files stay.
    const disabled: Partial<LlsdSpecV1alpha2> = path === undefined ? {} : { disabled: UNSHARED_APIS };
    const spec = aSpec({ distribution: { name: "postgres-demo" }, workload: shared(workload), ...disabled, ...fields });
    const refused = checkSpec(spec).errors.filter(isStateError);
    expect(refused.map((e) => e.path)).toEqual([path ?? scalePath]);
    expect(refused[0]?.message).toMatch(fix);
    expect(refused[0]?.message).toContain(`${scalePath} runs`);
  });

  it("accepts the same config once nothing is kept inside a pod", () => {
    const spec = aSpec({
      distribution: { name: "postgres-demo" },
      workload: shared(workload),
      disabled: UNSHARED_APIS,
    });
    expect(checkSpec(spec).errors).toEqual([]);
  });

  it("refuses postgres-demo's database at the pod's loopback, when the env does not name it", () => {
    const spec = aSpec({ distribution: { name: "postgres-demo" }, workload, disabled: UNSHARED_APIS });
    const refused = checkSpec(spec).errors.filter(isStateError);
    expect(refused.map((e) => e.path)).toEqual([scalePath]);
    expect(refused[0]?.message).toMatch(
      /storage.backends.kv_default \(kv_postgres, reached at localhost, the pod's own loopback\), storage.backends.sql_default/,
    );
  });
});

describe("one pod keeps all of it", () => {
  it.each(KINDS)("%s with one replica is accepted", (_k, fields) => {
    const spec = aSpec({ distribution: { name: "postgres-demo" }, workload: { replicas: 1 }, ...fields });
    expect(checkSpec(spec).errors.filter(isStateError)).toEqual([]);
  });
});

/** The CRD's `workload.storage`: the fields a user can set on the volume. */
function storageFields(): string[] {
  type Props = { properties: { [k: string]: Props } };
  type Crd = { spec: { versions: { name: string; schema: { openAPIV3Schema: Props } }[] } };
  const file = join(__dirname, "../../../crds/llamastackdistributions.llamastack.io.yaml");
  const crd = parse(readFileSync(file, "utf8")) as Crd;
  const v2 = crd.spec.versions.find((v) => v.name === "v1alpha2");
  const spec = v2?.schema.openAPIV3Schema.properties.spec;
  return Object.keys(spec?.properties.workload?.properties.storage?.properties ?? {});
}

describe("a volume several pods cannot share", () => {
  /**
   * The PVC the hooks create is ReadWriteOnce (lib/children/pvc.ts; the sync goldens hold it),
   * and a ReadWriteOnce volume attaches to one node at a time (Kubernetes persistent volumes,
   * access modes). The spec has no field to ask for another access mode.
   */
  it("the spec cannot ask for an access mode several pods can mount", () => {
    expect(storageFields().sort()).toEqual(["mountPath", "size"]);
  });

  it.each(SCALED)("workload.storage with %s is refused at workload.storage", (_s, workload, scalePath) => {
    const spec = aSpec({ providers: { inference: { provider: "vllm", endpoint: "http://v:8000" } } });
    const refused = checkSpec({ ...spec, workload: { ...workload, storage: { size: "1Gi" } } }).errors;
    const volume = refused.filter((e) => e.path === "spec.workload.storage");
    expect(volume).toHaveLength(1);
    expect(volume[0]?.message).toContain(`${scalePath} runs`);
    expect(volume[0]?.message).toMatch(/ReadWriteOnce.*remove spec.workload.storage/);
    expect(volume.every(isStateError)).toBe(true);
  });

  it("workload.storage with one pod is accepted", () => {
    const spec = aSpec({ workload: { replicas: 1, storage: { size: "1Gi" } } });
    expect(checkSpec(spec).errors.map((e) => e.path)).not.toContain("spec.workload.storage");
  });
});

describe("a config run as it is", () => {
  it.each(SCALED)("the image's own config with %s is refused at the scale field", (_s, workload, scalePath) => {
    const refused = checkSpec(aSpec({ workload })).errors;
    expect(refused.map((e) => e.path)).toEqual([scalePath]);
    expect(refused[0]?.message).toMatch(/^the image's own config.yaml: storage.backends.kv_default \(kv_sqlite\)/);
  });

  const localfsConfig =
    "version: 2\napis: [files]\nproviders:\n  files:\n  - provider_id: f\n    provider_type: inline::localfs\n    config: {storage_dir: /d}\n";
  const milvusLiteConfig =
    "version: 2\napis: [vector_io]\nproviders:\n  vector_io:\n  - provider_id: m\n    provider_type: remote::milvus\n    config: {uri: '${env.MILVUS_URI:=/data/milvus.db}'}\n";
  it.each(SCALED)(
    "an override ConfigMap with %s is refused at configMapName, in the config's terms",
    (_s, workload) => {
      const spec = aSpec({ overrideConfig: { configMapName: "mine" }, workload });
      const rendered = render(spec, { configMaps: { mine: { "config.yaml": localfsConfig } } });
      expect(rendered.ok).toBe(false);
      const errors = rendered.ok ? [] : rendered.errors;
      expect(errors.map((e) => e.path)).toEqual(["spec.overrideConfig.configMapName"]);
      expect(errors[0]?.message).toMatch(
        /^ConfigMap mine: providers.files.f \(inline::localfs\) is kept inside each pod.*remote::s3 files/,
      );
    },
  );

  it("an override's env-selected Milvus Lite is refused, and accepted once the env names a server", () => {
    const configMaps = { mine: { "config.yaml": milvusLiteConfig } };
    const lite = render(aSpec({ overrideConfig: { configMapName: "mine" }, workload: { replicas: 2 } }), {
      configMaps,
    });
    expect(lite.ok ? [] : lite.errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/^ConfigMap mine: providers.vector_io.m \(remote::milvus, Milvus Lite inside the process/),
    ]);
    const env = [{ name: "MILVUS_URI", value: "http://milvus.vectors.svc:19530" }];
    const server = aSpec({ overrideConfig: { configMapName: "mine" }, workload: { replicas: 2, overrides: { env } } });
    expect(render(server, { configMaps }).ok).toBe(true);
  });
});

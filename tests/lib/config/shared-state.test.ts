/**
 * Issue 37 part 2: state kept inside each pod, refused when the workload runs more than one pod.
 * The pod-local provider types are checked against the lines' registries as the schema fixtures
 * record them (index.json's `kind`), not against the generated table the rule reads.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { LlsdSpecV1alpha2 } from "../../../lib/api/v1alpha2";
import { checkSpec } from "../../../lib/config/check";
import type { ConfigDoc } from "../../../lib/config/doc";
import { podLocalState, scaleOut } from "../../../lib/config/shared-state";
import { isStateError } from "../../../lib/config/shared-state-errors";
import { render } from "../../../lib/config/render";
import type { Release } from "../../../lib/distributions/table";
import { aSpec } from "../../builders";

const SCHEMAS = join(__dirname, "../../fixtures/server-schemas");
const TAGS: [Release, string][] = [
  ["0.7", "v0.7.3"],
  ["0.8", "v0.8.0"],
  ["1.3", "v1.3.0"],
];

type IndexEntry = { api: string; provider_type: string; kind: string };
const registry = (tag: string): IndexEntry[] =>
  JSON.parse(readFileSync(join(SCHEMAS, tag, "providers/index.json"), "utf8")) as IndexEntry[];

const docWith = (api: string, type: string, id = "p"): ConfigDoc => ({
  providers: { [api]: [{ provider_id: id, provider_type: type, config: {} }] },
});

describe("which provider types keep state inside the pod", () => {
  const cases = TAGS.flatMap(([release, tag]) =>
    registry(tag)
      .filter((e) => e.api === "vector_io" || e.api === "files")
      .map((e): [Release, string, string, boolean] => [release, e.api, e.provider_type, e.kind === "inline"]),
  );

  it.each(cases)("%s %s %s: pod-local %s", (release, api, type, local) => {
    const found = podLocalState(docWith(api, type), release, new Set());
    expect(found.map((s) => s.type)).toEqual(local ? [type] : []);
  });

  it.each(TAGS)("no other API's provider is pod-local on %s (their state goes through a backend)", (release, tag) => {
    const others = registry(tag).filter((e) => e.api !== "vector_io" && e.api !== "files");
    const found = others.flatMap((e) => podLocalState(docWith(e.api, e.provider_type), release, new Set()));
    expect(found).toEqual([]);
  });
});

describe("which storage backends keep state inside the pod", () => {
  const storage = (type: string, used: boolean): ConfigDoc => ({
    providers: {},
    storage: {
      backends: { kv_default: { type, db_path: "/x.db", host: "h" } },
      stores: used ? { metadata: { namespace: "registry", backend: "kv_default" } } : {},
    },
  });
  const cases: [string, boolean, boolean][] = [
    ["kv_sqlite", true, true],
    ["sql_sqlite", true, true],
    ["kv_sqlite", false, false],
    ["kv_redis", true, false],
    ["kv_postgres", true, false],
    ["sql_postgres", true, false],
    ["kv_mongodb", true, false],
  ];
  it.each(TAGS.flatMap(([release]) => cases.map((c): [Release, ...typeof c] => [release, ...c])))(
    "%s %s used by a store %s → pod-local %s",
    (release, type, used, local) => {
      expect(podLocalState(storage(type, used), release, new Set()).length).toBe(local ? 1 : 0);
    },
  );

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
    expect(podLocalState(doc, "1.3", new Set())).toEqual([]);
    expect(podLocalState(doc, "1.3", new Set(["BATCHES"])).map((s) => s.where)).toEqual([
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

/** A spec on postgres-demo (postgres stores, remote chromadb) with one pod-local piece; where it is refused. */
const KINDS: [string, Partial<LlsdSpecV1alpha2>, string | undefined, RegExp][] = [
  ["kv sqlite", { storage: { kv: { type: "sqlite" } } }, "spec.storage.kv.type", /spec.storage.kv with type: redis/],
  ["sql sqlite", { storage: { sql: { type: "sqlite" } } }, "spec.storage.sql.type", /type: postgres/],
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
    const spec = aSpec({ distribution: { name: "postgres-demo" }, workload, ...disabled, ...fields });
    const refused = checkSpec(spec).errors.filter(isStateError);
    expect(refused.map((e) => e.path)).toEqual([path ?? scalePath]);
    expect(refused[0]?.message).toMatch(fix);
    expect(refused[0]?.message).toContain(`${scalePath} runs`);
  });

  it("accepts the same config once nothing is kept inside a pod", () => {
    const spec = aSpec({
      distribution: { name: "postgres-demo" },
      workload,
      disabled: UNSHARED_APIS,
    });
    expect(checkSpec(spec).errors).toEqual([]);
  });
});

describe("one pod keeps all of it", () => {
  it.each(KINDS)("%s with one replica is accepted", (_k, fields) => {
    const spec = aSpec({ distribution: { name: "postgres-demo" }, workload: { replicas: 1 }, ...fields });
    expect(checkSpec(spec).errors.filter(isStateError)).toEqual([]);
  });
});

describe("a config run as it is", () => {
  it.each(SCALED)("the image's own config with %s is refused at the scale field", (_s, workload, scalePath) => {
    const refused = checkSpec(aSpec({ workload })).errors;
    expect(refused.map((e) => e.path)).toEqual([scalePath]);
    expect(refused[0]?.message).toMatch(/^the image's own config.yaml: storage.backends.kv_default \(kv_sqlite\)/);
  });

  const sqliteConfig =
    "version: 2\napis: [files]\nproviders:\n  files:\n  - provider_id: f\n    provider_type: inline::localfs\n    config: {storage_dir: /d}\n";
  it.each(SCALED)(
    "an override ConfigMap with %s is refused at configMapName, in the config's terms",
    (_s, workload) => {
      const spec = aSpec({ overrideConfig: { configMapName: "mine" }, workload });
      const rendered = render(spec, { configMaps: { mine: { "config.yaml": sqliteConfig } } });
      expect(rendered.ok).toBe(false);
      const errors = rendered.ok ? [] : rendered.errors;
      expect(errors.map((e) => e.path)).toEqual(["spec.overrideConfig.configMapName"]);
      expect(errors[0]?.message).toMatch(
        /^ConfigMap mine: providers.files.f \(inline::localfs\) is kept inside each pod.*remote::s3 files/,
      );
    },
  );
});

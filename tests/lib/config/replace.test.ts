/**
 * Issue 47 part 1: `spec.replace` — the APIs it names run exactly the spec's providers, the
 * kinds of registered resources it names keep only the spec's, what goes is named in a note,
 * and nothing in the base is left pointing at what went. The base facts used below are the
 * bundled starter configs' (lib/distributions/base/starter-*.yaml, upstream's at each tag).
 */
import type { LlsdSpecV1alpha2 } from "../../../lib/api/v1alpha2";
import { checkSpec } from "../../../lib/config/check";
import { isStateError } from "../../../lib/config/shared-state-errors";
import { effectiveId, type ConfigDoc } from "../../../lib/config/doc";
import type { Release } from "../../../lib/distributions/table";
import { aSpec } from "../../builders";
import { base as baseText, baseDoc, doc, models, ok, run } from "../../config-helpers";

const vllm = { provider: "vllm", endpoint: "http://vllm.models.svc:8000/v1" };
const pgvector = {
  provider: "pgvector",
  settings: { host: "pgvector.db.svc", port: 5432, db: "vectors", user: "ogx" },
  secretRefs: { password: { name: "pg", key: "password" } },
};
const ids = (config: ConfigDoc, api: string): string[] =>
  (config.providers[api] ?? []).map((p) => effectiveId(p.provider_id));

describe("replace: an API runs exactly the spec's providers", () => {
  it.each<[string, Release, Partial<LlsdSpecV1alpha2>, string, string[]]>([
    ["vectorIo on 1.3", "1.3", { replace: ["vectorIo"], providers: { vectorIo: pgvector } }, "vector_io", ["pgvector"]],
    [
      "vector_io written snake_case",
      "1.3",
      { replace: ["vector_io"], providers: { vectorIo: pgvector } },
      "vector_io",
      ["pgvector"],
    ],
    ["inference on 1.3", "1.3", { replace: ["inference"], providers: { inference: vllm } }, "inference", ["vllm"]],
    ["inference on 0.8", "0.8", { replace: ["inference"], providers: { inference: vllm } }, "inference", ["vllm"]],
    [
      "toolRuntime keeping a base id",
      "1.3",
      { replace: ["toolRuntime"], providers: { toolRuntime: { provider: "file-search" } } },
      "tool_runtime",
      ["file-search"],
    ],
  ])("given %s, the API holds only the spec's providers", (...[, release, fields, api, expected]) => {
    const config = doc(run(aSpec(fields), release));
    expect(ids(config, api)).toEqual(expected);
  });

  it("names every dropped base provider of the API in a note", () => {
    const result = ok(run(aSpec({ replace: ["vectorIo"], providers: { vectorIo: pgvector } }), "1.3"));
    const dropped = baseDoc("starter", "1.3")
      .providers.vector_io!.map((p) => effectiveId(p.provider_id))
      .filter((id) => id !== "pgvector");
    const note = result.notes.find((n) => n.startsWith("spec.replace[0]: vector_io runs only the spec's providers"));
    for (const id of dropped) expect(note).toContain(`${id} (`);
    expect(note).not.toContain("pgvector (");
  });

  it("keeps the base entry of a listed id underneath (same type: its settings stay)", () => {
    const config = doc(run(aSpec({ replace: ["vectorIo"], providers: { vectorIo: pgvector } }), "1.3"));
    expect(config.providers.vector_io?.[0]?.config).toMatchObject({
      distance_metric: "COSINE",
      host: "pgvector.db.svc",
    });
  });

  it("leaves the other APIs as the base has them", () => {
    const config = doc(run(aSpec({ replace: ["vectorIo"], providers: { vectorIo: pgvector } }), "1.3"));
    expect(config.providers.inference).toEqual(baseDoc("starter", "1.3").providers.inference);
  });
});

describe("replace: what pointed at a dropped provider", () => {
  it("points vector_stores.default_provider_id and the responses provider's default store at the first that stays", () => {
    const result = ok(run(aSpec({ replace: ["vectorIo"], providers: { vectorIo: pgvector } }), "1.3"));
    const config = doc(result);
    // The starter's: default_provider_id faiss, memory_config.default_vector_store_provider_id sqlite-vec.
    expect(config.vector_stores?.default_provider_id).toBe("pgvector");
    const responses = config.providers.responses?.[0]?.config as { memory_config?: object };
    expect(responses.memory_config).toEqual({ default_vector_store_provider_id: "pgvector" });
    expect(result.notes).toContainEqual(
      expect.stringMatching(/^vector_stores.default_provider_id: .*faiss.*set to pgvector$/),
    );
  });

  it("drops the default embedding and reranker models of a dropped inference provider, and says so", () => {
    const result = ok(run(aSpec({ replace: ["inference"], providers: { inference: vllm } }), "1.3"));
    const config = doc(result);
    expect(config.vector_stores).not.toHaveProperty("default_embedding_model");
    expect(config.vector_stores).not.toHaveProperty("default_reranker_model");
    expect(result.notes.join("\n")).toMatch(/vector_stores.default_embedding_model nomic-ai\/nomic-embed-text-v1.5/);
  });

  it("drops the models registered on a dropped provider, and names them", () => {
    // postgres-demo registers its embedding model on sentence-transformers.
    const base = models(baseDoc("postgres-demo", "1.3")).filter((m) => m.provider_id === "sentence-transformers");
    expect(base.length).toBeGreaterThan(0);
    const spec = aSpec({
      distribution: { name: "postgres-demo" },
      replace: ["inference"],
      providers: { inference: vllm },
    });
    const result = ok(run(spec, "1.3", baseText("postgres-demo", "1.3")));
    expect(models(doc(result)).filter((m) => m.provider_id === "sentence-transformers")).toEqual([]);
    const note = result.notes.find((n) => n.startsWith("spec.replace[0]: inference runs only"));
    expect(note?.split("and the models on them: ")[1]?.split(", ")).toContain(base[0]?.model_id);
  });
});

describe("replace: a kind of registered resources keeps only the spec's", () => {
  it.each<[string, Partial<LlsdSpecV1alpha2>, string[]]>([
    [
      "models with spec models",
      { replace: ["models"], providers: { inference: vllm }, resources: { models: ["m1"] } },
      ["m1"],
    ],
    ["models without any", { replace: ["models"] }, []],
    [
      "no replace: laid over the base's",
      { providers: { inference: vllm }, resources: { models: ["m1"] } },
      ["claude-haiku-4-5-20251001", "claude-sonnet-4-5-20250514", "claude-opus-4-6-20260314", "m1"],
    ],
  ])("given %s, registers those models", (_t, fields, expected) => {
    const config = doc(run(aSpec(fields), "1.3"));
    expect(models(config).map((m) => m.model_id)).toEqual(expected);
  });

  it("names the dropped models", () => {
    const result = ok(run(aSpec({ replace: ["models"] }), "1.3"));
    expect(result.notes).toContain(
      "spec.replace[0]: models are only the spec's; dropped from the base config: claude-haiku-4-5-20251001, claude-sonnet-4-5-20250514, claude-opus-4-6-20260314",
    );
  });

  it("given shields on 0.8, keeps only the spec's and makes the first the default", () => {
    const fields = {
      replace: ["shields"],
      providers: { safety: { provider: "llama-guard" } },
      resources: { shields: ["s1"] },
    };
    const config = doc(run(aSpec(fields as Partial<LlsdSpecV1alpha2>), "0.8"));
    expect(config.registered_resources?.shields?.map((s) => s.shield_id)).toEqual(["s1"]);
    expect(config.safety?.default_shield_id).toBe("s1");
  });
});

describe("replace: what validate refuses", () => {
  it.each<[string, Partial<LlsdSpecV1alpha2>, string, RegExp]>([
    [
      "an API without spec providers",
      { replace: ["vectorIo"] },
      "spec.replace[0]",
      /lists none; .*vectorIo in spec.disabled/,
    ],
    [
      "an API also disabled",
      { replace: ["vectorIo"], disabled: ["vectorIo"], providers: { vectorIo: pgvector } },
      "spec.replace[0]",
      /both replaced and disabled/,
    ],
    [
      "a name twice",
      { replace: ["vectorIo", "vector_io"], providers: { vectorIo: pgvector } },
      "spec.replace[1]",
      /already in replace \(as "vectorIo"\)/,
    ],
    [
      "beside overrideConfig",
      { replace: ["models"], overrideConfig: { configMapName: "c" } },
      "spec.replace",
      /mutually exclusive/,
    ],
  ])("refuses %s at its field", (_t, fields, path, message) => {
    const errors = checkSpec(aSpec(fields)).errors;
    expect(errors).toContainEqual({ path, message: expect.stringMatching(message) });
  });
});

describe("the HA starter: one pgvector entry plus replace passes the multi-replica guard", () => {
  const ha = (replace: LlsdSpecV1alpha2["replace"]): LlsdSpecV1alpha2 =>
    aSpec({
      distribution: { name: "starter" },
      ...(replace ? { replace } : {}),
      providers: {
        vectorIo: pgvector,
        files: { provider: "s3", settings: { bucket_name: "ogx-files", region: "us-east-1" } },
      },
      storage: {
        kv: { type: "redis", endpoint: "redis.cache.svc:6379" },
        sql: { type: "postgres", connectionString: { name: "pg", key: "dsn" } },
      },
      workload: { replicas: 2 },
    });

  it.each<[string, LlsdSpecV1alpha2["replace"], string[]]>([
    ["with replace: [vectorIo]", ["vectorIo"], []],
    ["without it (the starter's faiss and sqlite-vec stay)", undefined, ["spec.workload.replicas"]],
  ])("%s: multi-replica refusals at %j", (_t, replace, refusedAt) => {
    const result = checkSpec(ha(replace));
    expect(result.errors.filter(isStateError).map((e) => e.path)).toEqual(refusedAt);
    if (refusedAt.length === 0) expect(result.errors).toEqual([]);
  });

  it("without replace, the refusal's fix names replace", () => {
    const refused = checkSpec(ha(undefined)).errors.find(isStateError);
    expect(refused?.message).toMatch(/with vectorIo in spec.replace, which drops the base's others/);
  });
});

describe("unset changes nothing", () => {
  it.each<Release>(["0.7", "0.8", "1.3"])("replace: [] generates the same config as no replace on %s", (release) => {
    const fields = { providers: { inference: vllm }, resources: { models: ["m1"] } };
    expect(ok(run(aSpec({ ...fields, replace: [] }), release)).configYaml).toBe(
      ok(run(aSpec(fields), release)).configYaml,
    );
  });
});

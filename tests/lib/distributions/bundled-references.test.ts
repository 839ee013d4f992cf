/** Cross-references inside each bundled base that the real server checks at startup. */
import { bundledNames } from "../../../lib/distributions/bundled";
import { RELEASES } from "../../../lib/distributions/table";
import {
  backendReferences,
  enabledId,
  isConditional,
  list,
  loadBase,
  mapping,
  providerEntries,
  text,
} from "./config-shape";
import { AUTO_ROUTED_APIS, DEPENDENCIES, STORE_KINDS } from "./server-rules";

const BASES = RELEASES.flatMap((release) => bundledNames().map((name) => [name, release] as const));

describe.each(BASES)("bundled base %s for release %s", (name, release) => {
  const config = loadBase(name, release);
  const providers = providerEntries(config);
  const storage = mapping(config["storage"], "storage");
  const backends = mapping(storage["backends"], "storage.backends");
  const kindOf = (backend: string): string | undefined => {
    const fields = backends[backend];
    return fields === undefined ? undefined : text(mapping(fields, backend)["type"], `${backend}.type`).split("_")[0];
  };
  const idsOf = (api: string): string[] => providers.filter((p) => p.api === api).map((p) => p.id);
  const resources = mapping(config["registered_resources"], "registered_resources");

  it("keeps the backend names every default store reference uses", () => {
    expect(Object.keys(backends).sort()).toEqual(["kv_default", "sql_default"]);
  });

  it.each(Object.entries(STORE_KINDS[release]))("points store %s at an existing %s backend", (store, kind) => {
    const ref = mapping(mapping(storage["stores"], "storage.stores")[store] ?? { backend: `${kind}_default` }, store);
    expect(kindOf(text(ref["backend"], `${store}.backend`))).toBe(kind);
  });

  it("points every provider store reference at an existing backend of the right kind", () => {
    const refs = providers.flatMap((p) => backendReferences(p.config, `${p.api}.${p.id}`));
    expect(refs.length).toBeGreaterThan(0);
    for (const { path, ref } of refs) {
      const wanted = "table_name" in ref ? "sql" : "kv";
      expect({ path, kind: kindOf(text(ref["backend"], path)) }).toEqual({ path, kind: wanted });
    }
  });

  it.each(DEPENDENCIES.map((rule) => [rule.providerType ?? "any provider", rule.api, rule] as const))(
    "gives %s of %s the APIs it depends on",
    (_type, api, rule) => {
      const dependents = providers.filter((p) => p.api === api && (rule.providerType ?? p.type) === p.type);
      if (dependents.length === 0) return; // rule does not apply to this base
      for (const needed of rule.needs) {
        const candidates = providers.filter((p) => p.api === needed);
        const usable = AUTO_ROUTED_APIS.includes(needed)
          ? candidates
          : candidates.filter((p) => !isConditional(p.rawId));
        expect({ needed, available: usable.length > 0 }).toEqual({ needed, available: true });
      }
    },
  );

  it("resolves the vector_stores default references to providers of the right type", () => {
    if (config["vector_stores"] === undefined) return;
    const vectorStores = mapping(config["vector_stores"], "vector_stores");
    expect(idsOf("vector_io")).toContain(vectorStores["default_provider_id"]);
    const expected = [
      ["default_embedding_model", "inline::sentence-transformers"],
      // 1.2 removed inline::transformers; the reranker runs on sentence-transformers.
      ["default_reranker_model", release.startsWith("1.") ? "inline::sentence-transformers" : "inline::transformers"],
    ] as const;
    for (const [key, type] of expected) {
      if (vectorStores[key] === undefined) continue;
      const providerId = mapping(vectorStores[key], key)["provider_id"];
      expect(providers.find((p) => p.api === "inference" && p.id === providerId)?.type).toBe(type);
    }
  });

  it("registers shields only on existing safety providers, and defaults to a registered one", () => {
    if (release.startsWith("1.")) {
      // 1.x has no Safety API: neither shields nor a safety section nor safety providers.
      expect({ shields: resources["shields"], safety: config["safety"], providers: idsOf("safety") }).toEqual({
        shields: undefined,
        safety: undefined,
        providers: [],
      });
      return;
    }
    const shields = list(resources["shields"], "shields").map((s, i) => mapping(s, `shields[${i}]`));
    expect(shields.length).toBeGreaterThan(0);
    for (const shield of shields) {
      expect(idsOf("safety")).toContain(enabledId(text(shield["provider_id"], "shield provider_id")));
    }
    if (config["safety"] === undefined) return;
    const defaultShield = mapping(config["safety"], "safety")["default_shield_id"];
    expect(shields.map((s) => s["shield_id"])).toContain(defaultShield);
  });

  it("registers models on existing inference providers, embeddings with a dimension", () => {
    const models = list(resources["models"], "models").map((m, i) => mapping(m, `models[${i}]`));
    // `provider_id: all` is the 0.8 alias for "the first active inference provider".
    const allowedIds = release === "0.7" ? idsOf("inference") : [...idsOf("inference"), "all"];
    for (const model of models) {
      expect(allowedIds).toContain(model["provider_id"]);
      if (model["model_type"] === "embedding") {
        expect(mapping(model["metadata"], "metadata")["embedding_dimension"]).toEqual(expect.any(Number));
      }
    }
  });
});

describe.each([
  ["0.7", "llamastack", "llamastack_kvstore"],
  ["0.8", "ogx", "ogx_kvstore"],
  ["1.2", "ogx", "ogx_kvstore"],
  ["1.3", "ogx", "ogx_kvstore"],
] as const)("postgres-demo on release %s", (release, database, table) => {
  const backends = mapping(mapping(loadBase("postgres-demo", release)["storage"], "storage")["backends"], "backends");

  it.each(["kv_default", "sql_default"])("defaults %s to the release's database name", (backend) => {
    const fields = mapping(backends[backend], backend);
    expect(fields["db"]).toBe(`\${env.POSTGRES_DB:=${database}}`);
    expect(fields["user"]).toBe(`\${env.POSTGRES_USER:=${database}}`);
  });

  it("defaults the kv table name to the release's", () => {
    expect(mapping(backends["kv_default"], "kv_default")["table_name"]).toBe(`\${env.POSTGRES_TABLE_NAME:=${table}}`);
  });
});

describe("starter on release 0.8", () => {
  it("registers the Claude aliases on whichever provider serves them", () => {
    const models = list(mapping(loadBase("starter", "0.8")["registered_resources"], "rr")["models"], "models");
    expect(models).toEqual(
      ["claude-haiku-4-5-20251001", "claude-sonnet-4-5-20250514", "claude-opus-4-6-20260314"].map((modelId) => ({
        metadata: {},
        model_id: modelId,
        provider_id: "all",
        provider_model_id: "auto",
        model_type: "llm",
      })),
    );
  });

  it("registers no models on release 0.7, where `all`/`auto` do not exist", () => {
    expect(mapping(loadBase("starter", "0.7")["registered_resources"], "rr")["models"]).toEqual([]);
  });
});

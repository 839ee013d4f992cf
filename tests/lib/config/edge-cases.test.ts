/** Edge cases of config generation (base versions, shields, provider types, what the server needs), each a named test. */
import { aSecretRef, aSpec, aVllm } from "../../builders";
import { baseDoc, doc, models, ok, provider, run } from "../../config-helpers";
import type { GenerateResult } from "../../../lib/config/generate";
import { resolveProviderType } from "../../../lib/config/provider-types";
import type { Release } from "../../../lib/distributions/table";

function errors(result: GenerateResult) {
  if (result.ok) throw new Error("expected failure");
  return result.errors;
}

describe("edge cases", () => {
  it("given settings, passes them through into the provider config, deep-merged last", () => {
    const config = doc(
      run(aSpec({ providers: { inference: aVllm({ settings: { max_tokens: 8192, network: { timeout: 30 } } }) } })),
    );
    expect(provider(config, "inference", "vllm")?.config).toEqual(
      expect.objectContaining({
        max_tokens: 8192,
        network: { tls: { verify: "${env.VLLM_TLS_VERIFY:=true}" }, timeout: 30 },
      }),
    );
  });

  // On a type of the user's own: the line has no config class to refuse the unknown key with.
  it("given a secretKeyRef inside settings, passes it through as-is without resolving it", () => {
    const custom = { provider: "remote::my-engine", id: "mine", settings: { extra: { secretKeyRef: aSecretRef() } } };
    const result = ok(run(aSpec({ providers: { inference: custom } })));
    expect(provider(doc(result), "inference", "mine")?.config?.extra).toEqual({
      secretKeyRef: { name: "creds", key: "token" },
    });
    expect(result.secretEnv).toEqual([]);
  });

  it("given a model on a provider neither the spec nor the base has, lists the available ids", () => {
    const [error] = errors(run(aSpec({ resources: { models: [{ name: "m", provider: "ghost" }] } })));
    expect(error?.path).toBe("spec.resources.models[0].provider");
    expect(error?.message).toMatch(
      /names provider "ghost", which is not an inference provider. Available: "fireworks", "together", .*"vllm"/,
    );
  });

  it("given a model on a base provider, registers it there", () => {
    expect(
      models(
        doc(
          run(
            aSpec({
              resources: {
                models: [
                  { name: "nomic", provider: "sentence-transformers", modelType: "embedding", embeddingDimension: 768 },
                ],
              },
            }),
          ),
        ),
      ),
    ).toContainEqual(
      expect.objectContaining({
        model_id: "nomic",
        provider_id: "sentence-transformers",
        model_type: "embedding",
        metadata: { embedding_dimension: 768 },
      }),
    );
  });

  it.each([
    [3, "Unsupported config.yaml version 3. Supported versions: 2"],
    [
      "2.5",
      'Unsupported config.yaml version "2.5" (the server reads version as an integer and refuses this value). Supported versions: 2',
    ],
    [1, "Unsupported config.yaml version 1. Supported versions: 2"],
  ])("given a base config with version %j, fails naming the supported versions", (version, message) => {
    const base = { ...baseDoc(), version };
    expect(errors(run(aSpec({ providers: { inference: aVllm() } }), "0.7", base))).toEqual([
      { path: "baseConfig.version", message },
    ]);
  });

  it.each(["2", 2.0, " 2 "])(
    "given a base config with version %j, reads it as the server does (2) and generates",
    (version) => {
      ok(run(aSpec({ providers: { inference: aVllm() } }), "0.7", { ...baseDoc(), version }));
    },
  );

  it("given tools without any tool_runtime provider, fails naming what to add", () => {
    const base = baseDoc();
    delete base.providers.tool_runtime;
    const [error] = errors(run(aSpec({ resources: { tools: ["websearch"] } }), "0.7", base));
    expect(error).toEqual({
      path: "spec.resources.tools[0]",
      message: expect.stringMatching(
        /^resources.tools requires at least one toolRuntime provider that serves "websearch".*add spec.providers.toolRuntime with provider: tavily-search/,
      ),
    });
  });

  it("given tools and a user toolRuntime provider, accepts them", () => {
    const base = baseDoc();
    delete base.providers.tool_runtime;
    const spec = aSpec({
      providers: { toolRuntime: { provider: "tavily-search", apiKey: aSecretRef() } },
      resources: { tools: ["websearch"] },
    });
    expect(provider(doc(run(spec, "0.7", base)), "tool_runtime", "tavily-search")?.config).toEqual({
      api_key: "${env.LLSD_TAVILY_SEARCH_API_KEY}",
    });
  });

  it("given shields without any safety provider, fails asking for a safety provider", () => {
    const base = baseDoc();
    delete base.providers.safety;
    expect(errors(run(aSpec({ resources: { shields: ["llama-guard"] } }), "0.7", base))).toEqual([
      {
        path: "spec.resources.shields",
        message:
          "resources.shields requires at least one safety provider to be configured: add spec.providers.safety (e.g. provider: llama-guard)",
      },
    ]);
  });

  it("given shields and the base's safety provider, registers them there", () => {
    const shields = doc(run(aSpec({ resources: { shields: ["meta-llama/Llama-Guard-3-8B"] } }))).registered_resources
      ?.shields;
    expect(shields).toContainEqual({
      shield_id: "meta-llama/Llama-Guard-3-8B",
      provider_id: "llama-guard",
      provider_shield_id: "meta-llama/Llama-Guard-3-8B",
    });
  });

  it("given disabled inference and an inference provider, disabled wins", () => {
    const result = run(
      aSpec({
        providers: { inference: aVllm({ id: "mine" }) },
        disabled: ["responses", "vectorIo", "toolRuntime", "safety", "batches", "inference", "eval", "scoring"],
      }),
    );
    const config = doc(result);
    expect(config.providers.inference).toBeUndefined();
    expect(config.apis).not.toContain("inference");
  });
});

describe("provider types: a spec provider name becomes the server's provider_type", () => {
  it.each([
    ["inference", { provider: "vllm", endpoint: "http://v:8000" }, "remote::vllm"],
    ["inference", { provider: "sentence-transformers", id: "st2" }, "inline::sentence-transformers"],
    ["vectorIo", { provider: "faiss", id: "f2" }, "inline::faiss"],
    ["vectorIo", { provider: "chromadb", id: "c1" }, "inline::chromadb"],
    ["vectorIo", { provider: "chromadb", id: "c2", endpoint: "http://chroma:8000" }, "remote::chromadb"],
    ["safety", { provider: "llama-guard", id: "lg" }, "inline::llama-guard"],
    ["toolRuntime", { provider: "rag-runtime", id: "rr" }, "inline::file-search"],
    ["inference", { provider: "inline::my-engine", id: "mine" }, "inline::my-engine"],
  ])("given %s provider %j, generates provider_type %s", (api, p, type) => {
    const config = doc(run(aSpec({ providers: { [api]: p } })));
    expect(
      Object.values(config.providers)
        .flat()
        .find((e) => e.provider_id === ((p as { id?: string }).id ?? p.provider))?.provider_type,
    ).toBe(type);
  });

  it("given a type of one's own written in full, generates it and says the image must provide it", () => {
    expect(ok(run(aSpec({ providers: { inference: { provider: "remote::acme" } } }))).notes).toContainEqual(
      "spec.providers.inference: remote::acme is not a type that 0.7.x servers register for inference; used as written, so the image must provide it",
    );
  });

  it("given a name no type of the line matches, fails with the closest names instead of generating remote::<name>", () => {
    expect(errors(run(aSpec({ providers: { inference: { provider: "vllm-openai" } } })))).toEqual([
      {
        path: "spec.providers.inference.provider",
        message:
          'unknown inference provider "vllm-openai" on 0.7.x servers; the closest are "openai", "vllm" and "llama-openai-compat" (for a provider of your own, write its type in full, e.g. remote::vllm-openai, or list its image under spec.externalProviders)',
      },
    ]);
  });

  it("given a provider the supported releases removed, fails instead of breaking the server", () => {
    expect(errors(run(aSpec({ providers: { inference: { provider: "tgi", endpoint: "http://tgi:80" } } })))).toEqual([
      {
        path: "spec.providers.inference.provider",
        message: expect.stringMatching(/remote::tgi does not exist on 0.7.x servers/),
      },
    ]);
  });

  it.each([
    ["vllm", "api_token", "base_url", "http://v:8000/v1"],
    ["openai", "api_key", "base_url", "http://v:8000"],
    ["ollama", undefined, "base_url", "http://v:8000/v1"],
  ])("given %s with endpoint and apiKey, uses its own key field %s and URL key %s", (name, keyField, urlKey, url) => {
    const apiKey = keyField ? { apiKey: aSecretRef() } : {};
    const config = doc(
      run(
        aSpec({ providers: { inference: { provider: name, id: `my-${name}`, endpoint: "http://v:8000", ...apiKey } } }),
      ),
    );
    const entry = provider(config, "inference", `my-${name}`);
    expect(entry?.config?.[urlKey]).toBe(url);
    if (keyField) expect(entry?.config?.[keyField]).toBe(`\${env.LLSD_MY_${name.toUpperCase()}_API_KEY}`);
  });

  it("given pgvector with an endpoint, splits it into host, port and db", () => {
    const config = doc(
      run(
        aSpec({
          providers: {
            vectorIo: {
              provider: "pgvector",
              endpoint: "http://pg.db.svc:5433/vectors",
              password: aSecretRef("pg", "pw"),
            },
          },
        }),
      ),
    );
    expect(provider(config, "vector_io", "pgvector")?.config).toEqual(
      expect.objectContaining({
        host: "pg.db.svc",
        port: 5433,
        db: "vectors",
        password: "${env.LLSD_PGVECTOR_PASSWORD}",
        distance_metric: "COSINE",
      }),
    );
  });
});

describe("telemetry", () => {
  it("given a telemetry provider, exports OTel env and adds no config.yaml provider", () => {
    const result = ok(
      run(
        aSpec({
          providers: {
            telemetry: { provider: "otel", endpoint: "http://otel:4318", settings: { serviceName: "chat" } },
          },
        }),
      ),
    );
    expect(result.plainEnv).toEqual([
      { name: "OTEL_EXPORTER_OTLP_ENDPOINT", value: "http://otel:4318" },
      { name: "OTEL_SERVICE_NAME", value: "chat" },
    ]);
    expect(doc(result).providers.telemetry).toBeUndefined();
  });
});

describe("server section", () => {
  it("given TLS, workers and a port, sets the server keys the launcher reads", () => {
    const spec = aSpec({
      providers: { inference: aVllm() },
      networking: { port: 9000, tls: { enabled: true, secretName: "tls" } },
      workload: { workers: 4 },
    });
    expect(doc(run(spec)).server).toEqual({
      port: 9000,
      workers: 4,
      tls_certfile: "/etc/llama-stack/tls/tls.crt",
      tls_keyfile: "/etc/llama-stack/tls/tls.key",
    });
  });
});

describe("what the real server needs beyond what the spec says", () => {
  it.each([
    [
      { id: "my-faiss", provider: "faiss" },
      { persistence: { namespace: "vector_io::my-faiss", backend: "kv_default" } },
    ],
    [
      { id: "vec", provider: "sqlite-vec" },
      { db_path: "/data/vec.db", persistence: { namespace: "vector_io::vec", backend: "kv_default" } },
    ],
    [
      { id: "chroma", provider: "chromadb", endpoint: "http://chroma:8000" },
      { url: "http://chroma:8000", persistence: { namespace: "vector_io::chroma", backend: "kv_default" } },
    ],
  ])("given vector store %j, gives it the persistence (and file) the server requires", (p, config) => {
    const spec = aSpec({ providers: { vectorIo: p }, workload: { storage: { mountPath: "/data" } } });
    expect(provider(doc(run(spec)), "vector_io", p.id)?.config).toEqual(config);
  });

  it("given a model without provider and no spec inference provider, fails instead of picking a hosted API", () => {
    expect(errors(run(aSpec({ resources: { models: ["m"] } })))).toEqual([
      {
        path: "spec.resources.models[0]",
        message: expect.stringMatching(
          /^model "m" names no provider and spec.providers.inference is empty.*Available: "fireworks"/,
        ),
      },
    ]);
  });

  it("given a model on a provider the distribution switches on by env, says which env var", () => {
    expect(ok(run(aSpec({ resources: { models: [{ name: "m", provider: "vllm" }] } }))).notes).toContainEqual(
      expect.stringMatching(
        /"m" is on provider "vllm", which the distribution enables only when VLLM_URL is set: it stays behind the same switch/,
      ),
    );
  });

  it("given a spec provider that reuses a switched-off base id, says which base settings it keeps", () => {
    expect(
      ok(run(aSpec({ providers: { vectorIo: { provider: "pgvector", endpoint: "http://pg:5432/v" } } }))).notes,
    ).toContainEqual(
      expect.stringMatching(
        /providers.vector_io.pgvector: now always on; it keeps the distribution's other settings for it \(db, distance_metric, host/,
      ),
    );
  });

  it("given shields, makes the first one the default shield", () => {
    expect(doc(run(aSpec({ resources: { shields: ["guard-a", "guard-b"] } }))).safety).toEqual({
      default_shield_id: "guard-a",
    });
  });

  it("given external providers, says they are not merged yet", () => {
    const spec = aSpec({
      providers: { inference: aVllm() },
      externalProviders: { inference: [{ providerId: "x", image: "r/x:1" }] },
    });
    expect(ok(run(spec)).notes[0]).toMatch(/^spec.externalProviders: not merged/);
  });
});

describe("a provider type an older line does not have", () => {
  it.each<[string, Release, RegExp]>([
    [
      "remote::deepseek",
      "0.8",
      /^remote::deepseek does not exist on 0\.8\.x servers \(added in 1\.3\.x\); run a 1\.3 image/,
    ],
    ["deepseek", "0.7", /^remote::deepseek does not exist on 0\.7\.x servers \(added in 1\.3\.x\)/],
    ["remote::tgi", "0.8", /^remote::tgi does not exist on 0\.8\.x servers \(removed upstream\)/],
    ["remote::passthrough", "1.3", /^remote::passthrough does not exist on 1\.3\.x servers \(removed upstream\)/],
    // v1.2.2's registry (tests/fixtures/server-schemas/v1.2.2/providers/index.json) has none of 1.3.0's new types.
    ["deepseek", "1.2", /^remote::deepseek does not exist on 1\.2\.x servers \(added in 1\.3\.x\); run a 1\.3 image/],
    ["remote::meta", "1.2", /^remote::meta does not exist on 1\.2\.x servers \(added in 1\.3\.x\)/],
    ["mistral", "1.2", /^remote::mistral does not exist on 1\.2\.x servers \(added in 1\.3\.x\)/],
  ])("%s on %s: says whether it is new or gone", (provider, release, message) => {
    expect(resolveProviderType("inference", provider, true, release).error).toMatch(message);
  });
});

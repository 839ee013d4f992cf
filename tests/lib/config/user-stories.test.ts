/** Acceptance scenarios of the CR's user stories 1–4 and 6 (docs/spec-reference.md), against the bundled starter base. */
import { normalize } from "../../../lib/api/normalize";
import { configSource, render } from "../../../lib/config/render";
import { aSecretRef, aSpec, aVllm } from "../../builders";
import { base, baseDoc, doc, models, ok, provider, run } from "../../config-helpers";

describe("User story 1: simple inference configuration", () => {
  it("1.1: given inference [{provider: vllm, endpoint}], generates a vLLM provider the server accepts", () => {
    const config = doc(run(aSpec({ providers: { inference: [{ provider: "vllm", endpoint: "http://vllm:8000" }] } })));
    expect(provider(config, "inference", "vllm")).toEqual({
      provider_id: "vllm",
      provider_type: "remote::vllm",
      // the base's own vllm entry stays underneath: max_tokens and TLS verification survive
      config: expect.objectContaining({ base_url: "http://vllm:8000/v1", max_tokens: "${env.VLLM_MAX_TOKENS:=4096}" }),
    });
    expect(config.version).toBe(2);
  });

  it("1.2: given secretRefs.api_key, the key reaches the server as an env var and never as a value", () => {
    const result = ok(
      run(aSpec({ providers: { inference: aVllm({ secretRefs: { api_key: aSecretRef("vllm-creds", "token") } }) } })),
    );
    expect(provider(doc(result), "inference", "vllm")?.config?.api_token).toBe("${env.LLSD_VLLM_API_KEY}");
    expect(result.secretEnv).toEqual([
      {
        name: "LLSD_VLLM_API_KEY",
        secretName: "vllm-creds",
        secretKey: "token",
        path: "spec.providers.inference.secretRefs.api_key",
      },
    ]);
    expect(result.configYaml).not.toContain("vllm-creds");
  });

  it("given only TLS, generates a config so the server serves HTTPS with the mounted certificate", () => {
    expect(configSource(normalize(aSpec({ networking: { tls: { enabled: true, secretName: "tls" } } })))).toBe(
      "generated",
    );
  });

  it("1.3: given only distribution.name, uses the image's default config unchanged", () => {
    expect(configSource(normalize(aSpec()))).toBe("image-default");
    expect(render(aSpec())).toEqual(expect.objectContaining({ ok: true, source: "image-default" }));
  });
});

describe("User story 2: multiple providers", () => {
  it("2.1: given two inference providers with ids, configures both and keeps the base's others", () => {
    const config = doc(
      run(
        aSpec({
          providers: {
            inference: [aVllm({ id: "primary" }), aVllm({ id: "fallback", endpoint: "http://vllm-b:8000/v1" })],
          },
        }),
      ),
    );
    const ids = (config.providers.inference ?? []).map((p) => p.provider_id);
    expect(ids.slice(-2)).toEqual(["primary", "fallback"]);
    expect(ids).toEqual(expect.arrayContaining(["fireworks", "openai", "sentence-transformers"]));
    expect(provider(config, "inference", "fallback")?.config?.base_url).toBe("http://vllm-b:8000/v1");
  });
});

describe("User story 3: resource registration", () => {
  it("3.1: given a model name, registers it with the first configured inference provider", () => {
    const config = doc(
      run(
        aSpec({
          providers: { inference: [aVllm({ id: "a" }), aVllm({ id: "b" })] },
          resources: { models: ["llama3.2-8b"] },
        }),
      ),
    );
    expect(models(config)).toContainEqual({
      model_id: "llama3.2-8b",
      provider_id: "a",
      provider_model_id: "llama3.2-8b",
      model_type: "llm",
      metadata: {},
    });
  });

  it("3.2: given a model with an explicit provider and metadata, registers it there", () => {
    const config = doc(
      run(
        aSpec({
          providers: { inference: [aVllm({ id: "a" }), aVllm({ id: "b" })] },
          resources: { models: [{ name: "big", provider: "b", contextLength: 128000, quantization: "fp8" }] },
        }),
      ),
    );
    expect(models(config)).toContainEqual(
      expect.objectContaining({
        model_id: "big",
        provider_id: "b",
        metadata: { context_length: 128000, quantization: "fp8" },
      }),
    );
  });

  it("3.3: given tools [websearch, rag], relies on the base's tool_runtime providers and writes no tool_groups", () => {
    const result = ok(run(aSpec({ resources: { tools: ["websearch", "rag"] } })));
    expect(result.configYaml).not.toContain("tool_groups");
    expect((doc(result).providers.tool_runtime ?? []).map((p) => p.provider_type)).toEqual(
      expect.arrayContaining(["remote::tavily-search", "inline::file-search"]),
    );
  });
});

describe("User story 4: state storage", () => {
  it("4.1: given sql postgres, the sql_default backend takes discrete parts from env", () => {
    const result = ok(
      run(
        aSpec({ storage: { sql: { type: "postgres", connectionString: { secretKeyRef: aSecretRef("pg", "url") } } } }),
      ),
    );
    expect((doc(result).storage?.backends as Record<string, unknown>).sql_default).toEqual({
      type: "sql_postgres",
      host: "${env.LLSD_STORAGE_SQL_HOST}",
      port: "${env.LLSD_STORAGE_SQL_PORT}",
      db: "${env.LLSD_STORAGE_SQL_DB}",
      user: "${env.LLSD_STORAGE_SQL_USER}",
      password: "${env.LLSD_STORAGE_SQL_PASSWORD}",
    });
    expect(result.postgres).toEqual(
      expect.objectContaining({
        secretName: "demo-postgres",
        sources: [{ secret: expect.objectContaining({ name: "pg", key: "url" }), prefix: "" }],
      }),
    );
    expect(result.secretEnv.map((e) => `${e.name}<-${e.secretName}/${e.secretKey}`)).toEqual([
      "LLSD_STORAGE_SQL_HOST<-demo-postgres/host",
      "LLSD_STORAGE_SQL_PORT<-demo-postgres/port",
      "LLSD_STORAGE_SQL_DB<-demo-postgres/db",
      "LLSD_STORAGE_SQL_USER<-demo-postgres/user",
      "LLSD_STORAGE_SQL_PASSWORD<-demo-postgres/password",
    ]);
  });

  it("4.2: given kv redis, the kv_default backend is kv_redis with host and port, and stores still point at it", () => {
    const config = doc(run(aSpec({ storage: { kv: { type: "redis", endpoint: "redis://redis.db.svc:6380" } } })));
    const storage = config.storage as {
      backends: Record<string, unknown>;
      stores: Record<string, { backend: string }>;
    };
    expect(storage.backends.kv_default).toEqual({ type: "kv_redis", host: "redis.db.svc", port: 6380 });
    expect(storage.stores.metadata?.backend).toBe("kv_default");
  });

  it("4.3: given no storage, keeps the distribution's storage exactly", () => {
    const config = doc(run(aSpec({ providers: { inference: aVllm() } })));
    expect(config.storage).toEqual(baseDoc().storage);
  });
});

describe("User story 6: full ConfigMap override", () => {
  it("6.1: given overrideConfig, mounts that ConfigMap and generates nothing", () => {
    const result = render(aSpec({ overrideConfig: { configMapName: "my-config" } }));
    expect(result).toEqual(expect.objectContaining({ ok: true, source: "override" }));
  });

  it("6.2: given overrideConfig and providers, fails with a mutual exclusivity error", () => {
    const result = render(aSpec({ overrideConfig: { configMapName: "my-config" }, providers: { inference: aVllm() } }));
    expect(result).toEqual(
      expect.objectContaining({
        ok: false,
        errors: [
          expect.objectContaining({ path: "spec.providers", message: expect.stringMatching(/mutually exclusive/) }),
        ],
      }),
    );
  });

  it("uses the bundled base of the distribution's release", () => {
    expect(base("starter", "0.8")).toContain("interactions");
  });
});

describe("User story 6: the override ConfigMap is checked before it is used", () => {
  const good = "version: 2\ndistro_name: mine\nproviders:\n  inference: []\n";
  it.each([
    ["6.1 a ConfigMap with config.yaml", { "my-config": { "config.yaml": good } }, undefined],
    [
      "6.3 no such ConfigMap",
      {},
      /^ConfigMap "my-config" not found in the CR's namespace; create it with a key "config.yaml"/,
    ],
    [
      "a ConfigMap without config.yaml",
      { "my-config": { "run.yaml": good } },
      /has no key "config.yaml" \(it has "run.yaml"\)/,
    ],
    [
      "a config.yaml of another version",
      { "my-config": { "config.yaml": "version: 3\n" } },
      /Unsupported config.yaml version 3. Supported versions: 2/,
    ],
    [
      "a config.yaml that is not YAML",
      { "my-config": { "config.yaml": "a: [\n" } },
      /is not a YAML mapping \(invalid YAML at line/,
    ],
  ])("given %s, %s", (_title, configMaps, message) => {
    const result = render(aSpec({ overrideConfig: { configMapName: "my-config" } }), { configMaps });
    if (message === undefined)
      expect(result).toEqual(expect.objectContaining({ ok: true, source: "override", configYaml: good }));
    else
      expect(result).toEqual(
        expect.objectContaining({
          ok: false,
          errors: [{ path: "spec.overrideConfig.configMapName", message: expect.stringMatching(message) }],
        }),
      );
  });
});

import { validate } from "../../../lib/api/validate";
import { aSpec, aVllm } from "../../builders";

const ref = { name: "creds", key: "token" };

function errorsOf(overrides: object, ctx = {}) {
  return validate(aSpec(overrides), ctx).errors;
}

describe("validate()", () => {
  it("given a complete example (every section, list and Secret reference form), accepts it", () => {
    const result = validate(
      aSpec({
        providers: {
          inference: [
            {
              id: "vllm-primary",
              provider: "vllm",
              endpoint: "http://vllm:8000",
              secretRefs: { api_key: ref },
              settings: { max_tokens: 8192 },
            },
          ],
          safety: [{ provider: "llama-guard" }],
          vectorIo: [
            { provider: "pgvector", secretRefs: { host: { secretKeyRef: { name: "pg-creds", key: "host" } } } },
          ],
        },
        resources: {
          models: ["llama3.2-8b", { name: "llama3.2-70b", provider: "vllm-primary", contextLength: 128000 }],
          tools: ["websearch", "rag"],
          shields: ["llama-guard"],
        },
        storage: {
          kv: { type: "sqlite" },
          sql: { type: "postgres", connectionString: { secretKeyRef: { name: "pg-creds", key: "url" } } },
        },
        disabled: ["postTraining", "eval"],
      }),
    );
    expect(result.errors).toEqual([]);
  });

  it.each([
    [
      "several providers without ids (US2.2)",
      { providers: { inference: [aVllm(), aVllm({ provider: "ollama" })] } },
      "spec.providers.inference[0].id",
      /lists 2 providers, so each needs a unique id/,
    ],
    [
      "a duplicate id across APIs (US2.3)",
      { providers: { inference: aVllm({ id: "shared" }), safety: { id: "shared", provider: "llama-guard" } } },
      "spec.providers.safety.id",
      /duplicate provider id "shared" \(used at spec.providers.inference, spec.providers.safety\).*Duplicate ids: "shared"/,
    ],
    [
      "a model on an unknown provider",
      { providers: { inference: aVllm() }, resources: { models: [{ name: "m", provider: "nope" }] } },
      "spec.resources.models[0].provider",
      /names provider "nope", which is not an inference provider. Available: "vllm", "ollama"/,
    ],
    [
      "overrideConfig with providers (US6.2)",
      { overrideConfig: { configMapName: "c" }, providers: { inference: aVllm() } },
      "spec.providers",
      /overrideConfig and providers are mutually exclusive/,
    ],
    [
      "overrideConfig with resources",
      { overrideConfig: { configMapName: "c" }, resources: { models: ["m"] } },
      "spec.resources",
      /mutually exclusive/,
    ],
    [
      "overrideConfig with storage",
      { overrideConfig: { configMapName: "c" }, storage: { kv: { type: "sqlite" } } },
      "spec.storage",
      /mutually exclusive/,
    ],
    [
      "overrideConfig with disabled",
      { overrideConfig: { configMapName: "c" }, disabled: ["eval"] },
      "spec.disabled",
      /mutually exclusive/,
    ],
    [
      "overrideConfig with baseConfig",
      { overrideConfig: { configMapName: "c" }, baseConfig: { configMapName: "b" } },
      "spec.baseConfig",
      /overrideConfig and baseConfig are mutually exclusive/,
    ],
    [
      "a CA ConfigMap list entry without a name",
      { networking: { tls: { caBundle: [{ configMapName: "a" }, { configMapKeys: ["x.crt"] }] } } },
      "spec.networking.tls.caBundle[1]",
      /required field "configMapName" is missing/,
    ],
    [
      "distribution with name and image",
      { distribution: { name: "starter", image: "x:1" } },
      "spec.distribution",
      /exactly one of name/,
    ],
    ["distribution with neither", { distribution: {} }, "spec.distribution", /exactly one of name/],
    [
      "an unknown distribution name",
      { distribution: { name: "rh-dev" } },
      "spec.distribution.name",
      /^Unknown distribution "rh-dev". Available distributions: "postgres-demo", "starter"$/,
    ],
    [
      "an embedding model without a dimension",
      { resources: { models: [{ name: "e", modelType: "embedding" }] } },
      "spec.resources.models[0].embeddingDimension",
      /required for embedding model "e"/,
    ],
    [
      "two secrets with one env var name",
      { providers: { inference: [aVllm({ id: "vllm-a", apiKey: ref }), aVllm({ id: "vllm_a", apiKey: ref })] } },
      "spec.providers.inference[1].apiKey",
      /LLSD_VLLM_A_API_KEY is also produced by spec.providers.inference\[0\].apiKey/,
    ],
    [
      "apiKey and secretRefs.api_key on one provider",
      { providers: { inference: aVllm({ apiKey: ref, secretRefs: { api_key: ref } }) } },
      "spec.providers.inference.secretRefs.api_key",
      /LLSD_VLLM_API_KEY is also produced/,
    ],
    [
      "an endpoint that is no URL",
      { providers: { inference: aVllm({ endpoint: "vllm:8000" }) } },
      "spec.providers.inference.endpoint",
      /not an http\(s\) URL/,
    ],
    [
      "redis without endpoint",
      { storage: { kv: { type: "redis" } } },
      "spec.storage.kv.endpoint",
      /required for type redis/,
    ],
    [
      "postgres without a DSN",
      { storage: { sql: { type: "postgres" } } },
      "spec.storage.sql.connectionString",
      /required for type postgres/,
    ],
    [
      "an endpoint on sqlite",
      { storage: { kv: { endpoint: "redis:6379" } } },
      "spec.storage.kv",
      /only used with type: redis/,
    ],
    [
      "an unknown tool",
      { resources: { tools: ["calculator"] } },
      "spec.resources.tools[0]",
      /unknown tool "calculator". Known tools: "websearch", "rag"/,
    ],
    [
      "autoscaling max below min",
      { workload: { autoscaling: { minReplicas: 3, maxReplicas: 2 } } },
      "spec.workload.autoscaling.maxReplicas",
      /at least minReplicas \(3\)/,
    ],
    [
      "replicas above autoscaling max",
      { workload: { replicas: 6, autoscaling: { maxReplicas: 5 } } },
      "spec.workload.replicas",
      /must not exceed autoscaling.maxReplicas \(5\)/,
    ],
    [
      "a PDB with both fields",
      { workload: { podDisruptionBudget: { minAvailable: 1, maxUnavailable: 1 } } },
      "spec.workload.podDisruptionBudget",
      /one of minAvailable or maxUnavailable, not both/,
    ],
    [
      "the Go README's allowedFrom label team=frontend",
      { networking: { allowedFrom: { labels: ["team", "team=frontend"] } } },
      "spec.networking.allowedFrom.labels[1]",
      /"team=frontend" is not a namespace label key .*write "team" to admit every namespace that has a team label/,
    ],
    [
      "an allowedFrom label key with a bad prefix",
      { networking: { allowedFrom: { labels: ["Example.com/team"] } } },
      "spec.networking.allowedFrom.labels[0]",
      /Write a label key such as/,
    ],
    [
      "an allowedFrom namespace that is no name",
      { networking: { allowedFrom: { namespaces: ["*", "team a"] } } },
      "spec.networking.allowedFrom.namespaces[1]",
      /"team a" is not a namespace name/,
    ],
    [
      "TLS enabled without a Secret",
      { networking: { tls: { enabled: true } } },
      "spec.networking.tls.secretName",
      /required when tls.enabled/,
    ],
    [
      "two telemetry providers",
      {
        providers: {
          telemetry: [
            { id: "a", provider: "otel", endpoint: "http://a:4318" },
            { id: "b", provider: "otel", endpoint: "http://b:4318" },
          ],
        },
      },
      "spec.providers.telemetry[1]",
      /only one telemetry provider/,
    ],
    [
      "two external providers with one id",
      {
        externalProviders: {
          inference: [
            { providerId: "x", image: "a:1" },
            { providerId: "x", image: "b:1" },
          ],
        },
      },
      "spec.externalProviders.inference[1].providerId",
      /used by both a:1 .* and b:1/,
    ],
  ])("given %s, reports it at its field path", (_title, overrides, path, message) => {
    const ctx = { baseInferenceIds: ["vllm", "ollama"] };
    expect(errorsOf(overrides, ctx)).toEqual(
      expect.arrayContaining([expect.objectContaining({ path, message: expect.stringMatching(message) })]),
    );
  });

  it("given several problems, reports every one", () => {
    const errors = errorsOf({ distribution: { name: "nope" }, providers: { inference: [aVllm(), aVllm()] } });
    expect(errors.map((e) => e.path)).toEqual([
      "spec.distribution.name",
      "spec.providers.inference[0].id",
      "spec.providers.inference[1].id",
      "spec.providers.inference[1].id",
    ]);
  });

  it("given disabled inference with an inference provider, warns and does not fail (disabled wins)", () => {
    const result = validate(aSpec({ providers: { inference: aVllm() }, disabled: ["inference"] }));
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([
      {
        path: "spec.disabled[0]",
        message: expect.stringMatching(
          /inference is disabled, so its providers \(spec.providers.inference\) are ignored/,
        ),
      },
    ]);
  });

  it("given a model on a base provider and no base context, leaves the check to generation", () => {
    expect(errorsOf({ resources: { models: [{ name: "m", provider: "ollama" }] } })).toEqual([]);
  });

  it("given expose: {}, treats it as enabled", () => {
    expect(validate(aSpec({ networking: { expose: {} } })).spec?.networking.expose.enabled).toBe(true);
  });

  it("given a schema error, reports it and does not normalize", () => {
    const portAsText: object = { networking: { port: "80" } };
    const result = validate(aSpec(portAsText));
    expect(result.spec).toBeUndefined();
    expect(result.errors).toEqual([{ path: "spec.networking.port", message: "must be integer" }]);
  });
});

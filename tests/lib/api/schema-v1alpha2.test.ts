import { v1alpha2SpecSchemaErrors, toFieldPath } from "../../../lib/api/schema";
import { aSpec, aVllm } from "../../builders";

const ref = { name: "creds", key: "token" };

describe("v1alpha2SpecSchemaErrors()", () => {
  it.each([
    ["a provider as one object", { providers: { inference: aVllm() } }],
    ["a provider list", { providers: { inference: [aVllm({ id: "a" }), aVllm({ id: "b" })] } }],
    ["a flat secret ref", { providers: { inference: aVllm({ apiKey: ref }) } }],
    ["a nested secretKeyRef", { providers: { inference: aVllm({ apiKey: { secretKeyRef: ref } }) } }],
    [
      "secretRefs in both forms",
      { providers: { vectorIo: { provider: "pgvector", secretRefs: { host: ref, password: { secretKeyRef: ref } } } } },
    ],
    ["an extra secret-ref field", { providers: { vectorIo: { provider: "pgvector", host: { secretKeyRef: ref } } } }],
    [
      "free-form settings",
      { providers: { inference: aVllm({ settings: { max_tokens: 8192, network: { tls: { verify: false } } } }) } },
    ],
    [
      "models as strings and objects",
      { resources: { models: ["m1", { name: "m2", provider: "vllm", contextLength: 128000 }] } },
    ],
    ["expose: true", { networking: { expose: true } }],
    ["expose: {}", { networking: { expose: {} } }],
    ["expose with hostname", { networking: { expose: { enabled: true, hostname: "llama.example.com" } } }],
    ["disabled in camelCase and snake_case", { disabled: ["vectorIo", "tool_runtime", "postTraining"] }],
    [
      "redis and postgres storage",
      {
        storage: {
          kv: { type: "redis", endpoint: "redis:6379" },
          sql: { type: "postgres", connectionString: { secretKeyRef: ref } },
        },
      },
    ],
    [
      "a full workload",
      {
        workload: {
          replicas: 2,
          workers: 2,
          resources: { requests: { cpu: "500m", memory: "1Gi" } },
          autoscaling: { minReplicas: 1, maxReplicas: 5 },
          storage: { size: "10Gi" },
          podDisruptionBudget: { maxUnavailable: 1 },
        },
      },
    ],
    ["external providers", { externalProviders: { inference: [{ providerId: "x", image: "r.example/x:v1" }] } }],
    ["an image distribution", { distribution: { image: "quay.io/acme/llama:0.7.1" } }],
    ["overrideConfig", { overrideConfig: { configMapName: "mine" } }],
  ])("given %s, accepts the spec", (_title, overrides) => {
    expect(v1alpha2SpecSchemaErrors(aSpec(overrides as object))).toEqual([]);
  });

  it.each([
    ["an unknown top-level field", { colour: "blue" }, "spec", /unknown field "colour"/],
    [
      "a provider without provider",
      { providers: { inference: { endpoint: "http://x" } } },
      "spec.providers.inference",
      /required field "provider"/,
    ],
    [
      "a mistyped id in a list",
      { providers: { inference: [aVllm({ id: 7 })] } },
      "spec.providers.inference[0].id",
      /must be string/,
    ],
    [
      "a half secret ref",
      { providers: { inference: aVllm({ apiKey: { name: "creds" } }) } },
      "spec.providers.inference.apiKey",
      /required field "key"/,
    ],
    ["an empty provider list", { providers: { inference: [] } }, "spec.providers.inference", /at least 1 item/],
    ["an unknown provider API", { providers: { agents: aVllm() } }, "spec.providers", /unknown field "agents"/],
    ["an unknown disabled name", { disabled: ["inferance"] }, "spec.disabled[0]", /must be one of: inference/],
    [
      "a model object without name",
      { resources: { models: [{ provider: "vllm" }] } },
      "spec.resources.models[0]",
      /required field "name"/,
    ],
    [
      "a bad model type",
      { resources: { models: [{ name: "m", modelType: "chat" }] } },
      "spec.resources.models[0].modelType",
      /llm, embedding, rerank/,
    ],
    ["a port out of range", { networking: { port: 70000 } }, "spec.networking.port", /must be <= 65535/],
    [
      "expose as a string",
      { networking: { expose: "yes" } },
      "spec.networking.expose",
      /wrong shape for this field \(expected: Expose outside the cluster/,
    ],
    [
      "an unknown provider field",
      { providers: { inference: aVllm({ url: "http://x" }) } },
      "spec.providers.inference.url",
      /unknown field "url": provider fields are id, provider, endpoint, apiKey, secretRefs and settings/,
    ],
    ["a bad kv type", { storage: { kv: { type: "memcached" } } }, "spec.storage.kv.type", /sqlite, redis/],
    ["a bad quantity", { workload: { storage: { size: "ten gigs" } } }, "spec.workload.storage.size", /pattern/],
    [
      "autoscaling without max",
      { workload: { autoscaling: { minReplicas: 1 } } },
      "spec.workload.autoscaling",
      /required field "maxReplicas"/,
    ],
    ["no distribution", { distribution: undefined }, "spec", /required field "distribution"/],
  ])("given %s, reports %s", (_title, overrides, path, message) => {
    const errors = v1alpha2SpecSchemaErrors(aSpec(overrides as object));
    expect(errors).toEqual(
      expect.arrayContaining([expect.objectContaining({ path, message: expect.stringMatching(message) })]),
    );
  });

  it("reports every error at once, each with its own path", () => {
    const twoErrors: object = { networking: { port: 0 }, disabled: ["nope"] };
    const errors = v1alpha2SpecSchemaErrors(aSpec(twoErrors));
    expect(errors.map((e) => e.path).sort()).toEqual(["spec.disabled[0]", "spec.networking.port"]);
  });
});

describe("toFieldPath()", () => {
  it.each([
    ["", "spec", "spec"],
    ["/providers/inference/1/id", "spec", "spec.providers.inference[1].id"],
    ["/metadata/annotations/a~1b", "", "metadata.annotations.a/b"],
  ])("given %j under %j, returns %j", (pointer, prefix, expected) => {
    expect(toFieldPath(pointer, prefix)).toBe(expected);
  });
});

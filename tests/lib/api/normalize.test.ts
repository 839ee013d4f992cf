import { normalize, normalizeExpose } from "../../../lib/api/normalize";
import { aSpec, aVllm } from "../../builders";

describe("normalize()", () => {
  it("given one provider object without id, uses provider as its id", () => {
    const spec = normalize(aSpec({ providers: { inference: aVllm() } }));
    expect(spec.providers).toEqual([
      expect.objectContaining({ api: "inference", id: "vllm", explicitId: false, path: "spec.providers.inference" }),
    ]);
  });

  it("given a list, keeps list order and indexes each path", () => {
    const spec = normalize(aSpec({ providers: { inference: [aVllm({ id: "b" }), aVllm({ id: "a" })] } }));
    expect(spec.providers.map((p) => [p.id, p.path])).toEqual([
      ["b", "spec.providers.inference[0]"],
      ["a", "spec.providers.inference[1]"],
    ]);
  });

  it("given both secret-ref forms and extra secret fields, yields one flat list in a stable order", () => {
    const spec = normalize(
      aSpec({
        providers: {
          vectorIo: {
            provider: "pgvector",
            password: { name: "pg", key: "pw" },
            secretRefs: { user: { secretKeyRef: { name: "pg", key: "user" } }, host: { name: "pg", key: "host" } },
            apiKey: { name: "pg", key: "key" },
          },
        },
      }),
    );
    expect(spec.providers[0]?.secrets.map((s) => [s.field, s.ref.key, s.ref.path])).toEqual([
      ["apiKey", "key", "spec.providers.vectorIo.apiKey"],
      ["host", "host", "spec.providers.vectorIo.secretRefs.host"],
      ["user", "user", "spec.providers.vectorIo.secretRefs.user"],
      ["password", "pw", "spec.providers.vectorIo.password"],
    ]);
  });

  it("given models as strings and objects, defaults modelType to llm", () => {
    const spec = normalize(
      aSpec({ resources: { models: ["a", { name: "b", modelType: "embedding", embeddingDimension: 768 }] } }),
    );
    expect(spec.resources.models).toEqual([
      { name: "a", modelType: "llm", path: "spec.resources.models[0]" },
      { name: "b", modelType: "embedding", embeddingDimension: 768, path: "spec.resources.models[1]" },
    ]);
  });

  it.each([
    ["vectorIo", "vector_io"],
    ["toolRuntime", "tool_runtime"],
    ["postTraining", "post_training"],
    ["vector_io", "vector_io"],
    ["fileProcessors", "file_processors"],
    ["datasetIo", "datasetio"],
    ["inference", "inference"],
  ] as const)("given disabled %j, means the server API %j", (written, api) => {
    expect(normalize(aSpec({ disabled: [written] })).disabled).toEqual([{ api, written, path: "spec.disabled[0]" }]);
  });

  it.each([
    [undefined, { enabled: false }],
    [false, { enabled: false }],
    [true, { enabled: true }],
    [{}, { enabled: true }],
    [{ hostname: "h.example.com" }, { enabled: true, hostname: "h.example.com" }],
    [
      { enabled: false, hostname: "h" },
      { enabled: false, hostname: "h" },
    ],
  ])("given expose %j, returns %j", (input, expected) => {
    expect(normalizeExpose(input)).toEqual(expected);
  });

  it("given no networking, defaults the port to 8321 and the CA bundle keys to ca-bundle.crt", () => {
    expect(normalize(aSpec()).networking.port).toBe(8321);
    const tls = normalize(aSpec({ networking: { tls: { caBundle: { configMapName: "ca" } } } })).networking.tls;
    expect(tls).toEqual({
      enabled: false,
      caBundle: [{ configMapName: "ca", configMapKeys: ["ca-bundle.crt"], path: "spec.networking.tls.caBundle" }],
    });
  });

  it("given a list of CA ConfigMaps, keeps their order, defaults each one's keys and gives each its path", () => {
    const caBundle = [{ configMapName: "corp", configMapKeys: ["a.crt", "b.crt"] }, { configMapName: "odh" }];
    const tls = normalize(aSpec({ networking: { tls: { caBundle } } })).networking.tls;
    expect(tls.caBundle).toEqual([
      { configMapName: "corp", configMapKeys: ["a.crt", "b.crt"], path: "spec.networking.tls.caBundle[0]" },
      { configMapName: "odh", configMapKeys: ["ca-bundle.crt"], path: "spec.networking.tls.caBundle[1]" },
    ]);
  });

  it.each([
    [{ configMapName: "cfg" }, { configMapName: "cfg", key: "config.yaml" }],
    [
      { configMapName: "cfg", key: "run.yaml" },
      { configMapName: "cfg", key: "run.yaml" },
    ],
  ])("given overrideConfig or baseConfig %j, returns %j", (input, expected) => {
    expect(normalize(aSpec({ overrideConfig: input })).overrideConfig).toEqual(expected);
    expect(normalize(aSpec({ baseConfig: input })).baseConfig).toEqual(expected);
  });

  it("does not change its input", () => {
    const input = aSpec({ providers: { inference: aVllm() }, networking: { expose: {} } });
    const before = structuredClone(input);
    normalize(input);
    expect(input).toEqual(before);
  });
});

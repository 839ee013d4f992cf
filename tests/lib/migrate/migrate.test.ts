import { migrateSpec } from "../../../lib/migrate/migrate";
import { validate } from "../../../lib/api/validate";
import type { LlsdSpecV1alpha2 } from "../../../lib/api/v1alpha2";

function withEnv(env: object[], extra: object = {}): LlsdSpecV1alpha2 {
  return {
    distribution: { name: "starter" },
    workload: { replicas: 1, overrides: { env: env as never, serviceAccountName: "sa" } },
    ...extra,
  };
}

describe("migrateSpec()", () => {
  it("given the ollama pattern, writes an ollama provider and its model, and drops those env vars", () => {
    const { spec, report } = migrateSpec(
      withEnv([
        { name: "OLLAMA_URL", value: "http://ollama:11434/v1" },
        { name: "OLLAMA_INFERENCE_MODEL", value: "llama3.2:1b" },
        { name: "HF_TOKEN", value: "x" },
      ]),
    );
    expect(spec.providers).toEqual({ inference: { provider: "ollama", endpoint: "http://ollama:11434/v1" } });
    expect(spec.resources).toEqual({ models: ["llama3.2:1b"] });
    expect(spec.workload?.overrides).toEqual({ serviceAccountName: "sa", env: [{ name: "HF_TOKEN", value: "x" }] });
    expect(report.changed).toEqual([
      "env OLLAMA_URL → spec.providers.inference (ollama)",
      "env OLLAMA_INFERENCE_MODEL → spec.resources.models (llama3.2:1b)",
    ]);
    expect(report.kept).toEqual(["env HF_TOKEN: not part of a recognised pattern; left as it was"]);
    expect(validate(spec).errors).toEqual([]);
  });

  it("given the vLLM pattern with a key from a Secret, writes apiKey as a secret reference", () => {
    const { spec } = migrateSpec(
      withEnv([
        { name: "VLLM_URL", value: "http://vllm:8000/v1" },
        { name: "INFERENCE_MODEL", value: "meta-llama/Llama-3.1-8B-Instruct" },
        { name: "VLLM_API_KEY", valueFrom: { secretKeyRef: { name: "vllm-creds", key: "token" } } },
      ]),
    );
    expect(spec.providers?.inference).toEqual({
      provider: "vllm",
      endpoint: "http://vllm:8000/v1",
      apiKey: { name: "vllm-creds", key: "token" },
    });
    expect(spec.workload?.overrides).toEqual({ serviceAccountName: "sa" });
    expect(validate(spec).errors).toEqual([]);
  });

  it("given both patterns, gives each provider an id and pins each model to its provider", () => {
    const { spec } = migrateSpec(
      withEnv([
        { name: "VLLM_URL", value: "http://vllm:8000/v1" },
        { name: "INFERENCE_MODEL", value: "a" },
        { name: "OLLAMA_URL", value: "http://ollama:11434/v1" },
        { name: "OLLAMA_INFERENCE_MODEL", value: "b" },
      ]),
    );
    expect(spec.providers?.inference).toEqual([
      { id: "vllm", provider: "vllm", endpoint: "http://vllm:8000/v1" },
      { id: "ollama", provider: "ollama", endpoint: "http://ollama:11434/v1" },
    ]);
    expect(spec.resources?.models).toEqual([
      { name: "a", provider: "vllm" },
      { name: "b", provider: "ollama" },
    ]);
    expect(validate(spec).errors).toEqual([]);
  });

  it.each([
    [
      "a literal API key",
      [
        { name: "VLLM_URL", value: "http://v:8000/v1" },
        { name: "VLLM_API_KEY", value: "literal" },
      ],
      /VLLM_API_KEY: a literal value; put it in a Secret/,
    ],
    [
      "a URL from a ConfigMap",
      [{ name: "VLLM_URL", valueFrom: { configMapKeyRef: { name: "c", key: "u" } } }],
      /VLLM_URL: not a plain value/,
    ],
    ["no pattern", [{ name: "FOO", value: "1" }], /no migration-guide pattern found; 1 env var\(s\) left/],
  ])("given %s, says what it left as it was", (_title, env, kept) => {
    expect(migrateSpec(withEnv(env)).report.kept).toContainEqual(expect.stringMatching(kept));
  });

  it("given overrideConfig (from userConfig), changes nothing and says why", () => {
    const input = withEnv([{ name: "VLLM_URL", value: "http://v:8000/v1" }], {
      overrideConfig: { configMapName: "mine" },
    });
    const { spec, report } = migrateSpec(input);
    expect(spec).toBe(input);
    expect(report.changed).toEqual([]);
    expect(report.kept[0]).toMatch(/^overrideConfig mine: a complete config.yaml stays as it is/);
  });
});

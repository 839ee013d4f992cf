/**
 * "Did you mean" wherever a name is looked up: spec fields (at any depth), values of an enum,
 * distribution names, provider types, a model's provider id, tools, CLI commands and each
 * command's own flags. Each row is the whole line the user reads, so a suggestion cannot point
 * at the wrong name; rows without a near name say what is allowed instead, never a guess.
 * (/validate and /sync say the same lines: tests/check/one-voice.test.ts.)
 */
import { stringify } from "yaml";
import { llsd } from "../cli-helpers";

const cr = (spec: object): string =>
  stringify({ apiVersion: "llamastack.io/v1alpha2", kind: "LlamaStackDistribution", metadata: { name: "demo" }, spec });
const starter = { distribution: { name: "starter" } };
const vllm = { provider: "vllm", endpoint: "http://vllm:8000" };

/** `llsd validate` of one CR: its problem lines. */
function problems(spec: object): string[] {
  const run = llsd(["validate", "cr.yaml"], { "cr.yaml": cr(spec) });
  expect(run.code).toBe(1);
  return run.stdout
    .split("\n")
    .filter((l) => l.startsWith("  "))
    .map((l) => l.slice(2));
}

describe("a misspelled name in a spec", () => {
  it.each([
    ["a top-level field", { ...starter, resource: {} }, 'spec: unknown field "resource"; did you mean "resources"?'],
    [
      "a nested field",
      { ...starter, resources: { modles: ["m"] } },
      'spec.resources: unknown field "modles"; did you mean "models"?',
    ],
    [
      "a provider field",
      { ...starter, providers: { inference: { provider: "vllm", endpont: "http://x" } } },
      'spec.providers.inference.endpont: unknown field "endpont": did you mean "endpoint"?',
    ],
    [
      "a field written one level too high",
      { ...starter, replicas: 2 },
      'spec: unknown field "replicas"; did you mean "workload.replicas"?',
    ],
    [
      "a field nothing is near",
      { ...starter, bogus: 1 },
      'spec: unknown field "bogus"; remove it or check its spelling',
    ],
    [
      "a distribution",
      { distribution: { name: "startr" } },
      'spec.distribution.name: Unknown distribution "startr": did you mean "starter"? Available distributions: "postgres-demo", "starter"',
    ],
    [
      "an enum value",
      { ...starter, storage: { kv: { type: "sqlit" } } },
      'spec.storage.kv.type: must be one of: sqlite, redis, postgres; did you mean "sqlite"?',
    ],
    [
      "a tool",
      { ...starter, resources: { tools: ["websearh"] } },
      'spec.resources.tools[0]: unknown tool "websearh": did you mean "websearch"? Known tools: "websearch", "rag", "file_search", "wolfram_alpha"',
    ],
    [
      "a provider type",
      { ...starter, providers: { inference: { provider: "olama", endpoint: "http://x:11434" } } },
      'spec.providers.inference.provider: unknown inference provider "olama" on 1.3.x servers: did you mean "ollama"? (for a provider of your own, write its type in full, e.g. remote::olama, or list its image under spec.externalProviders)',
    ],
    [
      "a provider name nothing is near",
      { ...starter, providers: { inference: { provider: "vllm-openai", endpoint: "http://x:8000" } } },
      'spec.providers.inference.provider: unknown inference provider "vllm-openai" on 1.3.x servers; the closest are "openai", "vllm" and "llama-openai-compat" (for a provider of your own, write its type in full, e.g. remote::vllm-openai, or list its image under spec.externalProviders)',
    ],
  ])("%s", (_what, spec, line) => {
    expect(problems(spec)).toEqual([line]);
  });

  it("a model's provider id", () => {
    const [line] = problems({
      ...starter,
      providers: { inference: vllm },
      resources: { models: [{ name: "m", provider: "vlm" }] },
    });
    expect(line).toMatch(
      /^spec.resources.models\[0\].provider: model "m" names provider "vlm", which is not an inference provider: did you mean "vllm"\? Available: "vllm", /,
    );
  });
});

describe("a misspelled command or flag", () => {
  it.each([
    [["rendr", "x.yaml"], 'unknown command "rendr": did you mean "render"?', "llsd --help"],
    [["help", "rendr"], 'unknown command "rendr": did you mean "render"?', "llsd help --help"],
    [
      ["frobnicate"],
      'unknown command "frobnicate"; the commands: render, validate, convert, migrate, request, distributions, releases, help',
      "llsd --help",
    ],
    [
      ["render", "--relase", "0.8", "x.yaml"],
      'unknown option "--relase": did you mean "--release"?',
      "llsd render --help",
    ],
    [["render", "--rel'ase", "x.yaml"], 'unknown option "--rel\'ase": did you mean "--release"?', "llsd render --help"],
    [
      ["render", "--base", "b.yaml", "x.yaml"],
      'unknown option "--base"; llsd render takes --base-config, --release',
      "llsd render --help",
    ],
    [
      ["validate", "--strict", "x.yaml"],
      'unknown option "--strict"; llsd validate takes no options',
      "llsd validate --help",
    ],
    [
      ["request", "snyc", "x.yaml"],
      'the hook must be one of sync, customize, got "snyc": did you mean "sync"?',
      "llsd request --help",
    ],
    [["convert", "--too", "v1alpha2", "x.yaml"], 'unknown option "--too": did you mean "--to"?', "llsd convert --help"],
    [
      ["render", "--release", "0.9", "x.yaml"],
      '--release must be one of 0.7, 0.8, 1.2, 1.3, got "0.9"',
      "llsd render --help",
    ],
  ])("llsd %j names what it meant, or what is allowed", (args, message, help) => {
    const run = llsd(args);
    expect([run.code, run.stdout, run.stderr]).toEqual([2, "", `error: ${message}\nRun "${help}" for usage.\n`]);
  });
});

/**
 * A `provider:` name is checked against the types of the CR's server line: a name no type matches
 * is refused (generating `remote::<name>` would be a server that never starts), with the field,
 * the closest names and the line; a type written in full, or a provider an external provider
 * replaces, is used with a note.
 */
import { checkSpec } from "../../../lib/config/check";
import type { Release } from "../../../lib/distributions/table";
import { aSpec } from "../../builders";
import { doc, ok, provider, run } from "../../config-helpers";

const image = "registry.example.com/providers/mine:1.0.0";

/** The errors of `checkSpec` on one line, as `path: message`. */
function refusals(spec: object, release: Release): string[] {
  return checkSpec(spec, { release }).errors.map((e) => `${e.path}: ${e.message}`);
}

describe("a provider name no type of the line matches", () => {
  it.each<[string, object, Release, string]>([
    [
      "an inference name on 1.3",
      { inference: { provider: "vllm-openai", endpoint: "http://v:8000" } },
      "1.3",
      'spec.providers.inference.provider: unknown inference provider "vllm-openai" on 1.3.x servers; the closest are "openai", "vllm" and "llama-openai-compat"',
    ],
    [
      "a vector store in a list, on 0.8",
      { vectorIo: [{ id: "v", provider: "pinecone" }] },
      "0.8",
      'spec.providers.vectorIo[0].provider: unknown vector_io provider "pinecone" on 0.8.x servers; the closest are',
    ],
    [
      "a tool runtime one letter off, on 0.7",
      { toolRuntime: { provider: "tavily-serch" } },
      "0.7",
      'spec.providers.toolRuntime.provider: unknown tool_runtime provider "tavily-serch" on 0.7.x servers: did you mean "tavily-search"?',
    ],
    [
      "a name 1.3 added, on 0.7",
      { inference: { provider: "deepseek", endpoint: "http://d" } },
      "0.7",
      "spec.providers.inference.provider: remote::deepseek does not exist on 0.7.x servers (added in 1.3.x)",
    ],
  ])("given %s, is refused with the field, the closest names and the line", (_what, providers, release, start) => {
    const [line, ...rest] = refusals(aSpec({ providers }), release);
    expect(rest).toEqual([]);
    expect(line?.startsWith(start)).toBe(true);
  });

  it("says how to have a provider of one's own", () => {
    const [line] = refusals(aSpec({ providers: { inference: { provider: "acme" } } }), "1.3");
    expect(line).toMatch(
      /write its type in full, e.g. remote::acme, or list its image under spec.externalProviders\)$/,
    );
  });

  it.each<[string, object, Release]>([
    ["vllm", { inference: { provider: "vllm", endpoint: "http://v:8000" } }, "0.7"],
    ["sentence-transformers", { inference: { provider: "sentence-transformers" } }, "0.8"],
    ["the old name rag-runtime", { toolRuntime: { provider: "rag-runtime" } }, "1.3"],
    // Still in v1.2.2's registry, gone at v1.3.0.
    ["passthrough on 1.2", { inference: { provider: "passthrough", endpoint: "http://p:8000" } }, "1.2"],
  ])("given %s, accepts it", (_name, providers, release) => {
    expect(refusals(aSpec({ providers }), release)).toEqual([]);
  });
});

describe("a provider type of one's own", () => {
  it.each(["remote::acme", "inline::acme"])("written in full (%s), is accepted and generated with a note", (type) => {
    const spec = aSpec({ providers: { inference: { id: "mine", provider: type } } });
    expect(refusals(spec, "0.7")).toEqual([]);
    const result = ok(run(spec));
    expect(provider(doc(result), "inference", "mine")?.provider_type).toBe(type);
    expect(result.notes).toContain(
      `spec.providers.inference: ${type} is not a type that 0.7.x servers register for inference; used as written, so the image must provide it`,
    );
  });

  const replaced = aSpec({
    providers: {
      inference: [{ provider: "vllm" }, { id: "mine", provider: "my-engine" }].map((p, i) => ({ id: `p${i}`, ...p })),
    },
    externalProviders: { inference: [{ providerId: "mine", image }] },
  });

  it("from an external provider with the same id in the same API, is accepted with a note", () => {
    expect(refusals(replaced, "0.7")).toEqual([]);
    expect(ok(run(replaced)).notes).toContain(
      'spec.providers.inference[1]: provider "my-engine" is no inference type of 0.7.x servers; spec.externalProviders.inference[0] has the same id and replaces it with the type its image names',
    );
  });

  it("from an external provider of another API, or with another id, is still refused", () => {
    const elsewhere = aSpec({
      providers: { inference: { id: "mine", provider: "my-engine" } },
      externalProviders: { vectorIo: [{ providerId: "mine", image }], inference: [{ providerId: "other", image }] },
    });
    expect(refusals(elsewhere, "0.7")).toContainEqual(
      expect.stringMatching(/^spec.providers.inference.provider: unknown inference provider "my-engine"/),
    );
  });
});

/**
 * External providers in config.yaml: the image's metadata document is parsed and checked
 * (errors name the image, the field, the YAML line), ids follow the replace rules, and the
 * merge writes provider_type and module from the image, config from the CR.
 */
import { parse } from "yaml";
import { validate } from "../../../lib/api/validate";
import { generate } from "../../../lib/config/generate";
import { parseProviderPackage } from "../../../lib/config/provider-package";
import type { ConfigDoc } from "../../../lib/config/doc";
import { bundledBaseConfig } from "../../../lib/distributions/bundled";
import { aCanonicalSpec, aSpec, aVllm } from "../../builders";
import { providerSpecYaml, resolvedExternals } from "../../external-fixtures";
import { pyyamlLoadAll } from "../../pyyaml";

const IMAGE = "registry.example.com/p/x:1";
const BASE = bundledBaseConfig("starter", "0.7")!;

describe("parseProviderPackage()", () => {
  it("given a complete document, returns the package, type, API and absolute wheel paths", () => {
    const doc = providerSpecYaml("x", {
      wheelPath: "packages/x-1.whl",
      dependencyWheels: ["/lls-provider/deps/", "./deps/y-2.whl"],
      packageName: "x_pkg==1.0",
    });
    expect(parseProviderPackage(doc, IMAGE)).toEqual({
      ok: true,
      value: {
        packageName: "x_pkg==1.0",
        providerType: "remote::x",
        api: "inference",
        name: "x",
        version: "1.0.0",
        wheels: ["/lls-provider/packages/x-1.whl", "/lls-provider/deps/", "/lls-provider/deps/y-2.whl"],
      },
    });
  });

  it.each([
    [
      "invalid YAML",
      "apiVersion: llamastack.io/v1alpha1\nkind: ProviderPackage\nspec:\n  api: inference\n  api: safety\n",
      "invalid YAML at line 5: DUPLICATE_KEY",
    ],
    ["a list", "- a\n", "expected a ProviderPackage document"],
    [
      "another apiVersion",
      providerSpecYaml("x").replace("llamastack.io/v1alpha1", "v1"),
      'apiVersion must be llamastack.io/v1alpha1 (got "v1")',
    ],
    [
      "another kind",
      providerSpecYaml("x").replace("ProviderPackage", "Provider"),
      'kind must be ProviderPackage (got "Provider")',
    ],
    [
      "no packageName",
      providerSpecYaml("x").replace(/ {2}packageName: .*\n/, ""),
      "spec.packageName must be an importable Python module path",
    ],
    [
      "a packageName with a dash",
      providerSpecYaml("x", { packageName: "my-provider" }),
      'spec.packageName must be an importable Python module path such as my_provider or my_org.provider (got "my-provider")',
    ],
    [
      "a bad providerType",
      providerSpecYaml("x", { providerType: "vllm" }),
      'spec.providerType must match (remote|inline)::[a-z0-9-]+, e.g. remote::my-provider (got "vllm")',
    ],
    [
      "an unknown api",
      providerSpecYaml("x", { api: "vectorIo" }),
      'spec.api must be one of inference, safety, vector_io, tool_runtime, responses, files, batches, file_processors (got "vectorIo")',
    ],
    [
      "no wheelPath",
      providerSpecYaml("x").replace(/ {2}wheelPath: .*\n/, ""),
      "spec.wheelPath must be a path to a wheel under /lls-provider/",
    ],
    [
      "a wheelPath outside",
      providerSpecYaml("x", { wheelPath: "/usr/lib/x.whl" }),
      'spec.wheelPath "/usr/lib/x.whl" must stay under /lls-provider/',
    ],
    [
      "a dependency that climbs out",
      providerSpecYaml("x", { dependencyWheels: ["../etc/y.whl"] }),
      'spec.dependencyWheels[0] "../etc/y.whl" must stay under /lls-provider/',
    ],
  ])("given %s, fails naming the image and what to fix", (_title, text, message) => {
    const result = parseProviderPackage(text, IMAGE);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.message.startsWith(`Invalid /lls-provider/lls-provider-spec.yaml in image ${IMAGE}: `)).toBe(true);
      expect(result.message).toContain(message);
    }
  });
});

function generated(spec: ReturnType<typeof aSpec>, withMetadata = true) {
  const canonical = aCanonicalSpec(spec);
  const g = generate(canonical, BASE, "0.7", withMetadata ? { externalProviders: resolvedExternals(canonical) } : {});
  if (!g.ok) throw new Error(JSON.stringify(g.errors));
  return { g, doc: parse(g.configYaml) as ConfigDoc };
}

describe("generate() with external providers", () => {
  it("appends {provider_id, provider_type, module, config} after the inline providers, config as written", () => {
    const { g, doc } = generated(
      aSpec({
        providers: { inference: aVllm({ id: "vllm" }) },
        externalProviders: {
          inference: [{ providerId: "mine", image: IMAGE, config: { url: "http://m:1", nested: { a: [1, 2] } } }],
        },
      }),
    );
    const ids = doc.providers.inference!.map((p) => p.provider_id);
    expect(ids.indexOf("mine")).toBe(ids.length - 1);
    expect(ids).toContain("vllm");
    expect(doc.providers.inference!.at(-1)).toEqual({
      provider_id: "mine",
      provider_type: "remote::mine",
      module: "mine_provider",
      config: { url: "http://m:1", nested: { a: [1, 2] } },
    });
    expect(g.notes.join("\n")).not.toContain("externalProviders");
    expect(pyyamlLoadAll([g.configYaml])).toEqual([doc]);
  });

  it.each([
    [
      "an inline provider",
      { providers: { safety: { id: "guard", provider: "llama-guard" } } },
      "guard",
      "spec.providers.safety, inline::llama-guard",
    ],
    ["a base provider", {}, "llama-guard", "the base config, inline::llama-guard"],
  ])("replaces %s of the same id in place, with a note", (_title, extra, id, from) => {
    const { g, doc } = generated(
      aSpec({ ...extra, externalProviders: { safety: [{ providerId: id, image: IMAGE }] } }),
    );
    const safety = doc.providers.safety!;
    expect(safety.filter((p) => p.provider_id === id)).toEqual([
      { provider_id: id, provider_type: `remote::${id}`, module: `${id.replace(/-/g, "_")}_provider`, config: {} },
    ]);
    expect(g.notes).toContain(
      `spec.externalProviders.safety[0]: replaces provider "${id}" of providers.safety (from ${from}) with remote::${id} from image ${IMAGE}`,
    );
  });

  it("adds the API to `apis` when the base config does not list it", () => {
    const base = `version: 2\napis: [inference]\nproviders:\n  inference: []\n`;
    const canonical = aCanonicalSpec({ externalProviders: { toolRuntime: [{ providerId: "tool", image: IMAGE }] } });
    const g = generate(canonical, base, "0.7", { externalProviders: resolvedExternals(canonical) });
    expect(g.ok && (parse(g.configYaml) as ConfigDoc).apis).toEqual(["inference", "tool_runtime"]);
  });

  it("without metadata (offline rendering), leaves them out and says why", () => {
    const { g, doc } = generated(
      aSpec({ externalProviders: { inference: [{ providerId: "mine", image: IMAGE }] } }),
      false,
    );
    expect(doc.providers.inference!.map((p) => p.provider_id)).not.toContain("mine");
    expect(g.notes[0]).toMatch(
      /^spec\.externalProviders: not merged: their provider_type and module come from each image's \/lls-provider\/lls-provider-spec\.yaml/,
    );
  });
});

describe("validate() on external provider ids", () => {
  const messages = (spec: object) => validate(aSpec(spec)).errors.map((e) => `${e.path}: ${e.message}`);

  it.each([
    [
      "two externals with one id (both images listed)",
      {
        externalProviders: {
          inference: [{ providerId: "x", image: "a:1" }],
          safety: [{ providerId: "x", image: "b:2" }],
        },
      },
      [
        'spec.externalProviders.safety[0].providerId: external provider id "x" is used by both a:1 (spec.externalProviders.inference[0]) and b:2; give each a unique providerId',
      ],
    ],
    [
      "an inline id of another API",
      {
        providers: { safety: { id: "x", provider: "llama-guard" } },
        externalProviders: { inference: [{ providerId: "x", image: "a:1" }] },
      },
      [
        'spec.externalProviders.inference[0].providerId: "x" is already the id of spec.providers.safety (a safety provider); an external provider replaces only a provider of its own API: use another providerId, or list it under spec.externalProviders.safety',
      ],
    ],
    [
      "a disabled API",
      { disabled: ["vector_io"], externalProviders: { vectorIo: [{ providerId: "x", image: "a:1" }] } },
      [
        'spec.externalProviders.vectorIo[0]: vectorIo is disabled (spec.disabled[0]), so this external provider would never be loaded; remove it, or remove "vector_io" from disabled',
      ],
    ],
    [
      "an inline id of the same API (a replacement)",
      {
        providers: { inference: aVllm({ id: "x" }) },
        externalProviders: { inference: [{ providerId: "x", image: "a:1" }] },
      },
      [],
    ],
  ])("given %s, answers the expected errors", (_title, spec, expected) => {
    expect(messages(spec)).toEqual(expected);
  });
});

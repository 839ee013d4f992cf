import { bundledBaseConfig, bundledNames } from "../../../lib/distributions/bundled";
import { DEFAULT_DISTRIBUTIONS, RELEASES, type Release } from "../../../lib/distributions/table";
import { allKeys, allStrings, list, loadBase, mapping, providerEntries, text } from "./config-shape";
import { ABSENT_APIS, PROVIDER_TYPES } from "./server-rules";

const BASES = RELEASES.flatMap((release) => bundledNames().map((name) => [name, release] as const));

/** Top-level keys in the order upstream writes them; optional ones may be missing. */
const TOP_LEVEL_ORDER = [
  "version",
  "distro_name",
  "apis",
  "providers",
  "storage",
  "registered_resources",
  "server",
  "vector_stores",
  "safety",
  "connectors",
];

describe("the set of bundled base configs", () => {
  it("bundles starter and postgres-demo", () => {
    expect(bundledNames()).toEqual(["postgres-demo", "starter"]);
  });

  it.each(DEFAULT_DISTRIBUTIONS.flatMap((entry) => RELEASES.map((release) => [entry.name, release] as const)))(
    "has a base for default distribution %s on release %s",
    (name, release) => {
      expect(bundledBaseConfig(name, release)).toMatch(/^version: 2$/m);
    },
  );

  it.each([
    ["an unknown name", "remote-vllm", "0.7"],
    ["a path outside base/", "../table", "0.7"],
    ["a release that is not supported", "starter", "0.6"],
  ])("finds nothing for %s", (_case, name, release) => {
    expect(bundledBaseConfig(name, release as Release)).toBeUndefined();
  });
});

describe.each(BASES)("bundled base %s for release %s", (name, release) => {
  const config = loadBase(name, release);
  const apis = list(config["apis"], "apis").map((api, i) => text(api, `apis[${i}]`));
  const providers = providerEntries(config);

  it("is a version 2 config named after its distribution", () => {
    expect(config["version"]).toBe(2);
    expect(config["distro_name"]).toBe(name);
  });

  it("lists exactly the APIs that have providers, each once", () => {
    expect([...apis].sort()).toEqual(Object.keys(mapping(config["providers"], "providers")).sort());
    expect(new Set(apis).size).toBe(apis.length);
  });

  it("names only APIs the release has", () => {
    for (const api of apis) expect(Object.keys(PROVIDER_TYPES[release])).toContain(api);
    for (const api of ABSENT_APIS[release]) expect(apis).not.toContain(api);
  });

  it("uses provider types the release registers for each API", () => {
    for (const provider of providers) {
      expect({
        api: provider.api,
        type: provider.type,
        allowed: PROVIDER_TYPES[release][provider.api]?.includes(provider.type),
      }).toEqual({ api: provider.api, type: provider.type, allowed: true });
    }
  });

  it("gives each provider of an API its own id", () => {
    for (const api of new Set(providers.map((p) => p.api))) {
      const ids = providers.filter((p) => p.api === api).map((p) => p.id);
      expect(new Set(ids).size).toBe(ids.length);
    }
  });

  it("has no tool_groups anywhere (dropped with a warning since 0.7)", () => {
    expect(allKeys(config).filter((path) => path.endsWith(".tool_groups"))).toEqual([]);
  });

  it("keeps upstream's top-level key order", () => {
    const keys = Object.keys(config);
    expect(keys).toEqual(TOP_LEVEL_ORDER.filter((key) => keys.includes(key)));
  });

  it("serves on port 8321 with no connectors", () => {
    expect(config["server"]).toEqual({ port: 8321 });
    expect(config["connectors"]).toEqual([]);
  });

  it("leaves the vector_stores *_params templates to server defaults", () => {
    const vectorStores = config["vector_stores"] === undefined ? {} : mapping(config["vector_stores"], "vector_stores");
    expect(Object.keys(vectorStores).filter((key) => key.endsWith("_params"))).toEqual([]);
  });

  it("writes ${env.X} references with upper-case names (lower case stays literal)", () => {
    const names = allStrings(config).flatMap((value) => [...value.matchAll(/\$\{env\.([^}:]*)/g)].map((m) => m[1]));
    expect(names.length).toBeGreaterThan(0);
    for (const envName of names) expect(envName).toMatch(/^[A-Z][A-Z0-9_]*$/);
  });

  it("defaults paths to the release's home directory", () => {
    const home = release === "0.7" ? "~/.llama" : "~/.ogx";
    const paths = allStrings(config).flatMap((value) => [...value.matchAll(/:=(~[^}]*)\}/g)].map((m) => m[1]));
    expect(paths.length).toBeGreaterThan(0);
    for (const path of paths) expect(path?.startsWith(`${home}/distributions/${name}`)).toBe(true);
  });
});

describe.each([
  ["0.7", ["eval", "datasetio", "scoring"], ["messages", "interactions"]],
  ["0.8", ["messages", "interactions"], ["eval", "datasetio", "scoring"]],
] as const)("starter on release %s", (release, present, absent) => {
  const config = loadBase("starter", release);
  const providers = mapping(config["providers"], "providers");

  it.each(present)("serves %s", (api) => {
    expect(list(config["apis"], "apis")).toContain(api);
    expect(list(providers[api], api).length).toBeGreaterThan(0);
  });

  it.each(absent)("does not serve %s", (api) => {
    expect(providers[api]).toBeUndefined();
  });
});

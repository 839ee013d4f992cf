/**
 * External providers end to end: provider images built and pushed by the test to a real
 * registry (Debian docker-registry on loopback, through a counting proxy), read by the real
 * resolver (layers from the top down, whiteouts honoured, cached, single-flight), merged by
 * the sync into config.yaml, init containers, PYTHONPATH and status — and, on every kind of
 * error, a Failed status that names field and image while the running children are kept.
 */
import request from "supertest";
import { createApp } from "../../hooks/app";
import { createLogger } from "../../hooks/logger";
import { createMetrics } from "../../hooks/metrics";
import { parse } from "yaml";
import type { ConfigDoc } from "../../lib/config/doc";
import { createBaseConfigResolver, type BaseConfigResolver } from "../../lib/oci";
import { syncWith } from "../../lib/sync";
import type { KubeObject, SyncResponse } from "../../lib/wire/metacontroller";
import { providerSpecYaml } from "../external-fixtures";
import { aParent, aRequest, deps, observedFrom } from "../sync-builders";
import { pushImage, pushIndex } from "./support/images";
import { startProxy, type Proxy } from "./support/proxy";
import { startRegistry, type Registry } from "./support/registry";

let registry: Registry;
let proxy: Proxy;
const SPEC = "lls-provider/lls-provider-spec.yaml";
const BASE_LAYER = { "bin/sh": "#!fake\n", "etc/os-release": "ID=test\n" };
const wheel = (pkg: string) => ({ [`lls-provider/packages/${pkg}-1.0.0-py3-none-any.whl`]: "PK-fake-wheel" });

beforeAll(async () => {
  registry = await startRegistry();
  proxy = await startProxy(registry.host);
  const push = (repo: string, layers: Record<string, string>[]) =>
    pushImage({ url: registry.url }, `providers/${repo}`, "1.0", { layers: [BASE_LAYER, ...layers] });
  await push("top", [{ ...wheel("top_provider"), [SPEC]: providerSpecYaml("top") }]);
  await push("second", [{ ...wheel("second_provider"), [`./${SPEC}`]: providerSpecYaml("second") }]);
  await push("overridden", [
    { [SPEC]: providerSpecYaml("old", { api: "safety" }) },
    { [SPEC]: providerSpecYaml("new") },
  ]);
  await push("whiteout", [{ [SPEC]: providerSpecYaml("gone") }, { "lls-provider/.wh.lls-provider-spec.yaml": "" }]);
  await push("opaque", [
    { [SPEC]: providerSpecYaml("gone") },
    { "lls-provider/.wh..wh..opq": "", "lls-provider/README": "x" },
  ]);
  await push("missing", [{ "opt/other.txt": "x" }]);
  // The server image: no config labels, so the named distribution uses its bundled config.
  await push("server", []);
  // The same label-less image under a 0.7 version tag: the distribution the syncs run (the tag picks the line).
  await pushImage({ url: registry.url }, "providers/server", "0.7.1", { layers: [BASE_LAYER] });
  await push("invalid", [
    { [SPEC]: "apiVersion: llamastack.io/v1alpha1\nkind: ProviderPackage\nspec:\n  api: inference\n  api: safety\n" },
  ]);
  await push("vector", [{ [SPEC]: providerSpecYaml("vector", { api: "vector_io" }) }]);
  await push("guard", [{ [SPEC]: providerSpecYaml("llama-guard", { api: "safety", packageName: "acme_guard" }) }]);
  const amd64 = await pushImage({ url: registry.url }, "providers/multi", "amd64", {
    layers: [BASE_LAYER, { [SPEC]: providerSpecYaml("multi") }],
  });
  const arm64 = await pushImage({ url: registry.url }, "providers/multi", "arm64", {
    layers: [{ [SPEC]: providerSpecYaml("wrong-platform") }],
    platform: { os: "linux", architecture: "arm64" },
  });
  await pushIndex({ url: registry.url }, "providers/multi", "1.0", { images: [arm64, amd64] });
}, 60_000);

afterAll(async () => {
  await proxy?.close();
  await registry?.stop();
});

function resolver(): BaseConfigResolver {
  return createBaseConfigResolver({
    insecureRegistries: [proxy.host, "127.0.0.1:9"],
    deadlineMs: 2000,
    requestTimeoutMs: 800,
  });
}

const image = (repo: string) => `${proxy.host}/providers/${repo}:1.0`;
const specWith = (externalProviders: object, extra: object = {}) => ({
  distribution: { name: "starter" },
  externalProviders,
  ...extra,
});
const one = (repo: string, id = repo, section = "inference") =>
  specWith({ [section]: [{ providerId: id, image: image(repo) }] });
const configOf = (r: SyncResponse): ConfigDoc =>
  parse(
    String((r.children.find((c) => c.kind === "ConfigMap")?.data as Record<string, string>)["config.yaml"]),
  ) as ConfigDoc;
const podOf = (r: SyncResponse) =>
  (
    r.children.find((c) => c.kind === "Deployment")!.spec as {
      template: {
        spec: {
          initContainers?: { name: string; image: string }[];
          containers: { env: { name: string; value?: string }[] }[];
        };
      };
    }
  ).template.spec;
const condition = (r: SyncResponse, type: string) =>
  (r.status.conditions as { type: string; reason: string; message: string }[]).find((c) => c.type === type)!;
const entries = (r: SyncResponse) =>
  r.status.externalProviders as {
    providerId: string;
    image: string;
    phase: string;
    message: string;
    initContainer: string;
  }[];
/**
 * `starter` on an image of the test registry without config labels (a registry error would fail
 * the sync, not fall back), pinned to the 0.7 line (a line with the Safety API, which the
 * replacement test uses) as an operator's image override pins it.
 */
const named = () => ({
  ...deps(),
  distributions: [
    {
      name: "starter",
      image: `${proxy.host}/providers/server:0.7.1`,
      release: "0.7" as const,
      overridden: true as const,
    },
  ],
});
const run = (spec: object, observed: KubeObject[] = [], shared = resolver()) =>
  syncWith(aRequest(aParent(spec), observed), named(), shared);

describe("external providers from a real registry", () => {
  it("merges two providers in CR order: config entries, pinned init containers, then the install container, PYTHONPATH, status", async () => {
    const r = await run(
      specWith({
        inference: [
          { providerId: "top", image: image("top"), config: { url: "http://top:1" } },
          { providerId: "second", image: image("second"), imagePullPolicy: "Always" },
        ],
      }),
    );
    expect(r.status.phase).toBe("Pending");
    const inference = configOf(r).providers.inference!;
    expect(inference.slice(-2)).toEqual([
      { provider_id: "top", provider_type: "remote::top", module: "top_provider", config: { url: "http://top:1" } },
      { provider_id: "second", provider_type: "remote::second", module: "second_provider", config: {} },
    ]);
    const pod = podOf(r);
    expect(pod.initContainers!.map((c) => c.name)).toEqual(["ext-top", "ext-second", "install-ext-providers"]);
    expect(pod.initContainers![0]!.image).toMatch(
      new RegExp(`^${image("top").replace(/[.]/g, "\\.")}@sha256:[0-9a-f]{64}$`),
    );
    expect(pod.containers[0]!.env).toContainEqual({ name: "PYTHONPATH", value: "/opt/llsd-providers/site" });
    expect(entries(r).map((e) => [e.providerId, e.phase, e.initContainer])).toEqual([
      ["top", "Pending", "ext-top"],
      ["second", "Pending", "ext-second"],
    ]);
  });

  it.each([
    ["a lower layer's file overridden by an upper layer", "overridden", "remote::new"],
    ["an index (the linux/amd64 image is read)", "multi", "remote::multi"],
  ])("reads the top-most file: given %s", async (_title, repo, type) => {
    const r = await run(one(repo));
    expect(configOf(r).providers.inference!.at(-1)).toMatchObject({ provider_id: repo, provider_type: type });
  });

  it("replaces an inline provider of the same id, with a warning in status", async () => {
    const r = await run(
      specWith(
        { safety: [{ providerId: "llama-guard", image: image("guard") }] },
        { providers: { safety: { id: "llama-guard", provider: "llama-guard" } } },
      ),
    );
    expect(configOf(r).providers.safety!.filter((p) => p.provider_id === "llama-guard")).toEqual([
      { provider_id: "llama-guard", provider_type: "remote::llama-guard", module: "acme_guard", config: {} },
    ]);
    const warning = `spec.externalProviders.safety[0]: replaces provider "llama-guard" of providers.safety (from spec.providers.safety, inline::llama-guard) with remote::llama-guard from image ${image("guard")}`;
    expect(r.status.notes).toContain(warning);
    expect(entries(r)[0]!.message).toContain('replaces provider "llama-guard"');
  });

  // Rows are functions: the registry's address is known only once beforeAll has run.
  it.each<[string, () => object, string, () => string]>([
    [
      "a whiteout of the file",
      () => one("whiteout"),
      "ProviderMetadataMissing",
      () =>
        `Missing /lls-provider/lls-provider-spec.yaml in image ${image("whiteout")}: deleted by the whiteout lls-provider/.wh.lls-provider-spec.yaml`,
    ],
    [
      "an opaque directory",
      () => one("opaque"),
      "ProviderMetadataMissing",
      () =>
        `Missing /lls-provider/lls-provider-spec.yaml in image ${image("opaque")}: deleted by the whiteout lls-provider/.wh..wh..opq`,
    ],
    [
      "no metadata file",
      () => one("missing"),
      "ProviderMetadataMissing",
      () => `Missing /lls-provider/lls-provider-spec.yaml in image ${image("missing")}: not in any of its 2 layers`,
    ],
    [
      "invalid YAML",
      () => one("invalid"),
      "ProviderMetadataInvalid",
      () =>
        `Invalid /lls-provider/lls-provider-spec.yaml in image ${image("invalid")}: invalid YAML at line 5: DUPLICATE_KEY`,
    ],
    [
      "an API that is not its section's",
      () => one("vector"),
      "ProviderApiMismatch",
      () => "list it under spec.externalProviders.vectorIo",
    ],
    [
      "two external providers with one id",
      () =>
        specWith({
          inference: [{ providerId: "x", image: image("top") }],
          safety: [{ providerId: "x", image: image("guard") }],
        }),
      "InvalidSpec",
      () =>
        `external provider id "x" is used by both ${image("top")} (spec.externalProviders.inference[0]) and ${image("guard")}`,
    ],
    [
      "an image the registry does not have",
      () => one("nope"),
      "ExternalProviderImageError",
      () => `Cannot read the provider metadata of image "${image("nope")}"`,
    ],
    [
      "a registry that is down",
      () => specWith({ inference: [{ providerId: "down", image: "127.0.0.1:9/providers/down:1.0" }] }),
      "RegistryUnavailable",
      () => 'Cannot read the provider metadata of image "127.0.0.1:9/providers/down:1.0"',
    ],
  ])(
    "given %s after a good state, fails naming it and keeps the running children",
    async (_title, spec, reason, message) => {
      const good = await run(one("top"));
      const observed = observedFrom(good.children);
      const r = await run(spec(), observed);
      expect(r.status.phase).toBe("Failed");
      expect(condition(r, "ConfigGenerated").reason).toBe(reason);
      expect(condition(r, "ConfigGenerated").message).toContain(message());
      expect(r.children.map((c) => `${c.kind}/${c.metadata.name}`).sort()).toEqual(
        observed.map((c) => `${c.kind}/${c.metadata.name}`).sort(),
      );
      expect(podOf(r).initContainers!.map((c) => c.name)).toEqual(["ext-top", "install-ext-providers"]);
    },
  );

  it("reads each image once for 10 concurrent syncs (cached by digest, single-flight)", async () => {
    const shared = resolver();
    proxy.reset();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => syncWith(aRequest(aParent(one("top"), { name: `p${i}` })), named(), shared)),
    );
    expect(results.every((r) => r.status.phase === "Pending")).toBe(true);
    // manifest once; blobs: the top layer only (the file is there, the base layer is never read).
    const top = proxy.seen.filter((r) => r.path.startsWith("/v2/providers/top/"));
    expect({
      manifest: top.filter((r) => r.kind === "manifest").length,
      blob: top.filter((r) => r.kind === "blob").length,
    }).toEqual({ manifest: 1, blob: 1 });
  });

  it("POST /sync answers the merged config and, once rolled out, Ready entries", async () => {
    const shared = resolver();
    const app = createApp({
      handlers: {
        sync: (body) => syncWith(body, named(), shared),
        customize: () => Promise.resolve({ relatedResources: [] }),
      },
      logger: createLogger({ level: "silent", destination: { write: () => undefined } }),
      metrics: createMetrics(),
      isReady: () => true,
    });
    const first = (
      await request(app)
        .post("/sync")
        .send(aRequest(aParent(one("top"))))
        .expect(200)
    ).body as SyncResponse;
    expect(configOf(first).providers.inference!.at(-1)).toMatchObject({ provider_id: "top", module: "top_provider" });
    const again = aRequest(aParent(one("top"), { status: first.status }), observedFrom(first.children));
    const next = (await request(app).post("/sync").send(again).expect(200)).body as SyncResponse;
    expect(next.children).toEqual(first.children);
    expect(entries(next)).toEqual([
      {
        providerId: "top",
        image: image("top"),
        phase: "Ready",
        initContainer: "ext-top",
        message: "top_provider (remote::top) installed by init container ext-top",
      },
    ]);
  });
});

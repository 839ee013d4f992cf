/**
 * Label extraction end to end: fixture images pushed to a real registry (anonymous), read
 * through the resolver — every label kind, OCI and Docker media types, an index, and what
 * goes wrong when labels are broken.
 */
import { createBaseConfigResolver, type BaseConfigResolverOptions, type ResolvedBase } from "../../lib/oci";
import { b64, configYaml, largeConfigYaml } from "./support/configs";
import { layerOf, pushImage, pushIndex, type PushTarget, type PushedImage } from "./support/images";
import { startProxy, type Proxy } from "./support/proxy";
import { startRegistry, type Registry } from "./support/registry";

let registry: Registry;
let proxy: Proxy;
const pushed: Record<string, PushedImage> = {};
const large = largeConfigYaml("from-layer", 60 * 1024);

beforeAll(async () => {
  registry = await startRegistry();
  proxy = await startProxy(registry.host);
  const target: PushTarget = { url: registry.url };
  const amd64 = { os: "linux", architecture: "amd64" };
  const arm64 = { os: "linux", architecture: "arm64", variant: "v8" };
  const layerLabels = (path: string) => (layers: ReadonlyArray<{ digest: string }>) => ({
    "io.llamastack.config.layer": layers[1]?.digest ?? "",
    "io.llamastack.config.path": path,
    "org.opencontainers.image.version": "0.8.0",
  });
  const images: Array<[string, Parameters<typeof pushImage>[3]]> = [
    [
      "b64:v1",
      {
        labels: {
          "io.llamastack.config.base64": b64(configYaml("from-base64")),
          "com.ogx.distribution.version": "0.8.1",
        },
      },
    ],
    [
      "layer:v1",
      {
        layers: [{ "etc/os-release": "x" }, { "app/readme.txt": "hi", "app/config.yaml": large }],
        labels: layerLabels("/app/config.yaml"),
      },
    ],
    [
      "layer:truncated",
      {
        layers: [
          { "etc/os-release": "x" },
          await layerOf({ "app/config.yaml": configYaml("truncated") }, { truncated: true }),
        ],
        labels: layerLabels("app/config.yaml"),
      },
    ],
    [
      "layer:plain-tar",
      {
        layers: [
          { "etc/os-release": "x" },
          await layerOf({ "./app/config.yaml": configYaml("plain-tar") }, { gzip: false }),
        ],
        labels: layerLabels("./app/config.yaml"),
      },
    ],
    [
      "layer:by-index",
      {
        layers: [{ a: "1" }, { "cfg/run.yaml": configYaml("by-index") }],
        labels: { "io.llamastack.config.layer": "-1", "io.llamastack.config.path": "cfg/run.yaml" },
      },
    ],
    ["layer:missing-file", { layers: [{ a: "1" }, { b: "2" }], labels: layerLabels("app/config.yaml") }],
    [
      "upstream:ogx",
      {
        labels: {
          "com.ogx.config.config.yaml": b64(configYaml("ogx")),
          "com.ogx.config.run-with-postgres.yaml": b64("x"),
          "com.ogx.distribution.default-config": "config.yaml",
          "com.ogx.distribution.version": "v0.8.0",
        },
      },
    ],
    [
      "upstream:llamastack",
      {
        labels: {
          "com.llamastack.config.run.yaml": b64(configYaml("llamastack")),
          "com.llamastack.distribution.default-config": "run.yaml",
        },
      },
    ],
    ["upstream:no-default", { labels: { "com.ogx.config.other.yaml": b64("x") } }],
    ["bad:base64", { labels: { "io.llamastack.config.base64": "not base64!" } }],
    ["bad:half-pair", { labels: { "io.llamastack.config.path": "app/config.yaml" } }],
    ["plain:v1", { labels: { "org.opencontainers.image.title": "no config labels here" } }],
    ["docker:v1", { docker: true, labels: { "io.llamastack.config.base64": b64(configYaml("docker")) } }],
  ];
  for (const [name, spec] of images) {
    const [repo = "", tag = ""] = name.split(":");
    pushed[name] = await pushImage(target, `fx/${repo}`, tag, spec);
  }
  const a = await pushImage(target, "fx/multi", "amd64", {
    platform: amd64,
    labels: { "io.llamastack.config.base64": b64(configYaml("amd64")) },
  });
  const r = await pushImage(target, "fx/multi", "arm64", {
    platform: arm64,
    labels: { "io.llamastack.config.base64": b64(configYaml("arm64")) },
  });
  pushed["multi:oci"] = {
    ...(await pushIndex(target, "fx/multi", "oci", { images: [r, a] })),
    config: a.config,
    layers: [],
  };
  const da = await pushImage(target, "fx/multi", "docker-amd64", {
    docker: true,
    platform: amd64,
    labels: { "io.llamastack.config.base64": b64(configYaml("docker-amd64")) },
  });
  const dr = await pushImage(target, "fx/multi", "docker-arm64", {
    docker: true,
    platform: arm64,
    labels: { "io.llamastack.config.base64": b64(configYaml("docker-arm64")) },
  });
  pushed["multi:docker"] = {
    ...(await pushIndex(target, "fx/multi", "docker", { images: [dr, da], docker: true })),
    config: da.config,
    layers: [],
  };
});

afterAll(async () => {
  await proxy?.close();
  await registry?.stop();
});

function resolve(name: string, options: BaseConfigResolverOptions = {}): Promise<ResolvedBase> {
  const [repo = "", tag = ""] = name.split(":");
  return createBaseConfigResolver({ insecureRegistries: [proxy.host], ...options }).resolve(
    `${proxy.host}/fx/${repo}:${tag}`,
  );
}

const digestOf = (name: string): string => pushed[name]?.digest ?? "";

describe("resolve() reads the base config from labels", () => {
  test("io.llamastack.config.base64, with the com.ogx version label", async () => {
    expect(await resolve("b64:v1")).toEqual({
      kind: "found",
      config: configYaml("from-base64"),
      digest: digestOf("b64:v1"),
      source: "oci-label",
      labelKind: "base64",
      version: "0.8.1",
    });
  });

  test("io.llamastack.config.layer + path: a config over 50 KB streamed out of the named layer", async () => {
    expect(large.length).toBeGreaterThan(50 * 1024);
    expect(await resolve("layer:v1")).toEqual({
      kind: "found",
      config: large,
      digest: digestOf("layer:v1"),
      source: "oci-label",
      labelKind: "layer",
      version: "0.8.0",
    });
  });

  test.each([
    ["layer:truncated", "truncated", "a tar without end-of-archive blocks (umoci insert)"],
    ["layer:plain-tar", "plain-tar", "an uncompressed tar with ./ names"],
    ["layer:by-index", "by-index", "a layer named by index (-1 = last)"],
  ])("%s: %s", async (name, marker) => {
    expect(await resolve(name)).toMatchObject({ kind: "found", labelKind: "layer", config: configYaml(marker) });
  });

  test("upstream com.ogx.config.<default-config>, version from com.ogx.distribution.version", async () => {
    expect(await resolve("upstream:ogx")).toMatchObject({
      kind: "found",
      labelKind: "upstream",
      config: configYaml("ogx"),
      version: "v0.8.0",
    });
  });

  test("upstream pre-rename com.llamastack.config.<file> with its own default-config", async () => {
    const result = await resolve("upstream:llamastack");
    expect(result).toMatchObject({ kind: "found", labelKind: "upstream", config: configYaml("llamastack") });
    expect(result).not.toHaveProperty("version");
  });

  test("an image without config labels is a typed no-labels result, with its digest", async () => {
    expect(await resolve("plain:v1")).toEqual({ kind: "no-labels", digest: digestOf("plain:v1") });
  });

  test("a Docker v2 schema 2 manifest", async () => {
    expect(await resolve("docker:v1")).toMatchObject({
      kind: "found",
      config: configYaml("docker"),
      digest: digestOf("docker:v1"),
    });
  });

  test.each([
    ["multi:oci", ""],
    ["multi:docker", "docker-"],
  ])("%s: the index resolves to linux/amd64 by default, arm64 on request", async (name, prefix) => {
    expect(await resolve(name)).toMatchObject({
      kind: "found",
      config: configYaml(`${prefix}amd64`),
      digest: digestOf(name),
    });
    const arm = await resolve(name, { platform: { os: "linux", architecture: "arm64" } });
    expect(arm).toMatchObject({ kind: "found", config: configYaml(`${prefix}arm64`), digest: digestOf(name) });
  });

  test("a reference by digest is verified against that digest", async () => {
    const result = await createBaseConfigResolver({ insecureRegistries: [proxy.host] }).resolve(
      `${proxy.host}/fx/b64@${digestOf("b64:v1")}`,
    );
    expect(result).toMatchObject({ kind: "found", labelKind: "base64", digest: digestOf("b64:v1") });
  });
});

describe("resolve() reports broken images as error values that name the image", () => {
  test.each([
    ["layer:missing-file", "ConfigFileNotFound", /has no file app\/config\.yaml/],
    [
      "upstream:no-default",
      "InvalidConfigLabel",
      /com\.ogx\.config\.\* labels but not the default config's com\.ogx\.config\.config\.yaml/,
    ],
    ["bad:base64", "InvalidConfigLabel", /io\.llamastack\.config\.base64 is not valid base64/],
    ["bad:half-pair", "InvalidConfigLabel", /io\.llamastack\.config\.layer is missing/],
    ["nope:v1", "ImageNotFound", /fx\/nope has no manifest v1 \(404 MANIFEST_UNKNOWN\)/],
  ])("%s → %s", async (name, reason, message) => {
    const result = await resolve(name);
    expect(result).toMatchObject({ kind: "error", reason, transient: false });
    const text = result.kind === "error" ? result.message : "";
    expect(text).toContain(`"${proxy.host}/fx/${name}"`);
    expect(text).toMatch(message);
  });

  test("an index without the wanted platform lists what it has", async () => {
    const result = await resolve("multi:oci", { platform: { os: "linux", architecture: "s390x" } });
    expect(result).toMatchObject({ kind: "error", reason: "PlatformNotFound" });
    expect(result.kind === "error" && result.message).toMatch(
      /no linux\/s390x image \(available: linux\/arm64\/v8, linux\/amd64\)/,
    );
  });

  test("a registry not listed as insecure is only spoken to over https", async () => {
    const result = await createBaseConfigResolver({ deadlineMs: 1500 }).resolve(`${proxy.host}/fx/b64:v1`);
    expect(result).toMatchObject({ kind: "error", reason: "RegistryUnavailable", transient: true });
  });
});

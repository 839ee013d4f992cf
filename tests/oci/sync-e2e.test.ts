/**
 * The sync hook with its one I/O step: base configs read from images in a real registry
 * (Debian docker-registry on loopback, through a counting proxy), pull credentials from a
 * namespace Secret, and the failure policy when labels are missing or the registry is down.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { createBaseConfigResolver, type BaseConfigResolver } from "../../lib/oci";
import { withOverrides } from "../../lib/distributions/table";
import { syncWith } from "../../lib/sync";
import type { KubeObject, SyncResponse } from "../../lib/wire/metacontroller";
import { aParent, aRequest, aSecret, deps, NS, observedFrom } from "../sync-builders";
import { b64, configYaml } from "./support/configs";
import { pushImage } from "./support/images";
import { startProxy, type Proxy } from "./support/proxy";
import { startRegistry, type Registry } from "./support/registry";

let registry: Registry;
let privateRegistry: Registry;
let proxy: Proxy;
const PASSWORD = "testpass"; // tests/fixtures/oci/htpasswd

beforeAll(async () => {
  registry = await startRegistry();
  privateRegistry = await startRegistry({
    kind: "htpasswd",
    htpasswdFile: join(__dirname, "../fixtures/oci/htpasswd"),
  });
  proxy = await startProxy(registry.host);
  const labels = {
    "io.llamastack.config.base64": b64(configYaml("from-label")),
    "com.ogx.distribution.version": "0.8.0",
  };
  await pushImage({ url: registry.url }, "llsd/labelled", "0.8.0", { labels });
  await pushImage({ url: registry.url }, "llsd/plain", "0.7.1", {
    labels: { "org.opencontainers.image.title": "no config" },
  });
  for (let i = 0; i < 20; i++) await pushImage({ url: registry.url }, `llsd/burst-${i}`, "0.8.0", { labels });
  const basic = `Basic ${Buffer.from(`testuser:${PASSWORD}`).toString("base64")}`;
  await pushImage({ url: privateRegistry.url, authorization: () => basic }, "private/llsd", "0.8.0", { labels });
  // As OGX publishes 1.2+ images: each distribution config as a com.ogx.config.<file> label.
  for (const name of ["starter", "postgres-demo"]) {
    const upstream = readFileSync(
      join(__dirname, "../fixtures/server-schemas/v1.3.0/distributions", name, "config.yaml"),
      "utf8",
    );
    const ogx = { "com.ogx.config.config.yaml": b64(upstream), "com.ogx.distribution.default-config": "config.yaml" };
    await pushImage({ url: registry.url }, `ogxai/distribution-${name}`, "1.3.0", {
      labels: { ...ogx, "com.ogx.distribution.version": "1.3.0" },
    });
    await pushImage({ url: registry.url }, `ogxai/distribution-${name}`, "nightly", {
      labels: { ...ogx, "org.opencontainers.image.version": "1.5.0" },
    });
  }
}, 60_000);

afterAll(async () => {
  await proxy?.close();
  await registry?.stop();
  await privateRegistry?.stop();
});

function resolver(): BaseConfigResolver {
  return createBaseConfigResolver({
    insecureRegistries: [proxy.host, privateRegistry.host, "127.0.0.1:9"],
    deadlineMs: 2000,
    requestTimeoutMs: 800,
  });
}

const specFor = (image: string) => ({
  distribution: { image },
  providers: { inference: { provider: "vllm", endpoint: "http://vllm:8000", apiKey: { name: "creds", key: "token" } } },
});
const creds = aSecret("creds", { token: "t" });
const configOf = (r: SyncResponse): string =>
  String(((r.children.find((c) => c.kind === "ConfigMap")?.data ?? {}) as Record<string, string>)["config.yaml"]);
const condition = (r: SyncResponse, type: string) =>
  (r.status.conditions as { type: string; reason: string; message: string }[]).find((c) => c.type === type);

describe("sync with base configs from image labels", () => {
  it("generates from the image's label config and records its digest and source", async () => {
    const r = await syncWith(
      aRequest(aParent(specFor(`${proxy.host}/llsd/labelled:0.8.0`)), [], [creds]),
      deps(),
      resolver(),
    );
    expect(configOf(r)).toContain("image_name: from-label");
    expect(r.status.resolvedDistribution).toEqual(
      expect.objectContaining({ configSource: "oci-label", digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) }),
    );
  });

  it("without labels on an image reference, fails with MissingConfigLabels and keeps the running children", async () => {
    const good = await syncWith(
      aRequest(aParent(specFor(`${proxy.host}/llsd/labelled:0.8.0`)), [], [creds]),
      deps(),
      resolver(),
    );
    const observed = observedFrom(good.children);
    const r = await syncWith(
      aRequest(aParent(specFor(`${proxy.host}/llsd/plain:0.7.1`)), observed, [creds]),
      deps(),
      resolver(),
    );
    expect(r.status.phase).toBe("Failed");
    expect(condition(r, "ConfigGenerated")).toEqual(
      expect.objectContaining({
        reason: "MissingConfigLabels",
        message:
          "spec.distribution.image: Direct image references require either overrideConfig.configMapName or OCI config labels on the image. See docs/configuration.md for details.",
      }),
    );
    expect(r.children.map((c) => c.metadata.name).sort()).toEqual(observed.map((c) => c.metadata.name).sort());
  });

  it("when the registry is down, keeps the running children, says why and asks to be called again", async () => {
    const good = await syncWith(
      aRequest(aParent(specFor(`${proxy.host}/llsd/labelled:0.8.0`)), [], [creds]),
      deps(),
      resolver(),
    );
    const r = await syncWith(
      aRequest(aParent(specFor("127.0.0.1:9/llsd/labelled:0.8.0")), observedFrom(good.children), [creds]),
      deps(),
      resolver(),
    );
    expect(r.children).toHaveLength(good.children.length);
    expect(condition(r, "ConfigGenerated")?.reason).toBe("RegistryUnavailable");
    expect(r.resyncAfterSeconds).toBeGreaterThan(0);
  });

  it("reads a private image with the namespace's labelled dockerconfigjson Secret, and not without it", async () => {
    const image = `${privateRegistry.host}/private/llsd:0.8.0`;
    const without = await syncWith(aRequest(aParent(specFor(image)), [], [creds]), deps(), resolver());
    expect(without.status.phase).toBe("Failed");
    expect(JSON.stringify(without)).not.toContain(PASSWORD);
    const dockerconfig = JSON.stringify({
      auths: { [privateRegistry.host]: { username: "testuser", password: PASSWORD } },
    });
    const pull: KubeObject = {
      ...aSecret("pull", { ".dockerconfigjson": dockerconfig }),
      type: "kubernetes.io/dockerconfigjson",
      metadata: { name: "pull", namespace: NS, labels: { "llamastack.io/registry-credentials": "true" } },
    };
    const withSecret = await syncWith(aRequest(aParent(specFor(image)), [], [creds, pull]), deps(), resolver());
    expect(configOf(withSecret)).toContain("image_name: from-label");
    expect(JSON.stringify(withSecret)).not.toContain(PASSWORD);
  });

  it("given 20 concurrent syncs of parents on one uncached image, fetches its manifest and config once", async () => {
    const shared = resolver();
    proxy.reset();
    const image = `${proxy.host}/llsd/burst-7:0.8.0`;
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        syncWith(aRequest(aParent(specFor(image), { name: `p${i}` }), [], [creds]), deps(), shared),
      ),
    );
    expect(results.every((r) => r.status.phase === "Pending")).toBe(true);
    expect({ manifest: proxy.count("manifest"), blob: proxy.count("blob") }).toEqual({ manifest: 1, blob: 1 });
  });

  it("for a named distribution whose image cannot be read, fails (transient) instead of switching to the bundled config", async () => {
    const r = await syncWith(
      aRequest(aParent({ ...specFor("x"), distribution: { name: "starter" } }), [], [creds]),
      { ...deps(), distributions: [{ name: "starter", image: "127.0.0.1:9/llsd/starter:0.7.1", release: "0.7" }] },
      resolver(),
    );
    expect(r.status.phase).toBe("Failed");
    expect(r.children).toEqual([]);
    expect(
      (r.status.conditions as { type: string; reason: string }[]).find((c) => c.type === "ConfigGenerated"),
    ).toMatchObject({ reason: "RegistryUnavailable" });
    expect(r.resyncAfterSeconds).toBe(30);
  });
});

describe("sync with OGX 1.x images, whose labels carry their config", () => {
  const onTable = (host: string) => ({
    ...deps(),
    distributions: [
      { name: "postgres-demo", image: `${host}/ogxai/distribution-postgres-demo:1.3.0`, release: "1.3" as const },
      { name: "starter", image: `${host}/ogxai/distribution-starter:1.3.0`, release: "1.3" as const },
    ],
  });
  const named = (name: string) => ({ ...specFor("x"), distribution: { name } });

  it("generates a named distribution from its labels, for the 1.3 line", async () => {
    const r = await syncWith(aRequest(aParent(named("starter")), [], [creds]), onTable(proxy.host), resolver());
    const config = parse(configOf(r)) as { apis: string[]; server: object };
    expect(config.apis).toContain("skills");
    expect(config.apis).not.toContain("safety");
    expect(config.server).toEqual({ port: 8321, insecure: true });
    expect(r.status.resolvedDistribution).toEqual(expect.objectContaining({ configSource: "oci-label" }));
    expect(r.status.notes ?? []).not.toContainEqual(expect.stringMatching(/^spec\.distribution/));
  });

  it("adds the files provider upstream's postgres-demo label config lacks, and says so", async () => {
    const r = await syncWith(aRequest(aParent(named("postgres-demo")), [], [creds]), onTable(proxy.host), resolver());
    expect((parse(configOf(r)) as { providers: { files?: unknown[] } }).providers.files).toHaveLength(1);
    expect(r.status.notes).toContainEqual(
      expect.stringMatching(/^baseConfig.providers.files: the base config has none and the responses provider builtin/),
    );
  });

  it("takes the line from the version label when the tag names none, and notes a version it does not know", async () => {
    const r = await syncWith(
      aRequest(aParent(specFor(`${proxy.host}/ogxai/distribution-starter:nightly`)), [], [creds]),
      deps(),
      resolver(),
    );
    expect(r.status.notes).toContainEqual(
      expect.stringContaining(
        `server version 1.5.0 (version label of ${proxy.host}/ogxai/distribution-starter:nightly) is not a line these hooks know`,
      ),
    );
    expect((parse(configOf(r)) as { apis: string[] }).apis).not.toContain("safety");
  });

  it("when the registry is down, waits (keeping what runs) rather than switch a 1.x server from its label config to the bundled one", async () => {
    const good = await syncWith(aRequest(aParent(named("starter")), [], [creds]), onTable(proxy.host), resolver());
    expect(good.status.resolvedDistribution).toEqual(expect.objectContaining({ configSource: "oci-label" }));
    // The operator moved starter to a registry that is down (an override: running servers follow it).
    const down = {
      ...deps(),
      distributions: withOverrides(onTable(proxy.host).distributions, {
        starter: "127.0.0.1:9/ogxai/distribution-starter:1.3.0",
      }).table,
    };
    const r = await syncWith(
      aRequest(aParent(named("starter"), { status: good.status }), observedFrom(good.children), [creds]),
      down,
      resolver(),
    );
    expect(r.status.phase).toBe("Failed");
    expect(condition(r, "ConfigGenerated")).toEqual(
      expect.objectContaining({
        reason: "RegistryUnavailable",
        message: expect.stringContaining("the running config and children are kept"),
      }),
    );
    expect(r.children.map((c) => c.metadata.name).sort()).toEqual(good.children.map((c) => c.metadata.name).sort());
    expect(r.resyncAfterSeconds).toBeGreaterThan(0);
  });

  it("a new 1.x CR whose registry cannot be read creates nothing yet, says why, and retries (no later swap to the label config)", async () => {
    const down = {
      ...deps(),
      distributions: [
        { name: "starter", image: "127.0.0.1:9/ogxai/distribution-starter:1.3.0", release: "1.3" as const },
      ],
    };
    const r = await syncWith(aRequest(aParent(named("starter")), [], [creds]), down, resolver());
    expect(r.status.phase).toBe("Failed");
    expect(condition(r, "ConfigGenerated")).toEqual(
      expect.objectContaining({
        reason: "RegistryUnavailable",
        message: expect.stringContaining("LLSD_READ_IMAGE_LABELS=false"),
      }),
    );
    expect(r.children).toEqual([]);
    expect(r.resyncAfterSeconds).toBeGreaterThan(0);
  });
});

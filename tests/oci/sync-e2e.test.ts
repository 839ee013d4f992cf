/**
 * The sync hook with its one I/O step: base configs read from images in a real registry
 * (Debian docker-registry on loopback, through a counting proxy), pull credentials from a
 * namespace Secret, and the failure policy when labels are missing or the registry is down.
 */
import { join } from "node:path";
import { createBaseConfigResolver, type BaseConfigResolver } from "../../lib/oci";
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
  privateRegistry = await startRegistry({ kind: "htpasswd", htpasswdFile: join(__dirname, "../fixtures/oci/htpasswd") });
  proxy = await startProxy(registry.host);
  const labels = { "io.llamastack.config.base64": b64(configYaml("from-label")), "com.ogx.distribution.version": "0.8.0" };
  await pushImage({ url: registry.url }, "llsd/labelled", "0.8.0", { labels });
  await pushImage({ url: registry.url }, "llsd/plain", "0.7.1", { labels: { "org.opencontainers.image.title": "no config" } });
  for (let i = 0; i < 20; i++) await pushImage({ url: registry.url }, `llsd/burst-${i}`, "0.8.0", { labels });
  const basic = `Basic ${Buffer.from(`testuser:${PASSWORD}`).toString("base64")}`;
  await pushImage({ url: privateRegistry.url, authorization: () => basic }, "private/llsd", "0.8.0", { labels });
}, 60_000);

afterAll(async () => {
  await proxy?.close();
  await registry?.stop();
  await privateRegistry?.stop();
});

function resolver(): BaseConfigResolver {
  return createBaseConfigResolver({ insecureRegistries: [proxy.host, privateRegistry.host, "127.0.0.1:9"], deadlineMs: 2000, requestTimeoutMs: 800 });
}

const specFor = (image: string) => ({
  distribution: { image },
  providers: { inference: { provider: "vllm", endpoint: "http://vllm:8000", apiKey: { name: "creds", key: "token" } } },
});
const creds = aSecret("creds", { token: "t" });
const configOf = (r: SyncResponse): string => String(((r.children.find((c) => c.kind === "ConfigMap")?.data ?? {}) as Record<string, string>)["config.yaml"]);
const condition = (r: SyncResponse, type: string) => (r.status.conditions as { type: string; reason: string; message: string }[]).find((c) => c.type === type);

describe("sync with base configs from image labels", () => {
  it("generates from the image's label config and records its digest and source", async () => {
    const r = await syncWith(aRequest(aParent(specFor(`${proxy.host}/llsd/labelled:0.8.0`)), [], [creds]), deps(), resolver());
    expect(configOf(r)).toContain("image_name: from-label");
    expect(r.status.resolvedDistribution).toEqual(expect.objectContaining({ configSource: "oci-label", digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) }));
  });

  it("without labels on an image reference, fails with MissingConfigLabels and keeps the running children", async () => {
    const good = await syncWith(aRequest(aParent(specFor(`${proxy.host}/llsd/labelled:0.8.0`)), [], [creds]), deps(), resolver());
    const observed = observedFrom(good.children);
    const r = await syncWith(aRequest(aParent(specFor(`${proxy.host}/llsd/plain:0.7.1`)), observed, [creds]), deps(), resolver());
    expect(r.status.phase).toBe("Failed");
    expect(condition(r, "ConfigGenerated")).toEqual(expect.objectContaining({
      reason: "MissingConfigLabels",
      message: "spec.distribution.image: Direct image references require either overrideConfig.configMapName or OCI config labels on the image. See docs/configuration.md for details.",
    }));
    expect(r.children.map((c) => c.metadata.name).sort()).toEqual(observed.map((c) => c.metadata.name).sort());
  });

  it("when the registry is down, keeps the running children, says why and asks to be called again", async () => {
    const good = await syncWith(aRequest(aParent(specFor(`${proxy.host}/llsd/labelled:0.8.0`)), [], [creds]), deps(), resolver());
    const started = Date.now();
    const r = await syncWith(aRequest(aParent(specFor("127.0.0.1:9/llsd/labelled:0.8.0")), observedFrom(good.children), [creds]), deps(), resolver());
    expect(Date.now() - started).toBeLessThan(5000);
    expect(r.children).toHaveLength(good.children.length);
    expect(condition(r, "ConfigGenerated")?.reason).toBe("RegistryUnavailable");
    expect(r.resyncAfterSeconds).toBeGreaterThan(0);
  });

  it("reads a private image with the namespace's labelled dockerconfigjson Secret, and not without it", async () => {
    const image = `${privateRegistry.host}/private/llsd:0.8.0`;
    const without = await syncWith(aRequest(aParent(specFor(image)), [], [creds]), deps(), resolver());
    expect(without.status.phase).toBe("Failed");
    expect(JSON.stringify(without)).not.toContain(PASSWORD);
    const dockerconfig = JSON.stringify({ auths: { [privateRegistry.host]: { username: "testuser", password: PASSWORD } } });
    const pull: KubeObject = {
      ...aSecret("pull", { ".dockerconfigjson": dockerconfig }), type: "kubernetes.io/dockerconfigjson",
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
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) =>
      syncWith(aRequest(aParent(specFor(image), { name: `p${i}` }), [], [creds]), deps(), shared)));
    expect(results.every((r) => r.status.phase === "Pending")).toBe(true);
    expect({ manifest: proxy.count("manifest"), blob: proxy.count("blob") }).toEqual({ manifest: 1, blob: 1 });
  });

  it("for a named distribution whose image cannot be read, fails (transient) instead of switching to the bundled config", async () => {
    const r = await syncWith(aRequest(aParent({ ...specFor("x"), distribution: { name: "starter" } }), [], [creds]),
      { ...deps(), distributions: [{ name: "starter", image: "127.0.0.1:9/llsd/starter:0.7.1", release: "0.7" }] }, resolver());
    expect(r.status.phase).toBe("Failed");
    expect(r.children).toEqual([]);
    expect((r.status.conditions as { type: string; reason: string }[]).find((c) => c.type === "ConfigGenerated")).toMatchObject({ reason: "RegistryUnavailable" });
    expect(r.resyncAfterSeconds).toBe(30);
  });
});

/**
 * Cache and single-flight, proven by counting what reaches a real registry (through a proxy):
 * tag → digest TTL, digest → config LRU (entries and bytes), one fetch for concurrent callers,
 * failures remembered with exponential backoff. The clock is injected, so TTLs are exact.
 */
import { createBaseConfigResolver, type BaseConfigResolverOptions } from "../../lib/oci";
import { b64, configYaml } from "./support/configs";
import { pushImage, type PushTarget } from "./support/images";
import { startProxy, type Proxy } from "./support/proxy";
import { startRegistry, type Registry } from "./support/registry";

let registry: Registry;
let proxy: Proxy;
let target: PushTarget;
let now = 1_000_000;
const clock = (): number => now;
const labelled = (marker: string) => ({ labels: { "io.llamastack.config.base64": b64(configYaml(marker)) } });

beforeAll(async () => {
  registry = await startRegistry();
  proxy = await startProxy(registry.host);
  target = { url: registry.url };
  for (const name of ["one", "two", "three", "moving"]) await pushImage(target, `cache/${name}`, "v1", labelled(name));
  await pushImage(target, "cache/layered", "v1", {
    layers: [{ "etc/os-release": "x" }, { "app/config.yaml": configYaml("layered") }],
    labels: (layers) => ({
      "io.llamastack.config.layer": layers[1]?.digest ?? "",
      "io.llamastack.config.path": "app/config.yaml",
    }),
  });
});

afterAll(async () => {
  await proxy?.close();
  await registry?.stop();
});

beforeEach(() => proxy.reset());

const ref = (name: string): string => `${proxy.host}/cache/${name}:v1`;
const resolver = (options: BaseConfigResolverOptions = {}) =>
  createBaseConfigResolver({ insecureRegistries: [proxy.host], now: clock, ...options });
const counts = () => ({ manifest: proxy.count("manifest"), blob: proxy.count("blob") });

test("20 concurrent resolves of one uncached image: exactly one manifest and one config fetch", async () => {
  const shared = resolver();
  const together = await Promise.all(Array.from({ length: 20 }, () => shared.resolve(ref("one"))));
  expect(counts()).toEqual({ manifest: 1, blob: 1 });
  expect(new Set(together.map((r) => JSON.stringify(r))).size).toBe(1);
  expect(together[0]).toMatchObject({ kind: "found", config: configYaml("one") });
});

test("the layer label: concurrent callers share one manifest, one config and one layer fetch", async () => {
  const shared = resolver();
  const results = await Promise.all(Array.from({ length: 20 }, () => shared.resolve(ref("layered"))));
  expect(counts()).toEqual({ manifest: 1, blob: 2 });
  expect(results.every((r) => r.kind === "found" && r.config === configYaml("layered"))).toBe(true);
});

test("warm: no registry request until the tag TTL ends; then one manifest fetch and the config from the LRU", async () => {
  const shared = resolver();
  await shared.resolve(ref("two"));
  proxy.reset();
  for (let i = 0; i < 5; i++) await shared.resolve(ref("two"));
  now += 5 * 60_000 - 1;
  await shared.resolve(ref("two"));
  expect(counts()).toEqual({ manifest: 0, blob: 0 });
  now += 2;
  expect(await shared.resolve(ref("two"))).toMatchObject({ kind: "found", config: configYaml("two") });
  expect(counts()).toEqual({ manifest: 1, blob: 0 });
});

test("a moved tag is noticed after the TTL (short TTL option), with the new digest and config", async () => {
  const shared = resolver({ tagTtlMs: 1000 });
  const before = await shared.resolve(ref("moving"));
  const moved = await pushImage(target, "cache/moving", "v1", labelled("moved"));
  expect(await shared.resolve(ref("moving"))).toEqual(before);
  now += 1001; // lru-cache: an entry is fresh for exactly its TTL, stale 1 ms after

  expect(await shared.resolve(ref("moving"))).toMatchObject({
    kind: "found",
    config: configYaml("moved"),
    digest: moved.digest,
  });
});

test("failures are remembered with exponential backoff until the image appears", async () => {
  const shared = resolver({ failureBaseMs: 1000, failureMaxMs: 4000 });
  const missing = `${proxy.host}/cache/late:v1`;
  const attempts: number[] = [];
  const step = async (advanceMs: number): Promise<string> => {
    now += advanceMs;
    const before = proxy.count("manifest");
    const result = await shared.resolve(missing);
    attempts.push(proxy.count("manifest") - before);
    return result.kind;
  };
  // 1 s after the 1st failure, 2 s after the 2nd, 4 s (the cap) after the 3rd and 4th.
  for (const advance of [0, 999, 1, 1999, 1, 3999, 1, 4000]) await step(advance);
  expect(attempts).toEqual([1, 0, 1, 0, 1, 0, 1, 1]);
  await pushImage(target, "cache/late", "v1", labelled("late"));
  expect(await step(4000)).toBe("found");
});

test("the credential fingerprint is part of the tag key, not of the digest key", async () => {
  const shared = resolver();
  const as = (password: string) => () => ({ username: "someone", password });
  await shared.resolve(ref("three"), as("a"));
  await shared.resolve(ref("three"), as("b"));
  await shared.resolve(ref("three"));
  await shared.resolve(ref("three"), as("a"));
  expect(counts()).toEqual({ manifest: 3, blob: 1 });
});

test("the digest LRU is bounded by bytes: a config above 1/32 of them is read every time, below it once", async () => {
  const tight = resolver({ maxBytes: 100 });
  for (let i = 0; i < 3; i++) expect(await tight.resolve(ref("one"))).toMatchObject({ kind: "found" });
  expect(counts()).toEqual({ manifest: 1, blob: 3 });

  proxy.reset();
  const roomy = resolver({ maxBytes: 2 ** 20 });
  for (let i = 0; i < 3; i++) expect(await roomy.resolve(ref("one"))).toMatchObject({ kind: "found" });
  expect(counts()).toEqual({ manifest: 1, blob: 1 });
});

test("onRead hears how each read was answered, and only fetched and failed reads reach the registry", async () => {
  const heard: string[] = [];
  const shared = resolver({ failureBaseMs: 1000, onRead: (read, result) => heard.push(`${read} ${result}`) });
  const missing = `${proxy.host}/cache/never:v1`;
  await Promise.all([shared.resolve(ref("one")), shared.resolve(ref("one")), shared.resolve(ref("one"))]);
  await shared.resolve(ref("one"));
  const beforeFailures = counts();
  await shared.resolve(missing);
  await shared.resolve(missing);
  await shared.resolve("not a reference");
  expect(heard).toEqual([
    "base_config fetched",
    "base_config shared",
    "base_config shared",
    "base_config cached",
    "base_config failed",
    "base_config backoff",
  ]);
  expect([beforeFailures, counts()]).toEqual([
    { manifest: 1, blob: 1 },
    { manifest: 2, blob: 1 },
  ]);
});

/**
 * A misbehaving registry, simulated by a proxy in front of a real one: corrupted blobs,
 * oversized manifests, 5xx and 429 answers, slow and stalled responses, hostile redirects.
 * Every case ends in a value (never a throw) within the resolve's deadline.
 */
import { performance } from "node:perf_hooks";
import { createBaseConfigResolver, type BaseConfigResolverOptions, type ResolvedBase } from "../../lib/oci";
import { b64, configYaml } from "./support/configs";
import { pushImage } from "./support/images";
import { startProxy, type Fault, type Proxy, type Seen } from "./support/proxy";
import { startRegistry, type Registry } from "./support/registry";

let registry: Registry;
let proxy: Proxy;

beforeAll(async () => {
  registry = await startRegistry();
  proxy = await startProxy(registry.host);
  const target = { url: registry.url };
  await pushImage(target, "faults/demo", "v1", {
    labels: { "io.llamastack.config.base64": b64(configYaml("faults")) },
  });
  await pushImage(target, "faults/layered", "v1", {
    layers: [{ "app/config.yaml": configYaml("layered") }],
    labels: (layers) => ({
      "io.llamastack.config.layer": layers[0]?.digest ?? "",
      "io.llamastack.config.path": "app/config.yaml",
    }),
  });
});

afterAll(async () => {
  await proxy?.close();
  await registry?.stop();
});

beforeEach(() => {
  proxy.reset();
  proxy.fault = undefined;
});

const IMAGE = (): string => `${proxy.host}/faults/demo:v1`;

async function resolveWith(
  fault: (seen: Seen, index: number) => Fault | undefined,
  options: BaseConfigResolverOptions = {},
  image = IMAGE(),
): Promise<{ result: ResolvedBase; ms: number }> {
  proxy.fault = fault;
  const started = performance.now();
  const result = await createBaseConfigResolver({ insecureRegistries: [proxy.host], ...options }).resolve(image);
  return { result, ms: performance.now() - started };
}

/** Only the first request of `kind` gets the fault. */
const firstOf = (kind: Seen["kind"], fault: Fault) => {
  let used = false;
  return (seen: Seen): Fault | undefined => {
    if (seen.kind !== kind || used) return undefined;
    used = true;
    return fault;
  };
};

describe("integrity and size bounds", () => {
  test.each([
    ["the config blob", IMAGE, "blob" as const, /the image config does not match its digest sha256:/],
    ["the layer", () => `${proxy.host}/faults/layered:v1`, "blob" as const, /does not match its digest/],
    [
      "a tagged manifest (vs Docker-Content-Digest)",
      IMAGE,
      "manifest" as const,
      /the manifest v1 does not match its digest sha256:/,
    ],
  ])("a proxy that corrupts %s → DigestMismatch", async (_what, image, kind, message) => {
    const corruptLast = (seen: Seen): Fault | undefined =>
      seen.kind === kind && (kind === "manifest" || !image().includes("layered") || proxy.count("blob") === 2)
        ? { corrupt: true }
        : undefined;
    const { result } = await resolveWith(corruptLast, {}, image());
    expect(result).toMatchObject({ kind: "error", reason: "DigestMismatch", transient: true });
    expect(result.kind === "error" && result.message).toMatch(message);
  });

  test.each([
    ["with Content-Length", {}],
    ["chunked, without Content-Length", { "transfer-encoding": "chunked" }],
  ])("an oversized manifest (%s) is cut off at the limit", async (_how, headers) => {
    const body = JSON.stringify({ schemaVersion: 2, padding: "x".repeat(5 * 1024 * 1024) });
    const { result } = await resolveWith(() => ({
      respond: {
        status: 200,
        headers: { "content-type": "application/vnd.oci.image.manifest.v1+json", ...headers },
        body,
      },
    }));
    expect(result).toMatchObject({ kind: "error", reason: "ImageContentTooLarge", transient: false });
    expect(result.kind === "error" && result.message).toMatch(/manifest v1 is larger than the 4194304-byte limit/);
  });

  test("a config blob above the configured limit is refused from its descriptor, before any download", async () => {
    const { result } = await resolveWith(() => undefined, { limits: { configBytes: 64 } });
    expect(result).toMatchObject({ kind: "error", reason: "ImageContentTooLarge" });
    expect(proxy.count("blob")).toBe(0);
  });
});

describe("retries, rate limits and deadlines", () => {
  test("500 then success: retried", async () => {
    const { result } = await resolveWith(firstOf("manifest", { respond: { status: 500 } }));
    expect(result).toMatchObject({ kind: "found", config: configYaml("faults") });
    expect(proxy.count("manifest")).toBe(2);
  });

  test("503 every time: RegistryError after 1 + maxRetries attempts, transient", async () => {
    const { result } = await resolveWith(() => ({ respond: { status: 503 } }), { maxRetries: 2 });
    expect(result).toMatchObject({ kind: "error", reason: "RegistryError", transient: true });
    expect(result.kind === "error" && result.message).toMatch(/answered 503 after 3 attempts/);
    expect(proxy.count("manifest")).toBe(3);
  });

  test("429 with Retry-After: 1 is waited out, then succeeds", async () => {
    const { result, ms } = await resolveWith(
      firstOf("blob", { respond: { status: 429, headers: { "retry-after": "1" } } }),
    );
    expect(result).toMatchObject({ kind: "found" });
    expect(ms).toBeGreaterThanOrEqual(990);
    expect(proxy.count("blob")).toBe(2);
  });

  test("429 asking for longer than the retry cap: RegistryRateLimited at once, transient", async () => {
    const { result } = await resolveWith(() => ({ respond: { status: 429, headers: { "retry-after": "30" } } }));
    expect(result).toMatchObject({ kind: "error", reason: "RegistryRateLimited", transient: true });
    expect(result.kind === "error" && result.message).toMatch(/asked to retry after 30 s/);
    // No retry (one request), and no wait: waiting would have run into the 4 s deadline (RegistryTimeout).
    expect(proxy.count("manifest")).toBe(1);
  });

  test("a slow registry hits the overall deadline: RegistryTimeout, transient, on time", async () => {
    const { result, ms } = await resolveWith(() => ({ delayMs: 5000 }), { deadlineMs: 800 });
    expect(result).toMatchObject({ kind: "error", reason: "RegistryTimeout", transient: true });
    expect(result.kind === "error" && result.message).toMatch(/did not answer within the 800 ms deadline/);
    expect(ms).toBeGreaterThanOrEqual(790);
    // Cut by the deadline, not answered late: the one request the proxy holds for 5 s is still unanswered.
    expect([proxy.count("manifest"), proxy.answered("manifest")]).toEqual([1, 0]);
  });

  test("a body that stalls after the headers is cut by the per-request timeout", async () => {
    // The body would never end: only the 300 ms timeout can have ended the read, as the message says.
    const { result } = await resolveWith(() => ({ stallBody: true }), { requestTimeoutMs: 300 });
    expect(result).toMatchObject({ kind: "error", reason: "RegistryTimeout", transient: true });
    expect(result.kind === "error" && result.message).toMatch(/took longer than 300 ms/);
  });

  test("a registry that is down: RegistryUnavailable, transient", async () => {
    const closed = await startProxy(registry.host);
    await closed.close();
    const result = await createBaseConfigResolver({ insecureRegistries: [closed.host], retryBaseMs: 10 }).resolve(
      `${closed.host}/faults/demo:v1`,
    );
    expect(result).toMatchObject({ kind: "error", reason: "RegistryUnavailable", transient: true });
    expect(result.kind === "error" && result.message).toMatch(/cannot reach 127\.0\.0\.1:\d+: ECONNREFUSED/);
  });
});

describe("redirects", () => {
  test("a redirect to a link-local (metadata) address is not followed", async () => {
    const { result } = await resolveWith(
      firstOf("blob", { respond: { status: 307, headers: { location: "http://169.254.169.254/latest/meta-data/" } } }),
    );
    expect(result).toMatchObject({ kind: "error", reason: "RegistryNotAllowed" });
  });

  test("a same-origin redirect (blob storage behind the registry) is followed", async () => {
    const { result } = await resolveWith((seen) =>
      seen.kind === "blob" && proxy.count("blob") === 1
        ? { respond: { status: 307, headers: { location: seen.path } } }
        : undefined,
    );
    expect(result).toMatchObject({ kind: "found", config: configYaml("faults") });
    expect(proxy.count("blob")).toBe(2);
  });

  test("a redirect loop ends after 5 hops", async () => {
    const { result } = await resolveWith((seen) =>
      seen.kind === "blob" ? { respond: { status: 307, headers: { location: seen.path } } } : undefined,
    );
    expect(result).toMatchObject({ kind: "error", reason: "RegistryError" });
    expect(result.kind === "error" && result.message).toMatch(/redirected more than 5 times/);
  });
});

/**
 * Registry faults through the sync path (`syncWith` with the production resolver behind the
 * SSRF guard), against Debian's docker-registry behind the fault-injecting proxy of
 * tests/oci/support: slow answers, 500s, 429 with Retry-After, a truncated blob, a wrong
 * digest, an oversized manifest, an oversized label, a redirect to a link-local address.
 *
 * For each: the sync answers within a bound, with a Failed status whose ConfigGenerated
 * condition says what happened (a transient one asks to be called again), and every child of
 * the running server kept exactly as it was — for a named distribution too (its bundled
 * config is used only when the image is known to have no labels). tests/oci/faults.test.ts covers the same faults at the client level.
 */
import { performance } from "node:perf_hooks";
import { createBaseConfigResolver, type BaseConfigResolver, type BaseConfigResolverOptions } from "../../lib/oci";
import { createRegistryGuard } from "../../lib/oci/ssrf";
import { guardResolver } from "../../lib/oci/guard-resolver";
import { syncWith } from "../../lib/sync";
import type { KubeObject, SyncResponse } from "../../lib/wire/metacontroller";
import { b64, configYaml } from "../oci/support/configs";
import { pushImage, type PushedImage } from "../oci/support/images";
import { startProxy, type Fault, type Proxy, type Seen } from "../oci/support/proxy";
import { startRegistry, type Registry } from "../oci/support/registry";
import { aParent, aRequest, aSecret, deps, observedFrom } from "../sync-builders";

let registry: Registry;
let proxy: Proxy;
let image: PushedImage;
let configBlob: Buffer;

const DEADLINE_MS = 1500;

beforeAll(async () => {
  registry = await startRegistry();
  proxy = await startProxy(registry.host);
  const labels = {
    "io.llamastack.config.base64": b64(configYaml("from-label")),
    "com.ogx.distribution.version": "0.8.0",
  };
  image = await pushImage({ url: registry.url }, "faults/llsd", "0.8.0", { labels });
  await pushImage({ url: registry.url }, "faults/big-label", "0.8.0", {
    labels: { "io.llamastack.config.base64": b64(`${configYaml("big")}# ${"x".repeat(4096)}\n`) },
  });
  configBlob = Buffer.from(
    await (await fetch(`${registry.url}/v2/faults/llsd/blobs/${image.config.digest}`)).arrayBuffer(),
  );
}, 60_000);

afterAll(async () => {
  await proxy?.close();
  await registry?.stop();
});

beforeEach(() => {
  proxy.reset();
  proxy.fault = undefined;
});

/** What the hooks run: a fresh resolver (no cache) behind the SSRF guard, the proxy listed as insecure. */
function resolver(options: BaseConfigResolverOptions = {}): BaseConfigResolver {
  const policy = { insecureRegistries: [proxy.host] };
  return guardResolver(
    createBaseConfigResolver({
      ...policy,
      deadlineMs: DEADLINE_MS,
      requestTimeoutMs: 600,
      retryBaseMs: 20,
      ...options,
    }),
    createRegistryGuard(policy),
  );
}

const IMAGE = () => `${proxy.host}/faults/llsd:0.8.0`;
const spec = (distribution: object) => ({
  distribution,
  providers: { inference: { provider: "vllm", endpoint: "http://vllm:8000", apiKey: { name: "creds", key: "token" } } },
});
const creds = aSecret("creds", { token: "t" });
const condition = (r: SyncResponse) =>
  (r.status.conditions as { type: string; status: string; reason: string; message: string }[]).find(
    (c) => c.type === "ConfigGenerated",
  );

/** The children of a server that runs: a good sync of the image, applied. */
async function running(): Promise<{ desired: readonly KubeObject[]; observed: KubeObject[] }> {
  const good = await syncWith(aRequest(aParent(spec({ image: IMAGE() })), [], [creds]), deps(), resolver());
  expect(good.status.phase).toBe("Pending");
  expect(
    String((good.children.find((c) => c.kind === "ConfigMap")?.data as Record<string, string>)["config.yaml"]),
  ).toContain("image_name: from-label");
  return { desired: good.children, observed: observedFrom(good.children) };
}

const onlyKind =
  (kind: Seen["kind"], fault: Fault) =>
  (seen: Seen): Fault | undefined =>
    seen.kind === kind ? fault : undefined;
const firstOf = (kind: Seen["kind"], fault: Fault) => {
  let used = false;
  return (seen: Seen): Fault | undefined => {
    if (seen.kind !== kind || used) return undefined;
    used = true;
    return fault;
  };
};

interface FaultCase {
  readonly fault: () => (seen: Seen, index: number) => Fault | undefined;
  readonly options?: BaseConfigResolverOptions;
  readonly image?: () => string;
  readonly reason: "RegistryUnavailable" | "RegistryError";
  readonly message: RegExp;
  readonly transient: boolean;
}

const FAULTS: [string, FaultCase][] = [
  [
    "slow responses (past the deadline)",
    {
      fault: () => () => ({ delayMs: 5000 }),
      // Each request gives up after 600 ms (timeouts are not retried), well inside the deadline.
      // The deadline is far from it: an event loop stalled past both (CI under load) fires the
      // two timers together, and the deadline's message would then win the race.
      options: { deadlineMs: 4000 },
      reason: "RegistryUnavailable",
      message: /a request to 127\.0\.0\.1:\d+ took longer than 600 ms/,
      transient: true,
    },
  ],
  [
    "a registry slower than the whole deadline allows",
    {
      fault: () => () => ({ delayMs: 5000 }),
      options: { requestTimeoutMs: 5000 },
      reason: "RegistryUnavailable",
      message: /did not answer within the 1500 ms deadline/,
      transient: true,
    },
  ],
  [
    "a body that stalls after its headers",
    {
      fault: () => onlyKind("manifest", { stallBody: true }),
      reason: "RegistryUnavailable",
      message: /took longer than 600 ms/,
      transient: true,
    },
  ],
  [
    "500 on every request",
    {
      fault: () => () => ({ respond: { status: 500 } }),
      reason: "RegistryUnavailable",
      message: /answered 500 after 3 attempts/,
      transient: true,
    },
  ],
  [
    "429 with a Retry-After longer than the deadline allows",
    {
      fault: () => () => ({ respond: { status: 429, headers: { "retry-after": "30" } } }),
      reason: "RegistryUnavailable",
      message: /rate limiting requests \(429\).*retry after 30 s/,
      transient: true,
    },
  ],
  [
    "a truncated config blob",
    {
      fault: () =>
        onlyKind("blob", {
          respond: {
            status: 200,
            headers: { "content-type": "application/octet-stream" },
            body: configBlob.subarray(0, Math.floor(configBlob.length / 2)),
          },
        }),
      reason: "RegistryUnavailable",
      message: /does not match its digest/,
      transient: true,
    },
  ],
  [
    "a config blob with the wrong digest (same size, other bytes)",
    {
      fault: () => onlyKind("blob", { corrupt: true }),
      reason: "RegistryUnavailable",
      message: /the image config does not match its digest sha256:/,
      transient: true,
    },
  ],
  [
    "a manifest that does not match Docker-Content-Digest",
    {
      fault: () => onlyKind("manifest", { corrupt: true }),
      reason: "RegistryUnavailable",
      message: /the manifest 0\.8\.0 does not match its digest/,
      transient: true,
    },
  ],
  [
    "an oversized manifest (5 MiB)",
    {
      fault: () =>
        onlyKind("manifest", {
          respond: {
            status: 200,
            headers: { "content-type": "application/vnd.oci.image.manifest.v1+json" },
            body: JSON.stringify({ schemaVersion: 2, padding: "x".repeat(5 * 1024 * 1024) }),
          },
        }),
      reason: "RegistryError",
      message: /manifest 0\.8\.0 is larger than the 4194304-byte limit/,
      transient: false,
    },
  ],
  [
    "an oversized config label",
    {
      fault: () => () => undefined,
      options: { limits: { fileBytes: 1024 } },
      image: () => `${proxy.host}/faults/big-label:0.8.0`,
      reason: "RegistryError",
      message: /label io\.llamastack\.config\.base64 decodes to more than the 1024-byte limit/,
      transient: false,
    },
  ],
  [
    "a redirect to a link-local (metadata) address",
    {
      fault: () =>
        onlyKind("blob", {
          respond: { status: 307, headers: { location: "http://169.254.169.254/latest/meta-data/iam/" } },
        }),
      reason: "RegistryError",
      message: /redirected to a location this service does not follow/,
      transient: false,
    },
  ],
];

describe("registry faults through the sync hook", () => {
  it.each(FAULTS)(
    "%s: bounded, Failed with the reason, running children kept",
    async (_title, c) => {
      const { desired, observed } = await running();
      proxy.fault = c.fault();
      // Bounded by the reason, not by elapsed time (a loaded machine stretches that): each fault
      // ends in its own reason, a slow one in the deadline's.
      const r = await syncWith(
        aRequest(aParent(spec({ image: (c.image ?? IMAGE)() }), { generation: 2 }), observed, [creds]),
        deps(),
        resolver(c.options),
      );
      expect(r.status.phase).toBe("Failed");
      expect(condition(r)).toMatchObject({
        status: "False",
        reason: c.reason,
        message: expect.stringMatching(c.message),
      });
      expect(r.children).toEqual(desired);
      if (c.transient) expect(r.resyncAfterSeconds).toBeGreaterThan(0);
      else expect(r.resyncAfterSeconds).toBeUndefined();
    },
    15_000,
  );

  it("429 with Retry-After: 1 once is waited out, and the sync succeeds", async () => {
    proxy.fault = firstOf("manifest", { respond: { status: 429, headers: { "retry-after": "1" } } });
    const started = performance.now();
    const r = await syncWith(
      aRequest(aParent(spec({ image: IMAGE() })), [], [creds]),
      deps(),
      resolver({ deadlineMs: 4000 }),
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual(990);
    expect(r.status.phase).toBe("Pending");
    expect(proxy.count("manifest")).toBe(2);
  });

  it("a 500 once is retried, and the sync succeeds", async () => {
    proxy.fault = firstOf("blob", { respond: { status: 500 } });
    const r = await syncWith(aRequest(aParent(spec({ image: IMAGE() })), [], [creds]), deps(), resolver());
    expect(r.status.phase).toBe("Pending");
  });

  // A registry error is not "the image has no labels": switching to the bundled config would
  // roll the pods now and roll them back when the registry answers again.
  it("for a named distribution, every fault keeps the running children and config, says so, and resyncs; no roll when the registry is back", async () => {
    const table = [{ name: "starter", image: IMAGE(), release: "0.7" as const }];
    const named = { ...deps(), distributions: table };
    const good = await syncWith(aRequest(aParent(spec({ name: "starter" })), [], [creds]), named, resolver());
    const configMap = (r: SyncResponse) => r.children.find((c) => c.kind === "ConfigMap")?.metadata.name;
    expect(
      String((good.children.find((c) => c.kind === "ConfigMap")?.data as Record<string, string>)["config.yaml"]),
    ).toContain("image_name: from-label");
    const observed = observedFrom(good.children);
    for (const [title, c] of FAULTS.filter(([, f]) => f.image === undefined)) {
      proxy.fault = c.fault();
      const r = await syncWith(
        aRequest(aParent(spec({ name: "starter" }), { generation: 2 }), observed, [creds]),
        named,
        resolver(c.options),
      );
      expect({ title, phase: r.status.phase, children: r.children }).toEqual({
        title,
        phase: "Failed",
        children: good.children,
      });
      expect({ title, condition: condition(r) }).toEqual({
        title,
        condition: expect.objectContaining({
          status: "False",
          reason: c.reason,
          message: expect.stringMatching(/the running config and children are kept/),
        }),
      });
      expect({ title, resync: r.resyncAfterSeconds }).toEqual({ title, resync: c.transient ? 30 : undefined });
      expect(JSON.stringify(r.status)).not.toContain("using the config bundled");
    }
    proxy.fault = undefined;
    const back = await syncWith(
      aRequest(aParent(spec({ name: "starter" }), { generation: 2 }), observed, [creds]),
      named,
      resolver(),
    );
    expect(configMap(back)).toBe(configMap(good));
  }, 30_000);

  it("a first-time CR of a named distribution while the registry is down: Failed, nothing created, resynced with backoff", async () => {
    const table = [{ name: "starter", image: IMAGE(), release: "0.7" as const }];
    proxy.fault = () => ({ respond: { status: 503 } });
    const first = await syncWith(
      aRequest(aParent(spec({ name: "starter" })), [], [creds]),
      { ...deps(), distributions: table },
      resolver(),
    );
    expect(first.status.phase).toBe("Failed");
    expect(first.children).toEqual([]);
    expect(condition(first)).toMatchObject({
      reason: "RegistryUnavailable",
      message: expect.stringContaining("LLSD_READ_IMAGE_LABELS=false"),
    });
    expect(first.resyncAfterSeconds).toBe(30);
    // Still down 2 minutes later: the next resync waits as long as the failure has lasted.
    const later = new Date(deps().now().getTime() + 120_000);
    const again = await syncWith(
      aRequest(aParent(spec({ name: "starter" }), { status: first.status }), [], [creds]),
      { ...deps(later), distributions: table },
      resolver(),
    );
    expect(again.resyncAfterSeconds).toBe(120);
  }, 15_000);

  it("concurrent syncs during a slow registry all answer within the bound", async () => {
    const { desired, observed } = await running();
    proxy.fault = () => ({ delayMs: 5000 });
    const answeredBefore = proxy.answered("manifest");
    const shared = resolver();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        syncWith(
          aRequest(
            aParent(spec({ image: IMAGE() }), { generation: 2, name: i === 0 ? "demo" : `p${i}` }),
            i === 0 ? observed : [],
            [creds],
          ),
          deps(),
          shared,
        ),
      ),
    );
    // Each ended at a bound (the request timeout or the deadline), not when the registry
    // answered: every sync says so, and the proxy answered none of the requests it held.
    expect(results.every((r) => r.status.phase === "Failed")).toBe(true);
    const bound = /took longer than \d+ ms|within the \d+ ms deadline/;
    expect(results.filter((r) => !bound.test(condition(r)?.message ?? ""))).toEqual([]);
    expect(proxy.answered("manifest")).toBe(answeredBefore);
    expect(results[0]!.children).toEqual(desired);
  });
});

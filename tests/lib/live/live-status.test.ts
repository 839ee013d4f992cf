/**
 * lib/live against a loopback server that answers like the real one: what a check returns,
 * that it never outlives its deadline, and how answers are cached per parent.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createLiveStatus, readServerInfo } from "../../../lib/live";
import { PROVIDERS_WITHHELD } from "../../../lib/live/server-info";
import { getJson } from "../../../lib/live/http-json";
import type { LiveTarget } from "../../../lib/live/types";
import { PROVIDERS, startFakeServer, type FakeServer } from "./fake-server";

let server: FakeServer;
beforeAll(async () => {
  server = await startFakeServer();
});
afterAll(async () => server.close());
beforeEach(() => server.reset());

const OPTIONS = { timeoutMs: 300, maxBytes: 1024 * 1024 };
const target = (fingerprint = "f1", key = "team-a/demo"): LiveTarget => ({
  key,
  url: "http://demo-service.team-a.svc.cluster.local:8321",
  fingerprint,
  tls: false,
});

/** A port nothing listens on: a server opened and closed again. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

describe("readServerInfo()", () => {
  it("reads the version and the providers, sorted by api then id, with health filled in", async () => {
    const report = await readServerInfo(server.url, OPTIONS);
    expect(report).toEqual({
      url: server.url,
      version: "0.7.1",
      providers: [
        { ...PROVIDERS[1], health: { status: "Not Implemented", message: "Provider does not implement health check" } },
        { ...PROVIDERS[0], health: { status: "OK", message: "" } },
        { ...PROVIDERS[2], health: { status: "OK", message: "" } },
      ],
      problems: [],
    });
    expect([server.count("/v1/version"), server.count("/v1/providers")]).toEqual([1, 1]);
  });

  it.each([
    ["an error status", { kind: "status", status: 500 }, "GET /v1/providers: HTTP 500"],
    ["no JSON", { kind: "raw", text: "<html>" }, "GET /v1/providers: the answer is not JSON"],
    [
      "the wrong shape",
      { kind: "answer", body: { providers: [] } },
      'GET /v1/providers: the answer has no "data" list',
    ],
  ] as const)(
    "given %s from /v1/providers, keeps the version and names the problem",
    async (_title, behaviour, problem) => {
      server.set("/v1/providers", behaviour);
      const report = await readServerInfo(server.url, OPTIONS);
      expect(report).toEqual({ url: server.url, version: "0.7.1", problems: [problem] });
    },
  );

  it.each([401, 403])(
    "given %s from /v1/providers while /v1/version answers (spec.auth on), says why providers are not listed: no problem",
    async (status) => {
      server.set("/v1/providers", { kind: "status", status });
      const report = await readServerInfo(server.url, OPTIONS);
      expect(report).toEqual({ url: server.url, version: "0.7.1", problems: [], withheld: PROVIDERS_WITHHELD });
    },
  );

  it("given 401 from both (a config of its own whose route policy closes /v1/version), names both problems", async () => {
    server.set("/v1/providers", { kind: "status", status: 401 });
    server.set("/v1/version", { kind: "status", status: 401 });
    const report = await readServerInfo(server.url, OPTIONS);
    expect(report).toEqual({
      url: server.url,
      problems: [
        "GET /v1/version: HTTP 401 (the server requires authentication)",
        "GET /v1/providers: HTTP 401 (the server requires authentication)",
      ],
    });
  });

  it("leaves out provider entries without api, provider_id and provider_type, and shrinks a huge config", async () => {
    server.set("/v1/providers", {
      kind: "answer",
      body: {
        data: [
          { api: "inference", provider_type: "remote::vllm" },
          "nonsense",
          {
            api: "safety",
            provider_id: "guard",
            provider_type: "inline::llama-guard",
            config: { blob: "x".repeat(20_000) },
            health: "bad",
          },
        ],
      },
    });
    const report = await readServerInfo(server.url, OPTIONS);
    expect(report.providers).toEqual([
      {
        api: "safety",
        provider_id: "guard",
        provider_type: "inline::llama-guard",
        config: { omitted: "the server's config for this provider is larger than 16384 bytes" },
        health: { status: "", message: "" },
      },
    ]);
    expect(report.problems).toEqual([]);
  });

  it("given a version answer without a version, says so", async () => {
    server.set("/v1/version", { kind: "answer", body: { name: "llama-stack" } });
    expect((await readServerInfo(server.url, OPTIONS)).problems).toEqual([
      'GET /v1/version: the answer has no "version"',
    ]);
  });
});

describe("getJson()", () => {
  it("gives up on a server that does not answer, within the timeout", async () => {
    server.set("/v1/version", { kind: "hang" });
    // The server never answers: only the timeout ends the call.
    expect(await getJson(`${server.url}/v1/version`, { timeoutMs: 200, maxBytes: 1000 })).toEqual({
      ok: false,
      problem: "no answer within 0.2 s",
    });
  });

  it("cuts off an answer larger than maxBytes", async () => {
    server.set("/v1/providers", { kind: "answer", body: { data: PROVIDERS } });
    expect(await getJson(`${server.url}/v1/providers`, { timeoutMs: 500, maxBytes: 50 })).toEqual({
      ok: false,
      problem: "answer larger than 50 bytes",
    });
  });

  it("names a refused connection and an unknown host in stable words", async () => {
    const port = await closedPort();
    expect(await getJson(`http://127.0.0.1:${port}/v1/version`, { timeoutMs: 500, maxBytes: 1000 })).toEqual({
      ok: false,
      problem: "connection refused",
    });
    const unknown = await getJson("http://llsd-no-such-host.invalid:8321/v1/version", {
      timeoutMs: 2000,
      maxBytes: 1000,
    });
    expect(unknown.ok).toBe(false);
    expect(["host not found", "host name lookup failed", "no answer within 2 s"]).toContain(
      (unknown as { problem: string }).problem,
    );
  });
});

describe("createLiveStatus()", () => {
  const live = (over: Parameters<typeof createLiveStatus>[0] = {}) =>
    createLiveStatus({ timeoutMs: 300, baseUrl: () => server.url, ...over });

  it("asks the server at the injected base URL and reuses the answer for the same parent and pods", async () => {
    const status = live();
    const first = await status.check(target());
    const again = await status.check(target());
    expect(first.problems).toEqual([]);
    expect(again).toBe(first);
    expect(server.count("/v1/version")).toBe(1);
  });

  it("asks again when the pods changed (another fingerprint) or the answer is older than the TTL", async () => {
    let now = 0;
    const status = live({ ttlMs: 1000, now: () => now });
    await status.check(target("f1"));
    await status.check(target("f2"));
    expect(server.count("/v1/version")).toBe(2);
    now = 999;
    await status.check(target("f2"));
    expect(server.count("/v1/version")).toBe(2);
    now = 1001;
    await status.check(target("f2"));
    expect(server.count("/v1/version")).toBe(3);
  });

  it("retries a failed check after the (shorter) failure TTL", async () => {
    let now = 0;
    const status = live({ ttlMs: 100_000, failureTtlMs: 500, now: () => now });
    server.set("/v1/version", { kind: "status", status: 503 });
    expect((await status.check(target())).problems).toEqual(["GET /v1/version: HTTP 503"]);
    now = 400;
    await status.check(target());
    expect(server.count("/v1/version")).toBe(1);
    server.reset();
    now = 600;
    expect((await status.check(target())).problems).toEqual([]);
    expect(server.count("/v1/version")).toBe(1);
  });

  it("shares one check between concurrent syncs of a parent, and keeps parents apart", async () => {
    server.set("/v1/version", { kind: "answer", body: { version: "0.7.1" }, delayMs: 100 });
    const status = live();
    const reports = await Promise.all([
      ...Array.from({ length: 10 }, () => status.check(target())),
      status.check(target("f1", "team-a/other")),
    ]);
    expect(new Set(reports.slice(0, 10)).size).toBe(1);
    expect(server.count("/v1/version")).toBe(2);
  });

  it("never takes longer than its deadline, whatever the server does", async () => {
    server.set("/v1/version", { kind: "hang" });
    server.set("/v1/providers", { kind: "answer", body: { data: [] }, delayMs: 5000 });
    // One never answers, one would after 5 s: both are reported cut at 0.25 s.
    const report = await live({ timeoutMs: 250 }).check(target());
    expect(report.problems).toEqual([
      "GET /v1/version: no answer within 0.25 s",
      "GET /v1/providers: no answer within 0.25 s",
    ]);
  });

  it.each([
    ["remembers an answer within its bytes", 2 ** 20, 1],
    ["keeps no answer above 1/32 of its bytes: asks every time", 512, 3],
  ])("%s", async (_title, cacheBytes, asked) => {
    const status = live({ cacheBytes });
    for (let i = 0; i < 3; i++) await status.check(target("f", "ns/a"));
    expect(server.count("/v1/version")).toBe(asked);
  });
});

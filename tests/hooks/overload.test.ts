/**
 * Overload and time limits (hooks/overload.ts): past MAX_CONCURRENT_HOOKS calls in flight the
 * answer is 429 with Retry-After; past HOOK_TIMEOUT_MS it is 503 with Retry-After, never a
 * hang; probes are never limited. Through real HTTP, several calls at once.
 */
import { connect } from "node:net";
import {
  createOverloadGuard,
  OVERLOAD_DEFAULTS,
  overloadOptionsFromEnv,
  type OverloadGuard,
} from "../../hooks/overload";
import { startHarness, type Harness } from "../reliability/support";
import { aSyncBody, echoCustomize, gate, until } from "./helpers";

const review = {
  apiVersion: "admission.k8s.io/v1",
  kind: "AdmissionReview",
  request: {
    uid: "u",
    operation: "DELETE",
    kind: { group: "llamastack.io", version: "v1alpha2", kind: "LlamaStackDistribution" },
  },
};

describe("the concurrency limit", () => {
  let harness: Harness;
  let guard: OverloadGuard;
  const g = gate();
  beforeAll(async () => {
    guard = createOverloadGuard({ maxConcurrent: 2, timeoutMs: 5000 });
    harness = await startHarness({
      handlers: { sync: g.sync, customize: echoCustomize },
      app: { overload: guard },
      maxSockets: 16,
    });
  });
  afterAll(async () => {
    g.releaseAll();
    await harness.close();
  });

  it("answers 429 JSON with Retry-After once the limit is reached, for every hook route; probes still answer", async () => {
    const first = harness.post("/sync", aSyncBody());
    const second = harness.post("/sync", aSyncBody());
    await until(() => g.waiting.length === 2);
    expect(guard.inFlight()).toBe(2);

    for (const [path, body] of [
      ["/sync", aSyncBody()],
      ["/customize", { parent: aSyncBody().parent }],
      ["/validate", review],
    ] as const) {
      const rejected = await harness.post(path, body);
      expect({
        path,
        status: rejected.status,
        retryAfter: rejected.headers["retry-after"],
        body: JSON.parse(rejected.text),
      }).toEqual({
        path,
        status: 429,
        retryAfter: "1",
        body: { error: "too many hook calls in flight (limit 2); retry after 1 s" },
      });
    }
    expect((await harness.send("GET", "/healthz")).status).toBe(200);
    expect((await harness.send("GET", "/readyz")).status).toBe(200);
    expect((await harness.send("GET", "/metrics")).text).toContain(
      'llsd_hook_requests_total{hook="sync",outcome="overloaded"} 1',
    );

    g.releaseAll();
    expect([(await first).status, (await second).status]).toEqual([200, 200]);
    await until(() => guard.inFlight() === 0);
    const after = harness.post("/sync", aSyncBody());
    await until(() => g.waiting.length === 1);
    g.releaseAll();
    expect((await after).status).toBe(200);
  });

  it("under a burst of 50 calls, every answer is a 200 or a 429, and the slots all come back", async () => {
    const burst = Array.from({ length: 50 }, () => harness.post("/sync", aSyncBody()));
    await until(() => g.waiting.length === 2);
    const release = setInterval(() => g.releaseAll(), 5);
    const statuses = (await Promise.all(burst)).map((r) => r.status);
    clearInterval(release);
    expect(new Set(statuses)).toEqual(new Set([200, 429]));
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    await until(() => guard.inFlight() === 0);
  });
});

describe("the time limit", () => {
  let harness: Harness;
  let guard: OverloadGuard;
  const slow = gate();
  beforeAll(async () => {
    guard = createOverloadGuard({ maxConcurrent: 8, timeoutMs: 200 });
    harness = await startHarness({
      handlers: { sync: slow.sync, customize: echoCustomize },
      app: { overload: guard },
      logLevel: "debug",
    });
  });
  afterAll(async () => {
    slow.releaseAll();
    await harness.close();
  });

  it("answers 503 JSON with Retry-After when the handler takes too long; its late answer is dropped and logged", async () => {
    const answer = await harness.post("/sync", aSyncBody());
    expect({ status: answer.status, retryAfter: answer.headers["retry-after"], body: JSON.parse(answer.text) }).toEqual(
      { status: 503, retryAfter: "1", body: { error: "the hook call did not finish within 200 ms; retry after 1 s" } },
    );
    // Not an elapsed-time bound (a loaded machine stretches it): the handler is still held, so the 503 is the guard's.
    expect(answer.ms).toBeGreaterThanOrEqual(190);
    expect(slow.waiting).toHaveLength(1);
    await until(() => guard.inFlight() === 0);

    slow.releaseAll();
    await until(() => harness.logText().includes("its answer was dropped"));
    const lines = harness
      .logText()
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { msg: string; level: number });
    expect(lines.map((l) => l.msg)).toEqual(
      expect.arrayContaining([
        "Hook call ran past its time limit",
        "Hook call finished after its time limit; its answer was dropped",
      ]),
    );
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
    expect((await harness.send("GET", "/metrics")).text).toContain(
      'llsd_hook_requests_total{hook="sync",outcome="timeout"} 1',
    );
    expect((await harness.send("GET", "/healthz")).status).toBe(200);
  });

  it("cuts a client that sends its body too slowly: 503, then the connection is closed", async () => {
    const socket = connect(harness.port, "127.0.0.1");
    let received = "";
    socket.on("data", (chunk) => void (received += chunk.toString("utf8")));
    const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
    socket.write(
      'POST /sync HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"parent":',
    );
    // The 503 names the 200 ms bound: the guard cut the call, the client never finished its body.
    await closed;
    expect(received).toMatch(/^HTTP\/1\.1 503 /);
    expect(received).toMatch(/\r\nConnection: close\r\n/i);
    expect(received).toContain('{"error":"the hook call did not finish within 200 ms; retry after 1 s"}');
  });
});

describe("overloadOptionsFromEnv", () => {
  it("defaults to 64 calls and 9 s (under Metacontroller's 10 s)", () => {
    expect(overloadOptionsFromEnv({})).toEqual({ maxConcurrent: 64, timeoutMs: 9000, retryAfterSeconds: 1 });
    expect(OVERLOAD_DEFAULTS.timeoutMs).toBeLessThan(10_000);
  });

  it("reads MAX_CONCURRENT_HOOKS and HOOK_TIMEOUT_MS, and refuses what is not a positive integer", () => {
    expect(overloadOptionsFromEnv({ MAX_CONCURRENT_HOOKS: "8", HOOK_TIMEOUT_MS: "2500" })).toEqual({
      maxConcurrent: 8,
      timeoutMs: 2500,
      retryAfterSeconds: 1,
    });
    for (const bad of ["0", "-1", "1.5", "x"]) {
      expect(() => overloadOptionsFromEnv({ MAX_CONCURRENT_HOOKS: bad })).toThrow(
        `MAX_CONCURRENT_HOOKS must be a positive integer, got "${bad}"`,
      );
      expect(() => overloadOptionsFromEnv({ HOOK_TIMEOUT_MS: bad })).toThrow(
        `HOOK_TIMEOUT_MS must be a positive integer, got "${bad}"`,
      );
    }
  });
});

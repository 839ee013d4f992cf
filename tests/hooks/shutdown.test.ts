/**
 * Shutdown (hooks/service.ts, hooks/main.ts): on SIGTERM readiness turns false at once, calls
 * keep being answered through the drain delay (with `Connection: close`), calls in flight
 * finish, then the process exits 0 — and exits 1 when a call is still running too long after.
 * In-process with an injected exit, and once for real with `node hooks/main.ts` and a signal.
 */
import { connect } from "node:net";
import { createLogger } from "../../hooks/logger";
import { serviceConfigFromEnv, startService, type ServiceConfig } from "../../hooks/service";
import { startServiceProcess } from "../reliability/process";
import { httpClient } from "../reliability/support";
import { aSyncBody, echoCustomize, echoSync, gate, until } from "./helpers";

const config = (overrides: Partial<ServiceConfig> = {}): ServiceConfig => ({
  port: 0,
  tlsPort: 0,
  syncTlsPort: 0,
  syncPlainHttp: true,
  overload: { maxConcurrent: 8, timeoutMs: 5000, retryAfterSeconds: 1 },
  drainDelayMs: 300,
  shutdownTimeoutMs: 2000,
  ...overrides,
});

describe("startService shutdown", () => {
  it("SIGTERM: not ready at once, still answering through the drain delay, in-flight calls finish, then exit 0", async () => {
    const g = gate();
    const exits: { code: number; at: number }[] = [];
    const service = startService(config(), {
      logger: createLogger({ level: "silent" }),
      handlers: { sync: g.sync, customize: echoCustomize },
      exit: (code) => void exits.push({ code, at: Date.now() }),
    });
    await service.listening;
    const client = httpClient(service.ports().http);
    const inFlight = client.post("/sync", aSyncBody());
    await until(() => g.waiting.length === 1);

    const signalled = Date.now();
    service.shutdown("SIGTERM");
    const ready = await client.send("GET", "/readyz");
    expect({ status: ready.status, connection: ready.headers.connection }).toEqual({
      status: 503,
      connection: "close",
    });
    const duringDrain = client.post("/customize", { parent: aSyncBody().parent });
    expect((await duringDrain).status).toBe(200);
    expect(exits).toEqual([]);

    await new Promise((r) => setTimeout(r, 400)); // past the drain delay: the listener is closing
    expect(exits).toEqual([]); // a call is still in flight
    g.releaseAll();
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    await until(() => exits.length > 0);
    expect(exits[0]!.code).toBe(0);
    expect(exits[0]!.at - signalled).toBeGreaterThanOrEqual(300);
    client.close();
  });

  it("a call still running past the shutdown timeout: exit 1", async () => {
    const g = gate();
    const exits: number[] = [];
    const service = startService(
      config({
        drainDelayMs: 0,
        shutdownTimeoutMs: 200,
        overload: { maxConcurrent: 8, timeoutMs: 10_000, retryAfterSeconds: 1 },
      }),
      {
        logger: createLogger({ level: "silent" }),
        handlers: { sync: g.sync, customize: echoCustomize },
        exit: (code) => void exits.push(code),
      },
    );
    await service.listening;
    const client = httpClient(service.ports().http);
    const stuck = client.post("/sync", aSyncBody()).catch(() => undefined);
    await until(() => g.waiting.length === 1);
    service.shutdown("SIGTERM");
    await until(() => exits.length > 0);
    expect(exits).toEqual([1]);
    g.releaseAll();
    await stuck;
    client.close();
  });

  it("SIGINT (Ctrl-C) skips the drain delay", async () => {
    const exits: number[] = [];
    const service = startService(config({ drainDelayMs: 60_000 }), {
      logger: createLogger({ level: "silent" }),
      handlers: { sync: echoSync, customize: echoCustomize },
      exit: (code) => void exits.push(code),
    });
    await service.listening;
    service.shutdown("SIGINT");
    await until(() => exits.length > 0, 2000);
    expect(exits).toEqual([0]);
  });
});

describe("serviceConfigFromEnv", () => {
  it("has defaults for every setting", () => {
    expect(serviceConfigFromEnv({})).toEqual({
      port: 8080,
      tlsPort: 8443,
      syncTlsPort: 8444,
      syncPlainHttp: true,
      overload: { maxConcurrent: 64, timeoutMs: 9000, retryAfterSeconds: 1 },
      drainDelayMs: 5000,
      shutdownTimeoutMs: 10_000,
    });
  });

  it("names the variable when a value is wrong", () => {
    expect(() => serviceConfigFromEnv({ SHUTDOWN_DRAIN_DELAY_MS: "soon" })).toThrow(
      'SHUTDOWN_DRAIN_DELAY_MS must be a whole number of milliseconds, got "soon"',
    );
    expect(() => serviceConfigFromEnv({ PORT: "70000" })).toThrow(
      'PORT must be an integer from 0 to 65535, got "70000"',
    );
    expect(() => serviceConfigFromEnv({ HOOK_TIMEOUT_MS: "0" })).toThrow(
      'HOOK_TIMEOUT_MS must be a positive integer, got "0"',
    );
  });
});

describe("node hooks/main.ts", () => {
  it("on SIGTERM: /readyz 503 during the drain delay, the call in flight is answered, exit 0", async () => {
    const service = await startServiceProcess({ SHUTDOWN_DRAIN_DELAY_MS: "600", LOG_LEVEL: "debug" });
    try {
      // A call in flight: its body arrives in two parts, the second after the signal.
      const body = JSON.stringify(aSyncBody());
      const socket = connect(service.port, "127.0.0.1");
      let answer = "";
      socket.on("data", (chunk) => void (answer += chunk.toString("utf8")));
      socket.write(
        `POST /sync HTTP/1.1\r\nHost: hooks\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 20)}`,
      );
      await new Promise((r) => setTimeout(r, 100));

      service.signal("SIGTERM");
      await until(() => service.lines().some((l) => l.msg.startsWith("Shutting down")));
      const client = httpClient(service.port);
      const ready = await client.send("GET", "/readyz");
      expect({ status: ready.status, body: JSON.parse(ready.text) }).toEqual({
        status: 503,
        body: { error: "not ready" },
      });
      client.close();

      socket.end(body.slice(20));
      await until(() => answer.includes("\r\n\r\n{"));
      expect(answer).toMatch(/^HTTP\/1\.1 200 /);
      expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)).children).toEqual(expect.any(Array));

      expect(await service.exited).toBe(0);
      expect(service.lines().map((l) => l.msg)).toEqual(
        expect.arrayContaining([
          "Shutting down: not ready, listeners close after the drain delay",
          "Answered hook call",
          "Stopped",
        ]),
      );
    } finally {
      await service.kill();
    }
  }, 30_000);

  it.each([
    ["MAX_CONCURRENT_HOOKS", "lots", {}, /MAX_CONCURRENT_HOOKS must be a positive integer, got \\"lots\\"/],
    ["LLSD_CACHE_MB", "lots", {}, /LLSD_CACHE_MB must be a number of MiB \(0 turns every cache off\), got \\"lots\\"/],
    [
      "LLSD_LIVE_TIMEOUT_MS",
      "lots",
      { LLSD_LIVE_STATUS: "true" },
      /LLSD_LIVE_TIMEOUT_MS must be a positive number, got \\"lots\\"/,
    ],
    ["LLSD_READ_IMAGE_LABELS", "maybe", {}, /LLSD_READ_IMAGE_LABELS must be true or false, got \\"maybe\\"/],
    [
      "LOG_LEVEL",
      "verbose",
      {},
      /LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got \\"verbose\\"/,
    ],
  ])(
    "refuses to start with a bad %s, naming it in a fatal log line",
    async (variable, value, env, message) => {
      const outcome = await startServiceProcess({ ...env, [variable]: value }).then(
        async (service) => {
          await service.kill();
          return "it started";
        },
        (err: Error) => err.message,
      );
      expect(outcome).toMatch(/exited with 1 before listening[\s\S]*"msg":"Bad configuration"/);
      expect(outcome).toMatch(message);
    },
    30_000,
  );
});

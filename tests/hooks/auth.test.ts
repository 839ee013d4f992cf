/**
 * Bearer-token authentication (hooks/auth.ts): /sync and /customize require the token when one
 * is configured; the apiserver's /validate and /convert, the probes and /metrics stay open.
 */
import * as crypto from "node:crypto";

jest.mock("node:crypto", () => {
  const actual = jest.requireActual<typeof crypto>("node:crypto");
  return { ...actual, timingSafeEqual: jest.fn(actual.timingSafeEqual) };
});
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import request from "supertest";
import { createApp } from "../../hooks/app";
import { checkBearer, fileToken, staticToken, tokenSourceFromEnv, type TokenSource } from "../../hooks/auth";
import { createLogger } from "../../hooks/logger";
import { createMetrics } from "../../hooks/metrics";
import { aSyncBody, echoCustomize, echoSync, LEVEL, type LogLine } from "./helpers";

const TOKEN = "s3cr3t-hook-token-0123456789";

function anAuthApp(bearerToken: TokenSource | undefined) {
  const raw: string[] = [];
  const logger = createLogger({ level: "debug", destination: { write: (line: string) => void raw.push(line) } });
  const metrics = createMetrics();
  const app = createApp({
    handlers: { sync: echoSync, customize: echoCustomize },
    logger,
    metrics,
    isReady: () => true,
    ...(bearerToken ? { bearerToken } : {}),
  });
  return { app, metrics, lines: () => raw.map((l) => JSON.parse(l) as LogLine), logText: () => raw.join("") };
}

const review = {
  apiVersion: "admission.k8s.io/v1",
  kind: "AdmissionReview",
  request: {
    uid: "u-1",
    operation: "CREATE",
    namespace: "team-a",
    name: "llsd",
    kind: { group: "llamastack.io", version: "v1alpha2", kind: "LlamaStackDistribution" },
    object: {
      apiVersion: "llamastack.io/v1alpha2",
      kind: "LlamaStackDistribution",
      metadata: { name: "llsd", namespace: "team-a" },
      spec: { distribution: { name: "starter" } },
    },
  },
};
const conversion = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "ConversionReview",
  request: { uid: "c-1", desiredAPIVersion: "llamastack.io/v1alpha2", objects: [] },
};

describe("with a bearer token configured", () => {
  const test = anAuthApp(staticToken(TOKEN));

  it.each([
    ["/sync", aSyncBody()],
    ["/customize", { parent: aSyncBody().parent }],
  ])("POST %s with the token is answered", async (path, body) => {
    const res = await request(test.app).post(path).set("Authorization", `Bearer ${TOKEN}`).send(body);
    expect(res.status).toBe(200);
  });

  it.each([
    [
      "no Authorization header",
      undefined,
      "authentication required: send Authorization: Bearer <token>",
      'Bearer realm="llsd-hooks"',
    ],
    ["an empty header", "", "authentication required: send Authorization: Bearer <token>", 'Bearer realm="llsd-hooks"'],
    [
      "another scheme",
      `Basic ${Buffer.from(`x:${TOKEN}`).toString("base64")}`,
      "the Authorization header must be: Bearer <token>",
      'Bearer realm="llsd-hooks", error="invalid_token"',
    ],
    [
      "a bare token",
      TOKEN,
      "the Authorization header must be: Bearer <token>",
      'Bearer realm="llsd-hooks", error="invalid_token"',
    ],
    [
      "a wrong token",
      "Bearer wrong",
      "the bearer token is not valid",
      'Bearer realm="llsd-hooks", error="invalid_token"',
    ],
    [
      "the token with a suffix",
      `Bearer ${TOKEN}x`,
      "the bearer token is not valid",
      'Bearer realm="llsd-hooks", error="invalid_token"',
    ],
    [
      "a prefix of the token",
      `Bearer ${TOKEN.slice(0, -1)}`,
      "the bearer token is not valid",
      'Bearer realm="llsd-hooks", error="invalid_token"',
    ],
    [
      "two tokens",
      `Bearer ${TOKEN} ${TOKEN}`,
      "the Authorization header must be: Bearer <token>",
      'Bearer realm="llsd-hooks", error="invalid_token"',
    ],
  ])(
    "POST /sync with %s: 401 JSON with WWW-Authenticate, the handler never runs",
    async (_what, header, message, challenge) => {
      const sync = jest.fn(echoSync);
      const app = createApp({
        handlers: { sync, customize: echoCustomize },
        logger: createLogger({ level: "silent" }),
        metrics: createMetrics(),
        isReady: () => true,
        bearerToken: staticToken(TOKEN),
      });
      const call = request(app).post("/sync");
      const res = await (header === undefined ? call : call.set("Authorization", header)).send(aSyncBody());
      expect({
        status: res.status,
        type: res.type,
        body: res.body,
        challenge: res.headers["www-authenticate"],
      }).toEqual({ status: 401, type: "application/json", body: { error: message }, challenge });
      expect(sync).not.toHaveBeenCalled();
    },
  );

  it("accepts the scheme in any case (RFC 9110) and surrounding spaces", async () => {
    for (const header of [`bearer ${TOKEN}`, `BEARER ${TOKEN}`, `Bearer  ${TOKEN} `]) {
      expect((await request(test.app).post("/sync").set("Authorization", header).send(aSyncBody())).status).toBe(200);
    }
  });

  it("POST /customize without the token: 401", async () => {
    expect((await request(test.app).post("/customize").send({ parent: aSyncBody().parent })).status).toBe(401);
  });

  it("leaves the apiserver's webhooks, the probes and /metrics open", async () => {
    expect((await request(test.app).post("/validate").send(review)).status).toBe(200);
    expect((await request(test.app).post("/convert").send(conversion)).status).toBe(200);
    expect((await request(test.app).get("/healthz")).status).toBe(200);
    expect((await request(test.app).get("/readyz")).status).toBe(200);
    expect((await request(test.app).get("/metrics")).status).toBe(200);
  });

  it("logs a rejection at warn with the reason and never the token sent", async () => {
    const t = anAuthApp(staticToken(TOKEN));
    await request(t.app).post("/sync").set("Authorization", `Bearer ${TOKEN}-wrong`).send(aSyncBody());
    expect(t.lines()).toEqual([
      expect.objectContaining({
        level: LEVEL.warn,
        hook: "sync",
        outcome: "unauthorized",
        status: 401,
        reason: "invalid",
      }),
    ]);
    expect(t.logText()).not.toContain(TOKEN);
    const metrics = await t.metrics.registry.getSingleMetricAsString("llsd_hook_requests_total");
    expect(metrics).toContain('llsd_hook_requests_total{hook="sync",outcome="unauthorized"} 1');
  });

  it("compares SHA-256 digests of equal length with crypto.timingSafeEqual", () => {
    const spy = crypto.timingSafeEqual as jest.MockedFunction<typeof crypto.timingSafeEqual>;
    spy.mockClear();
    const expected = crypto.createHash("sha256").update(TOKEN).digest();
    expect(checkBearer(`Bearer ${TOKEN}`, expected)).toBeUndefined();
    expect(checkBearer("Bearer x", expected)).toBe("invalid");
    expect(checkBearer(`Bearer ${"y".repeat(10_000)}`, expected)).toBe("invalid");
    expect(spy).toHaveBeenCalledTimes(3);
    for (const [a, b] of spy.mock.calls) expect([(a as Buffer).length, (b as Buffer).length]).toEqual([32, 32]);
  });
});

describe("without a bearer token", () => {
  it("every hook is open (local use)", async () => {
    const test = anAuthApp(undefined);
    expect((await request(test.app).post("/sync").send(aSyncBody())).status).toBe(200);
    expect(
      (await request(test.app).post("/sync").set("Authorization", "Bearer anything").send(aSyncBody())).status,
    ).toBe(200);
  });
});

describe("HOOK_BEARER_TOKEN_FILE", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "llsd-token-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const digest = (token: string) => crypto.createHash("sha256").update(token).digest();
  const silent = createLogger({ level: "silent" });

  it("reads the token (a trailing newline is not part of it) and re-reads it when the file changes", () => {
    const file = join(dir, "token");
    writeFileSync(file, "first\n");
    let clock = 0;
    const source = fileToken(file, { logger: silent, now: () => clock });
    expect(source.digest()).toEqual(digest("first"));
    writeFileSync(file, "second-token\n");
    expect(source.digest()).toEqual(digest("first")); // checked at most once a second
    clock += 1000;
    expect(source.digest()).toEqual(digest("second-token"));
  });

  it("follows a Secret volume's atomic swap (the ..data symlink moves to a new directory)", () => {
    const v1 = join(dir, "..2026_01"),
      v2 = join(dir, "..2026_02");
    for (const [d, token] of [
      [v1, "old"],
      [v2, "new"],
    ] as const) {
      mkdirSync(d);
      writeFileSync(join(d, "token"), token);
    }
    symlinkSync(v1, join(dir, "..data"));
    symlinkSync(join("..data", "token"), join(dir, "token"));
    let clock = 0;
    const source = fileToken(join(dir, "token"), { logger: silent, now: () => clock });
    expect(source.digest()).toEqual(digest("old"));
    symlinkSync(v2, join(dir, "..data_tmp"));
    renameSync(join(dir, "..data_tmp"), join(dir, "..data"));
    clock += 1000;
    expect(source.digest()).toEqual(digest("new"));
  });

  it("keeps the last good token when the file disappears or turns empty, and warns once until a good one is read", () => {
    const raw: string[] = [];
    const logger = createLogger({ destination: { write: (l: string) => void raw.push(l) } });
    const file = join(dir, "token");
    writeFileSync(file, "kept");
    let clock = 0;
    const source = fileToken(file, { logger, now: () => clock });
    unlinkSync(file);
    clock += 1000;
    expect(source.digest()).toEqual(digest("kept"));
    clock += 1000;
    expect(source.digest()).toEqual(digest("kept"));
    writeFileSync(file, "   \n");
    clock += 1000;
    expect(source.digest()).toEqual(digest("kept"));
    expect(raw.filter((l) => l.includes("Cannot re-read the bearer token file"))).toHaveLength(1);
    expect(raw.join("")).not.toContain("kept");
  });

  it("through the app: a rotated token is required from the next check on", async () => {
    const file = join(dir, "token");
    writeFileSync(file, "one");
    let clock = 0;
    const test = anAuthApp(fileToken(file, { logger: silent, now: () => clock }));
    expect((await request(test.app).post("/sync").set("Authorization", "Bearer one").send(aSyncBody())).status).toBe(
      200,
    );
    writeFileSync(file, "two");
    clock += 1000;
    expect((await request(test.app).post("/sync").set("Authorization", "Bearer one").send(aSyncBody())).status).toBe(
      401,
    );
    expect((await request(test.app).post("/sync").set("Authorization", "Bearer two").send(aSyncBody())).status).toBe(
      200,
    );
  });
});

describe("tokenSourceFromEnv", () => {
  const logger = createLogger({ level: "silent" });

  it("is off when neither variable is set", () => {
    expect(tokenSourceFromEnv({}, logger)).toBeUndefined();
  });

  it("refuses both at once, an empty token and an unreadable file", () => {
    expect(() => tokenSourceFromEnv({ HOOK_BEARER_TOKEN: "a", HOOK_BEARER_TOKEN_FILE: "/x" }, logger)).toThrow(
      "set HOOK_BEARER_TOKEN or HOOK_BEARER_TOKEN_FILE, not both",
    );
    expect(() => tokenSourceFromEnv({ HOOK_BEARER_TOKEN: "  \n" }, logger)).toThrow("HOOK_BEARER_TOKEN is empty");
    expect(() => tokenSourceFromEnv({ HOOK_BEARER_TOKEN_FILE: "/no/such/token" }, logger)).toThrow(
      /^HOOK_BEARER_TOKEN_FILE: ENOENT/,
    );
  });

  it("trims the token from the environment", () => {
    const source = tokenSourceFromEnv({ HOOK_BEARER_TOKEN: `${TOKEN}\n` }, logger);
    expect(source?.digest()).toEqual(crypto.createHash("sha256").update(TOKEN).digest());
  });
});

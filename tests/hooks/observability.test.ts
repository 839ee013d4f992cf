/** What a hook call leaves behind: one log line (never a body) and its metrics. */
import request from "supertest";
import { createLogger } from "../../hooks/logger";
import { aSyncBody, aTestApp, LEVEL, type LogLine } from "./helpers";

const CANARY = "canary-7f3a-do-not-log";

/** A sync body that carries the canary in the parent spec, an observed child and a related Secret. */
function aBodyWithCanary(): Record<string, unknown> {
  const body = aSyncBody({
    related: {
      "Secret.v1": {
        "team-a/creds": { apiVersion: "v1", kind: "Secret", metadata: { name: "creds" }, data: { token: CANARY } },
      },
    },
  });
  (body.parent as { spec: Record<string, unknown> }).spec.note = CANARY;
  return body;
}

const hookLines = (lines: LogLine[]): LogLine[] => lines.filter((l) => l.hook !== undefined && l.level >= LEVEL.info);

describe("logs", () => {
  it.each([
    ["/sync", { parent: aSyncBody().parent, children: {}, related: {} }, { children: 1 }],
    ["/customize", { parent: aSyncBody().parent }, { relatedResources: 1 }],
  ])(
    "When a %s call succeeds, Then nothing is written at info, and at debug one line says which parent, how it went and the count",
    async (path, body, count) => {
      const quiet = aTestApp();
      const verbose = aTestApp({ logLevel: "debug" });

      await request(quiet.app).post(path).send(body);
      await request(verbose.app).post(path).send(body);

      expect(quiet.lines()).toEqual([]);
      expect(verbose.lines().filter((l) => l.outcome !== undefined)).toEqual([
        expect.objectContaining({
          level: LEVEL.debug,
          hook: path.slice(1),
          namespace: "team-a",
          name: "llsd",
          outcome: "ok",
          status: 200,
          durationMs: expect.any(Number),
          ...count,
        }),
      ]);
    },
  );

  it("When a request is malformed, Then one warn line carries the reason and still names the parent", async () => {
    const test = aTestApp();
    const body = aSyncBody({ children: "none" });

    await request(test.app).post("/sync").send(body);

    expect(test.lines()).toEqual([
      expect.objectContaining({
        level: LEVEL.warn,
        hook: "sync",
        namespace: "team-a",
        name: "llsd",
        outcome: "client_error",
        status: 400,
        reason: "children must be an object keyed by Kind.apiVersion, got string",
      }),
    ]);
  });

  it.each(["info", "debug"])(
    "When bodies carry a canary (log level %s), Then no log line contains it",
    async (logLevel) => {
      const test = aTestApp({ logLevel });

      await request(test.app).post("/sync").send(aBodyWithCanary());
      await request(test.app).post("/sync").set("Content-Type", "application/json").send(`{"broken": "${CANARY}"`);
      await request(test.app)
        .post("/sync")
        .send({ ...aBodyWithCanary(), children: CANARY });

      // The two malformed calls at warn; the answered one at debug only (with its bodies, redacted).
      expect(hookLines(test.lines())).toHaveLength(2);
      expect(test.lines().filter((l) => l.hook !== undefined).length).toBe(logLevel === "debug" ? 6 : 2);
      expect(test.logText()).not.toContain(CANARY);
    },
  );

  it("When the log level is debug, Then the call is also logged on arrival with counts, then its redacted bodies, then its outcome", async () => {
    const test = aTestApp({ logLevel: "debug" });

    await request(test.app).post("/sync").send(aBodyWithCanary());

    const debug = test.lines().filter((l) => l.level === LEVEL.debug);
    expect(debug).toEqual([
      expect.objectContaining({ hook: "sync", namespace: "team-a", name: "llsd", observed: 1, related: 1 }),
      expect.objectContaining({ msg: "Hook request body", redactedRequest: expect.any(Object) }),
      expect.objectContaining({ msg: "Hook response body", redactedResponse: expect.any(Object) }),
      expect.objectContaining({ msg: "Answered hook call", outcome: "ok" }),
    ]);
  });

  it("When probes and metrics are scraped, Then nothing is logged", async () => {
    const test = aTestApp({ logLevel: "debug" });

    await request(test.app).get("/healthz");
    await request(test.app).get("/readyz");
    await request(test.app).get("/metrics");

    expect(test.lines()).toEqual([]);
  });

  it("redacts Secret data, authorization headers and bodies if an object carrying them is logged", () => {
    const raw: string[] = [];
    const logger = createLogger({ destination: { write: (line: string) => void raw.push(line) } });

    logger.info(
      {
        secret: { data: { token: CANARY }, stringData: { t: CANARY } },
        req: { headers: { authorization: `Bearer ${CANARY}` } },
        body: CANARY,
      },
      "Oops",
    );

    expect(raw.join("")).not.toContain(CANARY);
  });
});

describe("metrics", () => {
  /** The value of one sample line of the exposition text, e.g. `name{labels} 2`. */
  const sample = (text: string, series: string): number | undefined => {
    const line = text.split("\n").find((l) => l.startsWith(`${series} `));
    return line === undefined ? undefined : Number(line.slice(series.length + 1));
  };

  it("When calls succeed, are malformed and fail, Then requests, durations and errors are counted per hook and outcome", async () => {
    const test = aTestApp({
      handlers: {
        sync: (req) =>
          req.parent.metadata.name === "broken"
            ? Promise.reject(new Error("bug"))
            : Promise.resolve({ status: {}, children: [] }),
      },
    });
    const broken = aSyncBody();
    (broken.parent as { metadata: { name: string } }).metadata.name = "broken";

    await request(test.app).post("/sync").send(aSyncBody());
    await request(test.app).post("/sync").send(aSyncBody());
    await request(test.app).post("/sync").send([]);
    await request(test.app).post("/sync").set("Content-Type", "text/plain").send("x");
    await request(test.app).post("/sync").send(broken);
    await request(test.app).post("/customize").send({ parent: aSyncBody().parent });
    const text = (await request(test.app).get("/metrics")).text;

    expect(sample(text, 'llsd_hook_requests_total{hook="sync",outcome="ok"}')).toBe(2);
    expect(sample(text, 'llsd_hook_requests_total{hook="sync",outcome="client_error"}')).toBe(2);
    expect(sample(text, 'llsd_hook_requests_total{hook="sync",outcome="error"}')).toBe(1);
    expect(sample(text, 'llsd_hook_requests_total{hook="customize",outcome="ok"}')).toBe(1);
    expect(sample(text, 'llsd_hook_duration_seconds_count{hook="sync"}')).toBe(5);
    expect(sample(text, 'llsd_hook_duration_seconds_count{hook="customize"}')).toBe(1);
    expect(sample(text, 'llsd_hook_errors_total{hook="sync"}')).toBe(1);
    expect(sample(text, 'llsd_hook_errors_total{hook="customize"}')).toBeUndefined();
  });

  it("When routes other than hooks are called, Then no hook is counted", async () => {
    const test = aTestApp();

    await request(test.app).get("/healthz");
    await request(test.app).get("/sync");
    await request(test.app).get("/nope");

    expect(await test.metrics.registry.getSingleMetricAsString("llsd_hook_requests_total")).not.toMatch(/hook=/);
  });

  it("When two apps run in one process, Then each counts only its own calls", async () => {
    const first = aTestApp();
    const second = aTestApp();

    await request(first.app).post("/sync").send(aSyncBody());

    const ok = 'llsd_hook_requests_total{hook="sync",outcome="ok"}';
    expect(sample((await request(first.app).get("/metrics")).text, ok)).toBe(1);
    expect(sample((await request(second.app).get("/metrics")).text, ok)).toBeUndefined();
  });

  it("has duration buckets from half a millisecond to Metacontroller's 10 s timeout", async () => {
    const test = aTestApp();

    await request(test.app).post("/sync").send(aSyncBody());

    const histogram = await test.metrics.registry.getSingleMetricAsString("llsd_hook_duration_seconds");
    const bounds = [...histogram.matchAll(/_bucket\{le="([^"]+)"/g)].map((m) => m[1]);
    expect(bounds[0]).toBe("0.0005");
    expect(bounds.slice(-2)).toEqual(["10", "+Inf"]);
  });
});

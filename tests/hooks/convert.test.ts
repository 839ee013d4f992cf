/**
 * `POST /convert` over HTTP, on a fresh express app (hooks/app.ts mounts the router in
 * production): the apiserver gets 200 with a ConversionReview for every review, even a
 * failed one; only a body that is not a JSON object gets a 4xx.
 */
import express from "express";
import request from "supertest";
import * as conversion from "../../lib/conversion/v1alpha1";
import { errorHandler, notFound } from "../../hooks/errors";
import { createLogger } from "../../hooks/logger";
import { createMetrics } from "../../hooks/metrics";
import { convertRoute } from "../../hooks/routes/convert";
import { LEVEL, type LogLine } from "./helpers";

const V1 = "llamastack.io/v1alpha1";
const V2 = "llamastack.io/v1alpha2";
const UID = "705ab4f5-6393-11e8-b7cc-42010a800002";

function aConvertApp(level = "info") {
  const raw: string[] = [];
  const logger = createLogger({ level, destination: { write: (line: string) => void raw.push(line) } });
  const metrics = createMetrics();
  const app = express();
  app.all("/convert", convertRoute({ logger, metrics }));
  app.use(notFound);
  app.use(errorHandler(logger));
  return { app, metrics, lines: () => raw.map((line) => JSON.parse(line) as LogLine) };
}

const aV1Object = (name = "my-llsd") => ({
  apiVersion: V1,
  kind: "LlamaStackDistribution",
  metadata: { name, namespace: "team-a", uid: "1", annotations: { "team.example.com/owner": "ml" } },
  spec: {
    replicas: 2,
    server: { distribution: { name: "starter" }, containerSpec: { name: "llama-stack", port: 8321 } },
  },
  status: { phase: "Ready" },
});
const aReview = (desiredAPIVersion: string, objects: unknown[]) => ({
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "ConversionReview",
  request: { uid: UID, desiredAPIVersion, objects },
});

const sample = async (metrics: ReturnType<typeof createMetrics>, series: string): Promise<number | undefined> => {
  const line = (await metrics.registry.metrics()).split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

afterEach(() => jest.restoreAllMocks());

describe("POST /convert", () => {
  it("When the apiserver sends v1alpha1 objects, Then it answers 200 with them in v1alpha2 and the same uid", async () => {
    const { app } = aConvertApp();

    const res = await request(app)
      .post("/convert")
      .send(aReview(V2, [aV1Object("a"), aV1Object("b")]));

    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(res.body.apiVersion).toBe("apiextensions.k8s.io/v1");
    expect(res.body.kind).toBe("ConversionReview");
    expect(res.body.response.uid).toBe(UID);
    expect(res.body.response.result).toEqual({ status: "Success" });
    const converted = res.body.response.convertedObjects as { metadata: { name: string } }[];
    expect(converted.map((o) => o.metadata.name)).toEqual(["a", "b"]);
    expect(res.body.response.convertedObjects[0]).toMatchObject({
      apiVersion: V2,
      metadata: {
        annotations: {
          "team.example.com/owner": "ml",
          "llamastack.io/v1alpha1-fields": '{"spec.server.containerSpec.name":"llama-stack"}',
        },
      },
      spec: { distribution: { name: "starter" }, networking: { port: 8321 }, workload: { replicas: 2 } },
      status: { phase: "Ready" },
    });
  });

  it("When the review cannot be converted, Then it still answers 200, with a Failure result and its reason", async () => {
    const { app } = aConvertApp();

    const res = await request(app)
      .post("/convert")
      .send(aReview("llamastack.io/v1", [aV1Object()]));

    expect(res.status).toBe(200);
    expect(res.body.response).toEqual({
      uid: UID,
      result: { status: "Failure", message: expect.stringContaining("request.desiredAPIVersion must be one of") },
      convertedObjects: [],
    });
  });

  it("When a review is larger than express's default 100 kB, Then it is converted", async () => {
    const { app } = aConvertApp();
    const objects = Array.from({ length: 300 }, (_, i) => ({
      ...aV1Object(`llsd-${i}`),
      spec: {
        server: {
          distribution: { name: "starter" },
          containerSpec: { env: [{ name: "PAD", value: "x".repeat(3000) }] },
        },
      },
    }));

    const res = await request(app).post("/convert").send(aReview(V2, objects));

    expect(res.status).toBe(200);
    expect(res.body.response.convertedObjects).toHaveLength(300);
  });

  it.each([
    ["a list", [1], "request body must be a ConversionReview JSON object, got a list"],
    ["a number", 42, "request body must be a ConversionReview JSON object, got a number"],
    ["null", null, "request body must be a ConversionReview JSON object, got null"],
  ])("When the body is %s, Then it answers 400 with a JSON error", async (_title, body, error) => {
    const { app } = aConvertApp();

    const res = await request(app).post("/convert").set("Content-Type", "application/json").send(JSON.stringify(body));

    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error });
  });

  it.each([
    {
      title: "invalid JSON",
      status: 400,
      error: "request body is not valid JSON",
      type: "application/json",
      body: '{"request": ',
    },
    {
      title: "not JSON at all",
      status: 415,
      error: "content-type must be application/json",
      type: "text/plain",
      body: "hello",
    },
    {
      title: "empty",
      status: 400,
      error: "request body is required: a ConversionReview JSON object",
      type: "application/json",
      body: "",
    },
    {
      title: "larger than 8 MB",
      status: 413,
      error: "request body is too large",
      type: "application/json",
      body: JSON.stringify({ pad: "x".repeat(8.5 * 1024 * 1024) }),
    },
  ])('When the body is $title, Then it answers $status {error: "$error"}', async ({ status, error, type, body }) => {
    const { app } = aConvertApp();

    const res = await request(app).post("/convert").set("Content-Type", type).send(body);

    expect([res.status, res.body]).toEqual([status, { error }]);
  });

  it("When it is called with GET, Then it answers 405 with Allow: POST", async () => {
    const res = await request(aConvertApp().app).get("/convert");

    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe("POST");
  });
});

describe("POST /convert logs and metrics", () => {
  it("When a review is converted, Then it is counted, and logged only at debug: uid, object count, desired version, outcome and duration", async () => {
    const quiet = aConvertApp();
    await request(quiet.app)
      .post("/convert")
      .send(aReview(V2, [aV1Object(), aV1Object()]));
    expect(quiet.lines()).toEqual([]);
    expect(await sample(quiet.metrics, 'llsd_hook_requests_total{hook="convert",outcome="ok"}')).toBe(1);

    const { app, lines, metrics } = aConvertApp("debug");

    await request(app)
      .post("/convert")
      .send(aReview(V2, [aV1Object(), aV1Object()]));

    expect(lines().filter((l) => l.outcome !== undefined)).toEqual([
      expect.objectContaining({
        level: LEVEL.debug,
        msg: "Answered conversion review",
        hook: "convert",
        uid: UID,
        objects: 2,
        desiredAPIVersion: V2,
        outcome: "ok",
        result: "Success",
        status: 200,
        durationMs: expect.any(Number),
      }),
    ]);
    expect(JSON.stringify(lines().filter((l) => l.outcome !== undefined))).not.toContain("starter"); // counts, never the object
    expect(await sample(metrics, 'llsd_hook_requests_total{hook="convert",outcome="ok"}')).toBe(1);
    expect(await sample(metrics, 'llsd_hook_duration_seconds_count{hook="convert"}')).toBe(1);
  });

  it("When the review fails, Then one warn line carries the reason and the call counts as a client error", async () => {
    const { app, lines, metrics } = aConvertApp();

    await request(app)
      .post("/convert")
      .send(aReview(V2, [{ kind: "Deployment" }]));
    await request(app).post("/convert").send([1]);

    expect(lines()).toEqual([
      expect.objectContaining({
        level: LEVEL.warn,
        uid: UID,
        outcome: "client_error",
        result: "Failure",
        reason: expect.stringContaining("objects[0] (unnamed): kind"),
      }),
      expect.objectContaining({ level: LEVEL.warn, outcome: "client_error", status: 400 }),
    ]);
    expect(await sample(metrics, 'llsd_hook_requests_total{hook="convert",outcome="client_error"}')).toBe(2);
  });

  it("When the conversion has a bug, Then the apiserver still gets 200 and a Failure, and it is logged and counted as an error", async () => {
    const { app, lines, metrics } = aConvertApp();
    jest.spyOn(conversion, "toHub").mockImplementation(() => {
      throw new TypeError("boom");
    });

    const res = await request(app)
      .post("/convert")
      .send(aReview(V2, [aV1Object()]));

    expect(res.status).toBe(200);
    expect(res.body.response).toEqual({
      uid: UID,
      result: { status: "Failure", message: "internal error in the conversion webhook (TypeError); see its logs" },
      convertedObjects: [],
    });
    expect(lines()).toEqual([
      expect.objectContaining({
        level: LEVEL.error,
        outcome: "error",
        result: "Failure",
        err: expect.objectContaining({ type: "TypeError", message: "boom" }),
      }),
    ]);
    expect(await sample(metrics, 'llsd_hook_errors_total{hook="convert"}')).toBe(1);
  });
});

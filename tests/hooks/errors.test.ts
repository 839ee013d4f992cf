/** Every answer that is not 200 is JSON `{error}`: never an HTML page, never a stack. */
import express from "express";
import request from "supertest";
import { errorHandler, postOnly } from "../../hooks/errors";
import { createLogger } from "../../hooks/logger";
import { aParent, aSyncBody, aTestApp, LEVEL } from "./helpers";

function expectJsonError(res: request.Response, status: number, error: string | RegExp): void {
  expect(res.status).toBe(status);
  expect(res.headers["content-type"]).toMatch(/^application\/json/);
  expect(Object.keys(res.body as object)).toEqual(["error"]);
  expect(res.body.error).toEqual(typeof error === "string" ? error : expect.stringMatching(error));
  expect(res.text).not.toMatch(/<html|<pre|\n\s+at /i);
}

describe("malformed hook requests answer 400 with the field path", () => {
  it("When the body is not JSON, Then 400 without echoing the body", async () => {
    const res = await request(aTestApp().app)
      .post("/sync")
      .set("Content-Type", "application/json")
      .send('{"parent": {"token": "hunter2"');

    expectJsonError(res, 400, "request body is not valid JSON");
    expect(res.text).not.toContain("hunter2");
  });

  it("When the body is a JSON array, Then 400", async () => {
    const res = await request(aTestApp().app).post("/sync").send([aSyncBody()]);

    expectJsonError(res, 400, "request body must be a JSON object, got array");
  });

  it("When the body is a bare JSON number, Then 400", async () => {
    const res = await request(aTestApp().app).post("/customize").set("Content-Type", "application/json").send("42");

    expectJsonError(res, 400, "request body must be a JSON object, got number");
  });

  it("When the parent is missing, Then 400", async () => {
    const res = await request(aTestApp().app)
      .post("/sync")
      .send(aSyncBody({ parent: undefined }));

    expectJsonError(res, 400, "parent is required");
  });

  it("When the parent has no metadata.namespace, Then 400 naming parent.metadata.namespace", async () => {
    const parent = aParent() as { metadata: Record<string, unknown> };
    delete parent.metadata.namespace;

    const res = await request(aTestApp().app).post("/customize").send({ parent });

    expectJsonError(res, 400, "parent.metadata.namespace is required");
  });

  it("When children is not an object, Then 400 naming children", async () => {
    const res = await request(aTestApp().app)
      .post("/sync")
      .send(aSyncBody({ children: ["ConfigMap.v1"] }));

    expectJsonError(res, 400, "children must be an object keyed by Kind.apiVersion, got array");
  });

  it("When one observed child is not an object, Then 400 naming its kind and key", async () => {
    const res = await request(aTestApp().app)
      .post("/sync")
      .send(aSyncBody({ children: { "Deployment.apps/v1": { "team-a/llsd": "gone" } } }));

    expectJsonError(res, 400, 'children["Deployment.apps/v1"]["team-a/llsd"] must be an object, got string');
  });

  it("When the body is empty, Then 400", async () => {
    const res = await request(aTestApp().app).post("/sync").set("Content-Type", "application/json").send("");

    expectJsonError(res, 400, "parent is required");
  });
});

describe("transport errors", () => {
  it("When the content-type is text/plain, Then 415", async () => {
    const res = await request(aTestApp().app)
      .post("/sync")
      .set("Content-Type", "text/plain")
      .send(JSON.stringify(aSyncBody()));

    expectJsonError(res, 415, "content-type must be application/json");
  });

  it("When the body is sent as application/octet-stream, Then 415", async () => {
    const res = await request(aTestApp().app)
      .post("/customize")
      .send(Buffer.from(JSON.stringify({ parent: aParent() })));

    expectJsonError(res, 415, "content-type must be application/json");
  });

  it("When the body is 9 MB (over the 8 MB limit), Then 413", async () => {
    const body = JSON.stringify(aSyncBody({ padding: "x".repeat(9 * 1024 * 1024) }));

    const res = await request(aTestApp().app).post("/sync").set("Content-Type", "application/json").send(body);

    expectJsonError(res, 413, "request body is too large");
  });

  it("When the body is 2 MB (over express's 100 kB default), Then it is accepted", async () => {
    const secret = (i: number): object => ({
      apiVersion: "v1",
      kind: "Secret",
      metadata: { name: `s${i}` },
      data: { v: "x".repeat(10_000) },
    });
    const secrets = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`team-a/s${i}`, secret(i)]));

    const res = await request(aTestApp().app)
      .post("/sync")
      .send(aSyncBody({ related: { "Secret.v1": secrets } }));

    expect(res.status).toBe(200);
  });
});

describe("routing errors", () => {
  it.each([
    ["GET", "/"],
    ["POST", "/mutate"],
    ["GET", "/sync/extra"],
  ])("When %s %s has no route, Then 404 JSON", async (method, path) => {
    const res = await request(aTestApp().app)[method === "GET" ? "get" : "post"](path);

    expectJsonError(res, 404, `no such endpoint: ${method} ${path}`);
  });

  it.each([
    ["get", "/sync", "POST"],
    ["put", "/customize", "POST"],
    ["post", "/healthz", "GET, HEAD"],
    ["delete", "/readyz", "GET, HEAD"],
    ["post", "/metrics", "GET, HEAD"],
  ] as const)("When %s %s, Then 405 JSON with Allow: %s", async (method, path, allow) => {
    const res = await request(aTestApp().app)[method](path);

    expectJsonError(res, 405, new RegExp(`is not allowed on ${path}`));
    expect(res.headers.allow).toBe(allow);
  });
});

describe("postOnly: one hook path's handler", () => {
  function anApp(handler: (req: express.Request, res: express.Response) => Promise<void>) {
    const app = express();
    app.all("/hook", postOnly(handler));
    app.use(errorHandler(createLogger({ level: "silent" })));
    return app;
  }

  const answersOk = (_req: express.Request, res: express.Response): Promise<void> => {
    res.json({ ok: true });
    return Promise.resolve();
  };

  it("When POSTed, Then the handler answers", async () => {
    const res = await request(anApp(answersOk)).post("/hook");

    expect([res.status, res.body]).toEqual([200, { ok: true }]);
  });

  it.each(["get", "put", "delete"] as const)("When %s, Then 405 JSON with Allow: POST", async (method) => {
    const res = await request(anApp(answersOk))[method]("/hook");

    expectJsonError(res, 405, /is not allowed on \/hook/);
    expect(res.headers.allow).toBe("POST");
  });

  it("When the handler rejects, Then the error handler answers 500 JSON without the error's message", async () => {
    const res = await request(anApp(() => Promise.reject(new Error("secret-ish detail")))).post("/hook");

    expectJsonError(res, 500, "internal error");
    expect(res.text).not.toContain("secret-ish");
  });
});

describe("handler errors", () => {
  const boom = (): Promise<never> => Promise.reject(new Error("boom: lost the config for team-a/llsd"));
  const noChildren: unknown = { status: { phase: "Ready" } };

  /** The status and children of a 200 answer, and what the metrics counted. */
  async function failedAnswer(test: ReturnType<typeof aTestApp>, body: Record<string, unknown>) {
    const res = await request(test.app).post("/sync").send(body);
    expect(res.status).toBe(200);
    const metrics = await test.metrics.registry.metrics();
    return {
      res,
      status: res.body.status,
      children: res.body.children as { kind: string; metadata: { name: string } }[],
      metrics,
    };
  }

  // Metacontroller retries a 5xx forever and the CR never says why: an exception on a request
  // of the right shape is a Failed status instead, the observed children kept.
  it.each([
    ["throws", boom, "boom: lost the config for team-a/llsd"],
    [
      "answers without a children list",
      () => Promise.resolve(noChildren as never),
      "sync handler returned no children list",
    ],
  ])(
    "When the sync handler %s, Then 200 Failed/InternalError, the observed children kept, an error metric and one error line with the stack",
    async (_what, handler, message) => {
      const test = aTestApp({ handlers: { sync: handler } });
      const body = aSyncBody();
      body.parent = {
        ...(body.parent as object),
        status: {
          phase: "Ready",
          conditions: [
            {
              type: "ConfigGenerated",
              status: "True",
              reason: "ConfigGenerationSucceeded",
              message: "ok",
              lastTransitionTime: "2026-01-01T00:00:00Z",
            },
            {
              type: "DeploymentReady",
              status: "True",
              reason: "DeploymentReady",
              message: "Deployment is ready",
              lastTransitionTime: "2026-01-01T00:00:00Z",
            },
            {
              type: "Ready",
              status: "True",
              reason: "Serving",
              message: "Generation 2 is served by 1 ready pods",
              lastTransitionTime: "2026-01-01T00:00:00Z",
            },
          ],
        },
      };

      const { res, status, children, metrics } = await failedAnswer(test, body);

      expect(Object.keys(res.body as object).sort()).toEqual(["children", "status"]);
      expect(status.phase).toBe("Failed");
      expect(status.observedGeneration).toBe(3);
      expect(status.conditions).toEqual([
        expect.objectContaining({
          type: "ConfigGenerated",
          status: "False",
          reason: "InternalError",
          message: expect.stringContaining(message),
        }),
        {
          type: "DeploymentReady",
          status: "True",
          reason: "DeploymentReady",
          message: "Deployment is ready",
          lastTransitionTime: "2026-01-01T00:00:00Z",
          observedGeneration: 3,
        },
        // The summary is this failure's, not the last status's: the spec is not served.
        expect.objectContaining({ type: "Ready", status: "False", reason: "InternalError" }),
        expect.objectContaining({ type: "Reconciling", status: "False", reason: "Stalled" }),
        expect.objectContaining({ type: "Stalled", status: "True", reason: "InternalError" }),
      ]);
      expect(children.map((c) => `${c.kind}/${c.metadata.name}`)).toEqual(["ConfigMap/llsd-config"]);
      expect(metrics).toContain('llsd_hook_errors_total{hook="sync"} 1');
      expect(metrics).toContain('llsd_hook_requests_total{hook="sync",outcome="error"} 1');
      const [line, ...others] = test.lines().filter((l) => l.level >= LEVEL.error);
      expect(others).toEqual([]);
      expect(line).toMatchObject({
        hook: "sync",
        outcome: "error",
        status: 200,
        namespace: "team-a",
        name: "llsd",
        children: 1,
      });
      expect(line?.err).toMatchObject({ message, stack: expect.stringContaining("at ") });
    },
  );

  it("When the sync handler throws for a first-time parent, Then Failed with no children: nothing is created", async () => {
    const { status, children } = await failedAnswer(
      aTestApp({ handlers: { sync: boom } }),
      aSyncBody({ children: {} }),
    );
    expect(status.phase).toBe("Failed");
    expect(children).toEqual([]);
  });

  it("When the customize handler throws, Then 500", async () => {
    const res = await request(aTestApp({ handlers: { customize: boom } }).app)
      .post("/customize")
      .send({ parent: aParent() });

    expectJsonError(res, 500, "internal error");
  });

  it("When the handler's answer cannot be serialised, Then Failed/InternalError, not a 500", async () => {
    const { status } = await failedAnswer(
      aTestApp({ handlers: { sync: () => Promise.resolve({ status: { n: 1n }, children: [] }) } }),
      aSyncBody(),
    );
    expect(status.conditions[0]).toMatchObject({ reason: "InternalError", message: expect.stringContaining("BigInt") });
  });
});

/** Happy paths: every route answers 200 with what its handler (or the service) computed. */
import request from "supertest";
import type { SyncResponse } from "../../lib/wire/metacontroller";
import { aParent, aSyncBody, aTestApp } from "./helpers";

describe("POST /sync", () => {
  it("When Metacontroller sends a v2 sync request, Then the handler's answer comes back as JSON", async () => {
    const { app } = aTestApp();

    const res = await request(app).post("/sync").send(aSyncBody());

    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(res.body).toEqual({
      status: { phase: "Ready", parentName: "llsd", observedChildren: 1 },
      children: [
        {
          apiVersion: "v1",
          kind: "ConfigMap",
          metadata: { name: "llsd-config", namespace: "team-a" },
          data: { parent: "llsd" },
        },
      ],
      resyncAfterSeconds: 30,
    });
  });

  it("When the handler answers, Then the body is its JSON byte for byte: no added keys, same order", async () => {
    const answer: SyncResponse = {
      children: [{ apiVersion: "v1", kind: "Service", metadata: { name: "b", namespace: "team-a" } }],
      status: { z: 1, a: { nested: [3, 2, 1] }, unicode: "größe ✓" },
    };
    const { app } = aTestApp({ handlers: { sync: () => Promise.resolve(answer) } });

    const res = await request(app).post("/sync").send(aSyncBody());

    expect(res.text).toBe(JSON.stringify(answer));
    expect(Object.keys(res.body as object)).toEqual(["children", "status"]);
  });

  it("When the request is a finalize call with v1 keying and no related, Then it is accepted", async () => {
    const { app } = aTestApp();
    const body = aSyncBody({ finalizing: true, children: { "ConfigMap.v1": {} } });
    delete body.related;

    const res = await request(app).post("/sync").send(body);

    expect(res.status).toBe(200);
  });

  it("When the content-type carries a charset, Then it is still JSON", async () => {
    const { app } = aTestApp();

    const res = await request(app)
      .post("/sync")
      .set("Content-Type", "application/json; charset=utf-8")
      .send(JSON.stringify(aSyncBody()));

    expect(res.status).toBe(200);
  });
});

describe("POST /customize", () => {
  it("When Metacontroller asks which objects are related, Then the handler's rules come back", async () => {
    const { app } = aTestApp();

    const res = await request(app)
      .post("/customize")
      .send({ controller: {}, parent: aParent({ name: "demo" }) });

    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      relatedResources: [{ apiVersion: "v1", resource: "secrets", namespace: "team-a", names: ["demo-creds"] }],
    });
  });
});

describe("GET /healthz", () => {
  it("answers 200 {status: ok}", async () => {
    const res = await request(aTestApp().app).get("/healthz");

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok" });
  });

  it("answers HEAD too (probes may use it)", async () => {
    expect((await request(aTestApp().app).head("/healthz")).status).toBe(200);
  });
});

describe("GET /readyz", () => {
  it("When isReady turns false (shutting down), Then it flips from 200 to 503 JSON", async () => {
    let ready = true;
    const { app } = aTestApp({ isReady: () => ready });

    const before = await request(app).get("/readyz");
    ready = false;
    const after = await request(app).get("/readyz");

    expect([before.status, before.body]).toEqual([200, { status: "ready" }]);
    expect([after.status, after.body]).toEqual([503, { error: "not ready" }]);
    expect(after.headers["content-type"]).toMatch(/^application\/json/);
  });
});

describe("GET /metrics", () => {
  it("answers the Prometheus text format with the hook metrics and the process metrics", async () => {
    const { app } = aTestApp();

    const res = await request(app).get("/metrics");

    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.text).toContain("# TYPE llsd_hook_requests_total counter");
    expect(res.text).toContain("# TYPE llsd_hook_duration_seconds histogram");
    expect(res.text).toContain("# TYPE llsd_hook_errors_total counter");
    expect(res.text).toContain("process_cpu_user_seconds_total");
  });
});

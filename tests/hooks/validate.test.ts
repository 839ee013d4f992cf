/**
 * `POST /validate` through the real app: AdmissionReview in, AdmissionReview out; malformed
 * reviews are 4xx JSON; one log line and the metrics per call. Then over HTTPS as the
 * apiserver calls it, with a certificate made at test time, across a certificate renewal.
 */
import { writeFileSync, mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import request from "supertest";
import { createApp, type Audience } from "../../hooks/app";
import { createLogger } from "../../hooks/logger";
import { createMetrics } from "../../hooks/metrics";
import { createTlsServer, type TlsServer } from "../../hooks/tls";
import { makeCertificate } from "../admission/certificates";
import { llsd } from "../cli-helpers";
import { sampleCr } from "../sample-files";
import { aTestApp, echoCustomize, echoSync, LEVEL } from "./helpers";

const UID = "b8e1f5e8-0000-4000-8000-000000000001";

function anLlsd(spec: unknown): Record<string, unknown> {
  return {
    apiVersion: "llamastack.io/v1alpha2",
    kind: "LlamaStackDistribution",
    metadata: { name: "demo", namespace: "team-a" },
    spec,
  };
}

function aReview(
  overrides: Record<string, unknown> = {},
  object: unknown = anLlsd({ distribution: { name: "starter" } }),
): Record<string, unknown> {
  return {
    apiVersion: "admission.k8s.io/v1",
    kind: "AdmissionReview",
    request: {
      uid: UID,
      kind: { group: "llamastack.io", version: "v1alpha2", kind: "LlamaStackDistribution" },
      resource: { group: "llamastack.io", version: "v1alpha2", resource: "llamastackdistributions" },
      requestKind: { group: "llamastack.io", version: "v1alpha2", kind: "LlamaStackDistribution" },
      name: "demo",
      namespace: "team-a",
      operation: "CREATE",
      userInfo: { username: "alice" },
      object,
      oldObject: null,
      dryRun: false,
      options: { apiVersion: "meta.k8s.io/v1", kind: "CreateOptions" },
      ...overrides,
    },
  };
}

const INVALID_SPEC = {
  distribution: { name: "nope" },
  providers: {
    inference: [
      { provider: "vllm", endpoint: "http://a:8000/v1" },
      { provider: "vllm", endpoint: "http://b:8000/v1" },
    ],
  },
};

describe("POST /validate", () => {
  it("answers 200 allowed for a valid object, echoing the uid", async () => {
    const { app } = aTestApp();
    const response = await request(app).post("/validate").send(aReview());
    expect(response.status).toBe(200);
    expect(response.type).toBe("application/json");
    expect(response.body).toEqual({
      apiVersion: "admission.k8s.io/v1",
      kind: "AdmissionReview",
      response: { uid: UID, allowed: true },
    });
  });

  it.each([
    ["ingress (no validation context: the default)", {}, true, 1],
    [
      "gateway (the handlers' context, as productionHandlers sets it)",
      { validation: { exposeWith: "gateway" as const } },
      false,
      0,
    ],
    ["route", { validation: { exposeWith: "route" as const } }, true, 0],
  ])("judges an exposure as the sync hook builds it: %s", async (_title, handlers, allowed, warnings) => {
    const { app } = aTestApp({ handlers });
    const spec = { distribution: { name: "starter" }, networking: { expose: true }, auth: { kubernetes: {} } };
    const response = await request(app)
      .post("/validate")
      .send(aReview({}, anLlsd(spec)));
    const answer = (
      response.body as { response: { allowed: boolean; status?: { message: string }; warnings?: string[] } }
    ).response;
    expect(answer.allowed).toBe(allowed);
    if (!allowed) expect(answer.status?.message).toContain("spec.networking.expose.parentRefs: ");
    expect((answer.warnings ?? []).filter((w) => w.includes("the Ingress has no TLS"))).toHaveLength(warnings);
  });

  it("denies an invalid object with every field-path message and a cause per field", async () => {
    const { app } = aTestApp();
    const response = await request(app)
      .post("/validate")
      .send(aReview({}, anLlsd(INVALID_SPEC)));
    expect(response.status).toBe(200);
    const { response: answer } = response.body as {
      response: {
        uid: string;
        allowed: boolean;
        status: {
          code: number;
          reason: string;
          message: string;
          details: { causes: { field: string; message: string }[] };
        };
      };
    };
    expect(answer.uid).toBe(UID);
    expect(answer.allowed).toBe(false);
    expect(answer.status.code).toBe(422);
    expect(answer.status.reason).toBe("Invalid");
    const fields = answer.status.details.causes.map((c) => c.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        "spec.distribution.name",
        "spec.providers.inference[0].id",
        "spec.providers.inference[1].id",
      ]),
    );
    for (const cause of answer.status.details.causes)
      expect(answer.status.message).toContain(`${cause.field}: ${cause.message}`);
  });

  it("passes validate()'s warnings on as admission warnings, before generation's notes", async () => {
    const { app } = aTestApp();
    const spec = {
      distribution: { name: "starter" },
      providers: { safety: { provider: "llama-guard" } },
      disabled: ["safety"],
    };
    const response = await request(app)
      .post("/validate")
      .send(aReview({}, anLlsd(spec)));
    expect(response.body.response.allowed).toBe(true);
    expect(response.body.response.warnings).toEqual([
      expect.stringMatching(/^spec\.disabled\[0\]: safety is disabled, so its providers/),
      'spec.disabled[0]: 1.3.x servers have no "safety" API; nothing to disable',
    ]);
  });

  it("passes every warning and note of samples/complete.yaml on as an admission warning, once each, one line each", async () => {
    const { app } = aTestApp();
    const cr = sampleCr("complete.yaml")!;
    const response = await request(app)
      .post("/validate")
      .send(aReview({ name: cr.metadata.name }, { ...cr, metadata: { ...cr.metadata, namespace: "team-a" } }));
    // The oracle: the notes `llsd render` prints for the same file, on its own path through generate().
    const rendered = llsd(["render", "samples/complete.yaml"]);
    const notes = rendered.stderr
      .split("\n")
      .filter((l) => l.startsWith("warning: ") || l.startsWith("note: "))
      .map((l) => l.replace(/^(warning|note): llsd-complete: /, ""));
    // 8 notes of generation, and the warning that the exposed server asks nobody who they are.
    expect([rendered.code, notes.length]).toEqual([0, 9]);
    expect(response.body.response).toEqual({ uid: UID, allowed: true, warnings: notes });
  });

  it("allows DELETE and other kinds", async () => {
    const { app } = aTestApp();
    const deleted = await request(app)
      .post("/validate")
      .send(aReview({ operation: "DELETE", object: null, oldObject: anLlsd(INVALID_SPEC) }));
    expect(deleted.body.response).toEqual({ uid: UID, allowed: true });
    const configMap = await request(app)
      .post("/validate")
      .send(
        aReview(
          { kind: { group: "", version: "v1", kind: "ConfigMap" } },
          { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "x" } },
        ),
      );
    expect(configMap.body.response).toEqual({ uid: UID, allowed: true });
  });

  it.each([
    ["not an AdmissionReview", { apiVersion: "v1", kind: "Pod" }, 'apiVersion must be admission.k8s.io/v1, got "v1"'],
    [
      "an empty object",
      {},
      "apiVersion is missing: an AdmissionReview has apiVersion admission.k8s.io/v1, kind and request",
    ],
    ["no kind", { apiVersion: "admission.k8s.io/v1" }, "kind must be AdmissionReview, got nothing"],
    ["no uid", aReview({ uid: undefined }), "request.uid is required: a non-empty string"],
    ["a CREATE without an object", aReview({ object: null }), "request.object must be an object for CREATE, got null"],
  ])("answers 400 JSON for a malformed review (%s)", async (_what, body, error) => {
    const { app, lines } = aTestApp();
    const response = await request(app).post("/validate").send(body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error });
    expect(lines().filter((l) => l.hook === "validate")).toEqual([
      expect.objectContaining({ level: LEVEL.warn, outcome: "client_error", status: 400, reason: error }),
    ]);
  });

  it("answers 400 for a body that is not JSON, 415 for another content-type, 405 for another method", async () => {
    const { app } = aTestApp();
    const broken = await request(app).post("/validate").set("content-type", "application/json").send('{"apiVersion":');
    expect(broken.status).toBe(400);
    expect(broken.body).toEqual({ error: "request body is not valid JSON" });
    const text = await request(app).post("/validate").set("content-type", "text/plain").send("hello");
    expect(text.status).toBe(415);
    expect(text.body).toEqual({ error: "content-type must be application/json" });
    const get = await request(app).get("/validate");
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe("POST");
  });

  it("logs one line per review, without the object, and counts it", async () => {
    const { app, lines, logText, metrics } = aTestApp();
    await request(app)
      .post("/validate")
      .send(aReview({}, anLlsd(INVALID_SPEC)));
    expect(lines().filter((l) => l.hook === "validate")).toEqual([
      expect.objectContaining({
        level: LEVEL.info,
        msg: "Denied",
        uid: UID,
        namespace: "team-a",
        name: "demo",
        operation: "CREATE",
        allowed: false,
        outcome: "ok",
        status: 200,
      }),
    ]);
    expect(logText()).not.toContain("http://a:8000/v1");
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/llsd_hook_requests_total\{hook="validate",outcome="ok"\} 1/);
  });
});

describe("the two audiences", () => {
  const build = (audience: Audience) =>
    createApp({
      handlers: { sync: echoSync, customize: echoCustomize },
      logger: createLogger({ level: "silent", destination: { write: () => undefined } }),
      metrics: createMetrics(),
      isReady: () => true,
      audience,
    });

  it("the apiserver's app serves /validate, /convert and health, never the Metacontroller hooks or metrics", async () => {
    const app = build("apiserver");
    expect((await request(app).post("/validate").send(aReview())).status).toBe(200);
    expect((await request(app).post("/convert").send({})).status).not.toBe(404);
    expect((await request(app).get("/healthz")).status).toBe(200);
    expect((await request(app).get("/readyz")).status).toBe(200);
    for (const path of ["/sync", "/customize"]) expect((await request(app).post(path).send({})).status).toBe(404);
    expect((await request(app).get("/metrics")).status).toBe(404);
  });

  it("Metacontroller's app serves the hooks, metrics and health, not the webhooks", async () => {
    const app = build("metacontroller");
    expect((await request(app).get("/metrics")).status).toBe(200);
    expect((await request(app).post("/validate").send(aReview())).status).toBe(404);
    expect((await request(app).post("/convert").send({})).status).toBe(404);
  });

  it("the default app serves everything (one plain listener, no TLS)", async () => {
    const app = build("all");
    expect((await request(app).post("/validate").send(aReview())).status).toBe(200);
    expect((await request(app).post("/convert").send({})).status).not.toBe(404);
    expect((await request(app).get("/metrics")).status).toBe(200);
  });
});

describe("POST /validate over HTTPS", () => {
  const first = makeCertificate("llsd-hooks.llsd-hooks.svc");
  const renewed = makeCertificate("llsd-hooks.llsd-hooks.svc");
  let dir: string;
  let tls: TlsServer;
  let reloaded: Promise<void>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "llsd-validate-tls-"));
    writeFileSync(join(dir, "tls.key"), first.key);
    writeFileSync(join(dir, "tls.crt"), first.cert);
    let signal: () => void = () => undefined;
    reloaded = new Promise((resolve) => {
      signal = resolve;
    });
    tls = createTlsServer(
      createApp({
        handlers: { sync: echoSync, customize: echoCustomize },
        logger: createLogger({ level: "silent", destination: { write: () => undefined } }),
        metrics: createMetrics(),
        isReady: () => true,
        audience: "apiserver",
      }),
      { certFile: join(dir, "tls.crt"), keyFile: join(dir, "tls.key") },
      {
        logger: createLogger({ level: "silent", destination: { write: () => undefined } }),
        debounceMs: 20,
        onReload: () => signal(),
      },
    );
    await new Promise<void>((resolve) => tls.server.listen(0, "127.0.0.1", resolve));
  });

  afterAll(async () => {
    await new Promise((resolve) => tls.server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it("reviews over TLS for a client that trusts the certificate", async () => {
    expect((tls.server.address() as AddressInfo).port).toBeGreaterThan(0);
    const response = await request(tls.server)
      .post("/validate")
      .ca(first.cert)
      .send(aReview({}, anLlsd(INVALID_SPEC)));
    expect(response.status).toBe(200);
    expect(response.body.response).toMatchObject({ uid: UID, allowed: false });
  });

  it("converts over TLS: a v1alpha1 object comes back as v1alpha2 with the uid echoed", async () => {
    const review = {
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "ConversionReview",
      request: {
        uid: "conv-1",
        desiredAPIVersion: "llamastack.io/v1alpha2",
        objects: [
          {
            apiVersion: "llamastack.io/v1alpha1",
            kind: "LlamaStackDistribution",
            metadata: { name: "old", namespace: "ns" },
            spec: { replicas: 2, server: { distribution: { name: "starter" }, containerSpec: { port: 8321 } } },
          },
        ],
      },
    };
    const response = await request(tls.server).post("/convert").ca(first.cert).send(review);
    expect(response.status).toBe(200);
    expect(response.body.response.uid).toBe("conv-1");
    expect(response.body.response.result.status).toBe("Success");
    expect(response.body.response.convertedObjects[0]).toMatchObject({
      apiVersion: "llamastack.io/v1alpha2",
      spec: { distribution: { name: "starter" }, networking: { port: 8321 }, workload: { replicas: 2 } },
    });
  });

  it("refuses a client that does not trust it", async () => {
    await expect(request(tls.server).post("/validate").ca(renewed.cert).send(aReview())).rejects.toThrow();
  });

  it("after renewal, serves the new certificate without a restart", async () => {
    writeFileSync(join(dir, "tls.key"), renewed.key);
    writeFileSync(join(dir, "tls.crt"), renewed.cert);
    await reloaded;
    const response = await request(tls.server).post("/validate").ca(renewed.cert).send(aReview());
    expect(response.status).toBe(200);
    expect(response.body.response).toEqual({ uid: UID, allowed: true });
    await expect(request(tls.server).post("/validate").ca(first.cert).send(aReview())).rejects.toThrow();
  });
});

/**
 * The OGX sections: the webhook refuses what `llsd validate` and `/sync` refuse (a section of an
 * API the CR's line lacks, a second provider of an API one provider serves, a section also
 * disabled), each at its field path, and admits the rest.
 */
const ON_08 = { image: "docker.io/ogx/distribution-starter:0.8.0" };
const S3 = { provider: "s3", endpoint: "http://minio:9000", settings: { bucket_name: "b" } };

type Answer = { allowed: boolean; status?: { details: { causes: { field: string; message: string }[] } } };

async function review(spec: object): Promise<Answer> {
  const { app } = aTestApp();
  const response = await request(app)
    .post("/validate")
    .send(aReview({}, anLlsd(spec)));
  expect(response.status).toBe(200);
  return (response.body as { response: Answer }).response;
}

describe("POST /validate, OGX sections", () => {
  it.each([
    [
      "skills on a 0.8 image",
      { distribution: ON_08, providers: { skills: { provider: "builtin" } } },
      "spec.providers.skills",
      "1.3.x",
    ],
    [
      "two files providers",
      {
        distribution: { name: "starter" },
        providers: {
          files: [
            { id: "a", ...S3 },
            { id: "b", ...S3 },
          ],
        },
      },
      "spec.providers.files[1]",
      "one provider",
    ],
    [
      "files both configured and disabled",
      { distribution: { name: "starter" }, providers: { files: S3 }, disabled: ["files"] },
      "spec.disabled[0]",
      'remove "files" from disabled',
    ],
  ])("denies %s at its field path", async (_name, spec, field, text) => {
    const answer = await review(spec);
    expect(answer.allowed).toBe(false);
    expect(answer.status?.details.causes).toEqual([
      { field, message: expect.stringContaining(text), type: "FieldValueInvalid" },
    ]);
  });

  it.each([
    ["files on S3", { distribution: { name: "starter" }, providers: { files: S3 } }],
    ["messages on a 0.8 image", { distribution: ON_08, providers: { messages: { id: "msg", provider: "builtin" } } }],
  ])("admits %s", async (_name, spec) => {
    expect((await review(spec)).allowed).toBe(true);
  });
});

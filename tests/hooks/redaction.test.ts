/**
 * What reaches the logs (hooks/redact.ts, hooks/logger.ts): at debug level the request and
 * response bodies, with every Secret's values (and annotations) replaced; an error's message
 * and stack scrubbed of the request's Secret values; the Authorization header never.
 * And the JSON body bounds (hooks/json-body.ts) every hook route shares.
 */
import fc from "fast-check";
import request from "supertest";
import { jsonDepthExceeds, MAX_JSON_DEPTH } from "../../hooks/json-body";
import { REDACTED, redactSecrets, scrub, scrubError, secretValuesOf } from "../../hooks/redact";
import { sync } from "../../lib/sync/sync";
import { aParent, aRequest, deps } from "../sync-builders";
import { aSyncBody, aTestApp, LEVEL } from "./helpers";

const VALUE = "tr4ce-canary-value-91c2";
const PASSWORD = "pg-pa55word-canary";
const b64 = (s: string) => Buffer.from(s).toString("base64");

const creds = {
  apiVersion: "v1",
  kind: "Secret",
  type: "Opaque",
  metadata: {
    name: "creds",
    namespace: "team-a",
    labels: { app: "x" },
    annotations: {
      "kubectl.kubernetes.io/last-applied-configuration": JSON.stringify({ stringData: { token: VALUE } }),
    },
  },
  data: { token: b64(VALUE), dsn: b64(`postgresql://llama:${PASSWORD}@db:5432/llama`) },
  stringData: { other: VALUE },
};

describe("redactSecrets", () => {
  it("keeps every key and every non-Secret value, and no Secret value or annotation", () => {
    const body = aSyncBody({ related: { "Secret.v1": { "team-a/creds": creds } } });
    const copy = redactSecrets(body) as typeof body;
    const secret = (copy.related as Record<string, Record<string, typeof creds>>)["Secret.v1"]!["team-a/creds"]!;
    expect(secret.data).toEqual({ token: REDACTED, dsn: REDACTED });
    expect(secret.stringData).toEqual({ other: REDACTED });
    expect(secret.metadata).toEqual({
      name: "creds",
      namespace: "team-a",
      labels: { app: "x" },
      annotations: { "kubectl.kubernetes.io/last-applied-configuration": REDACTED },
    });
    expect(copy.parent).toEqual(body.parent);
    expect(JSON.stringify(copy)).not.toContain(VALUE);
    expect(JSON.stringify(copy)).not.toContain(b64(VALUE));
    expect(body.related).toEqual({ "Secret.v1": { "team-a/creds": creds } }); // the original is untouched
  });

  it("finds Secrets anywhere: in lists, in children, in responses", () => {
    expect(redactSecrets([{ items: [creds] }])).toEqual([
      { items: [expect.objectContaining({ data: { token: REDACTED, dsn: REDACTED } })] },
    ]);
  });
});

describe("secretValuesOf + scrub", () => {
  it("collects values as sent (base64), decoded, and the passwords inside DSNs and dockerconfigjson", () => {
    const auth = b64(`robot:${PASSWORD}-docker`);
    const pull = {
      apiVersion: "v1",
      kind: "Secret",
      metadata: { name: "pull" },
      data: { ".dockerconfigjson": b64(JSON.stringify({ auths: { "quay.io": { auth } } })) },
    };
    const values = secretValuesOf({ related: { "Secret.v1": { a: creds, b: pull } } });
    expect(values).toEqual(expect.arrayContaining([VALUE, b64(VALUE), PASSWORD, `${PASSWORD}-docker`, auth]));
    const text = `failed on ${VALUE} (${b64(VALUE)}) for postgresql://llama:${PASSWORD}@db and robot:${PASSWORD}-docker`;
    const scrubbed = scrub(text, values);
    for (const v of [VALUE, b64(VALUE), PASSWORD]) expect(scrubbed).not.toContain(v);
  });

  it("scrubError keeps the error's class, message shape and stack frames", () => {
    const err = new TypeError(`cannot parse ${VALUE}`);
    const copy = scrubError(err, [VALUE]);
    expect(copy).toBeInstanceOf(TypeError);
    expect(copy.message).toBe(`cannot parse ${REDACTED}`);
    expect(copy.stack).toContain("redaction.test.ts");
    expect(copy.stack).not.toContain(VALUE);
    expect(scrubError("thrown string", []).message).toBe("non-error value thrown: thrown string");
    expect(scrubError(Object.create(null), []).message).toBe("non-error value thrown");
  });
});

describe("the hook logs", () => {
  const withSecret = () => aSyncBody({ related: { "Secret.v1": { "team-a/creds": creds } } });

  it.each(["debug", "trace"])(
    "at %s, log the request and response bodies with Secret values redacted",
    async (logLevel) => {
      const test = aTestApp({ logLevel });
      const response = await request(test.app).post("/sync").set("Authorization", `Bearer ${VALUE}`).send(withSecret());
      expect(response.status).toBe(200);
      const traced = test.lines().filter((l) => "redactedRequest" in l || "redactedResponse" in l);
      expect(traced.map((l) => l.level)).toEqual([20, 20]);
      expect(traced.map((l) => l.msg)).toEqual(["Hook request body", "Hook response body"]);
      expect(traced[0]).toMatchObject({
        hook: "sync",
        namespace: "team-a",
        name: "llsd",
        redactedRequest: { parent: aSyncBody().parent },
      });
      const logged = (traced[0]!.redactedRequest as { related: Record<string, Record<string, { data: unknown }>> })
        .related["Secret.v1"]!["team-a/creds"]!;
      expect(logged.data).toEqual({ token: REDACTED, dsn: REDACTED });
      expect(traced[1]).toMatchObject({
        redactedResponse: { children: [expect.objectContaining({ kind: "ConfigMap" })] },
      });
      expect(test.logText()).not.toContain(VALUE);
      expect(test.logText()).not.toContain(PASSWORD);
    },
  );

  it("at trace, the derived postgres Secret of a real sync response is logged without its data", async () => {
    const spec = {
      distribution: { name: "starter" },
      storage: { sql: { type: "postgres", connectionString: { name: "creds", key: "dsn" } } },
    };
    const test = aTestApp({ logLevel: "trace", handlers: { sync: (r) => Promise.resolve(sync(r, deps())) } });
    const body = aRequest(aParent(spec), [], [creds]);
    const response = await request(test.app).post("/sync").send(body);
    expect(JSON.stringify(response.body)).toContain(b64(PASSWORD)); // the derived Secret carries it: allowed in the response
    expect(test.logText()).not.toContain(PASSWORD);
    expect(test.logText()).not.toContain(b64(PASSWORD));
    expect(test.logText()).toContain('"kind":"Secret"');
  });

  it("at info, no body at all", async () => {
    const test = aTestApp({ logLevel: "info" });
    await request(test.app).post("/sync").send(withSecret());
    expect(test.logText()).not.toContain("redactedRequest");
    expect(test.logText()).not.toContain(VALUE);
  });

  it("an error that quotes a Secret value is logged with the value scrubbed", async () => {
    const test = aTestApp({
      logLevel: "trace",
      handlers: {
        sync: () => Promise.reject(new Error(`bad DSN postgresql://llama:${PASSWORD}@db (token ${VALUE})`)),
      },
    });
    const response = await request(test.app).post("/sync").send(withSecret());
    // Answered Failed/InternalError: the status names the error, scrubbed by the same scrubber.
    expect(response.status).toBe(200);
    expect(response.body.status.conditions[0].message).toContain(
      `bad DSN postgresql://llama:${REDACTED}@db (token ${REDACTED})`,
    );
    expect(response.text).not.toContain(VALUE);
    expect(response.text).not.toContain(PASSWORD);
    const line = test.lines().find((l) => l.level === LEVEL.error);
    expect(line?.err).toMatchObject({
      type: "Error",
      message: `bad DSN postgresql://llama:${REDACTED}@db (token ${REDACTED})`,
    });
    expect(test.logText()).not.toContain(VALUE);
    expect(test.logText()).not.toContain(PASSWORD);
  });
});

describe("JSON nesting bound", () => {
  const nested = (depth: number) => `{"parent":${"[".repeat(depth - 1)}${"]".repeat(depth - 1)}}`;

  it(`answers 400 JSON for a body nested deeper than ${MAX_JSON_DEPTH} levels, on every hook route`, async () => {
    const test = aTestApp();
    for (const path of ["/sync", "/customize", "/validate", "/convert"]) {
      const res = await request(test.app)
        .post(path)
        .set("Content-Type", "application/json")
        .send(nested(MAX_JSON_DEPTH + 1));
      expect({ path, status: res.status, body: res.body }).toEqual({
        path,
        status: 400,
        body: { error: `request body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep` },
      });
    }
    const deepest = await request(test.app)
      .post("/sync")
      .set("Content-Type", "application/json")
      .send(nested(MAX_JSON_DEPTH));
    expect(deepest.body).toEqual({ error: "parent must be an object, got array" });
  });

  it("counts objects and arrays, never brackets inside strings", () => {
    expect(jsonDepthExceeds(JSON.parse(`{"a":"${"[".repeat(500)}\\"${"{".repeat(500)}"}`), 2)).toBe(false);
    expect(jsonDepthExceeds(JSON.parse("[[[]]]"), 2)).toBe(true);
    expect(jsonDepthExceeds(JSON.parse("[[],[],[]]"), 2)).toBe(false);
    expect(jsonDepthExceeds(JSON.parse('{"__proto__":[[{}]]}'), 3)).toBe(true); // an own key like any other
    expect(jsonDepthExceeds("[[[[", 0)).toBe(false);
  });

  it("answers 400 JSON, not a stack overflow, for 100 000 nested arrays", async () => {
    const test = aTestApp();
    const res = await request(test.app).post("/sync").set("Content-Type", "application/json").send(nested(100_000));
    expect({ status: res.status, body: res.body }).toEqual({
      status: 400,
      body: { error: `request body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep` },
    });
  });

  it("agrees with the depth of the parsed value, for any JSON (strings full of quotes, backslashes and brackets)", () => {
    const depthOf = (v: unknown): number =>
      typeof v === "object" && v !== null ? 1 + Math.max(0, ...Object.values(v).map(depthOf)) : 0;
    const tricky = fc.string({ unit: fc.constantFrom(...'\\"[]{}a ') });
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: "small" },
        tricky,
        fc.integer(),
        fc.array(tie("node"), { maxLength: 3 }),
        fc.dictionary(tricky, tie("node"), { maxKeys: 3 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, fc.integer({ min: 0, max: 6 }), (v, limit) => {
        expect(jsonDepthExceeds(JSON.parse(JSON.stringify(v)), limit)).toBe(depthOf(v) > limit);
      }),
      { numRuns: 2000 },
    );
  });
});

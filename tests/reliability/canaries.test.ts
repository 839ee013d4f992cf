/**
 * Secret canaries (docs/security.md, Secret values): every sample, and every failure case, runs with each Secret
 * value replaced by a unique canary string. The canary (as is, or base64 as in a Secret's data)
 * must not appear in any response — except the `data` of the derived `<name>-postgres` Secret,
 * whose job is to carry it — nor in any status, error message or log line (pino captured at
 * trace, so every level is in).
 */
import { randomBytes } from "node:crypto";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { createBaseConfigResolver } from "../../lib/oci";
import { createRegistryGuard } from "../../lib/oci/ssrf";
import { guardResolver } from "../../lib/oci/guard-resolver";
import { customize } from "../../lib/sync/customize";
import { syncWith } from "../../lib/sync";
import { sync } from "../../lib/sync/sync";
import type { KubeObject, SyncRequest, SyncResponse } from "../../lib/wire/metacontroller";
import { fixtureFound } from "../external-fixtures";
import { b64 as b64Text, configYaml } from "../oci/support/configs";
import { pushImage } from "../oci/support/images";
import { startRegistry, type Registry } from "../oci/support/registry";
import { aConfigMap, aParent, aRequest, deps, NS, objectMap, observedFrom, sampleRequest } from "../sync-builders";
import { secretOf, startHarness, type Harness } from "./support";

const SAMPLES = join(__dirname, "..", "..", "samples");
const samples = readdirSync(SAMPLES)
  .filter((f) => f.endsWith(".yaml"))
  .sort();
const b64 = (s: string): string => Buffer.from(s, "utf8").toString("base64");

/** Every canary handed out in this file, and every value built around one (DSNs, docker configs). */
const canaries: string[] = [];
const values: string[] = [];
function canary(): string {
  const c = `cnry${randomBytes(6).toString("hex")}${canaries.length}`;
  canaries.push(c);
  return c;
}

/** The forms in which a canary or a value could leak. */
function leaksIn(text: string): string[] {
  const forms = [...canaries, ...canaries.map(b64), ...values, ...values.map(b64)];
  return forms.filter((f) => text.includes(f));
}

/** The response without the one place a Secret value may be: the derived Postgres Secret's data. */
function withoutDerivedData(text: string, parentName: string): string {
  let parsed: { children?: KubeObject[] };
  try {
    parsed = JSON.parse(text) as { children?: KubeObject[] };
  } catch {
    return text;
  }
  if (!Array.isArray(parsed.children)) return text;
  return JSON.stringify({
    ...parsed,
    children: parsed.children.map((c) =>
      c.kind === "Secret" && c.metadata.name === `${parentName}-postgres` ? { ...c, data: "(derived)" } : c,
    ),
  });
}

/** A canary-valued replacement for a Secret value: DSNs stay DSNs, docker configs stay docker configs. */
function canaryValue(original: string, type: string | undefined): string {
  const c = canary();
  let value = c;
  if (/^postgres(ql)?:\/\//.test(original)) value = `postgresql://llama:${c}@postgres.db.svc:5432/llamastack`;
  else if (type === "kubernetes.io/dockerconfigjson")
    value = JSON.stringify({ auths: { "quay.io": { username: "robot", password: c, auth: b64(`robot:${c}`) } } });
  if (value !== c) values.push(value);
  return value;
}

/** Every Secret of the request with canary values; the kubectl annotation that repeats them too. */
function withCanaries(request: SyncRequest): SyncRequest {
  const related: Record<string, Record<string, KubeObject>> = {};
  for (const [kind, objects] of Object.entries(request.related ?? {})) {
    related[kind] = Object.fromEntries(
      Object.entries(objects).map(([key, o]) => {
        if (o.kind !== "Secret") return [key, o];
        const plain = Object.fromEntries(
          Object.entries((o.data ?? {}) as Record<string, string>).map(([k, v]) => [
            k,
            canaryValue(Buffer.from(v, "base64").toString("utf8"), o.type as string | undefined),
          ]),
        );
        const annotations = {
          ...o.metadata.annotations,
          "kubectl.kubernetes.io/last-applied-configuration": JSON.stringify({
            apiVersion: "v1",
            kind: "Secret",
            stringData: plain,
          }),
        };
        return [key, { ...secretOf(o.metadata.name, plain), type: o.type, metadata: { ...o.metadata, annotations } }];
      }),
    );
  }
  return { ...request, related };
}

/** A labelled dockerconfigjson Secret (the customize hook asks for these), canary password. */
function pullSecret(host = "quay.io", password = canary()): KubeObject {
  const config = JSON.stringify({ auths: { [host]: { username: "robot", password, auth: b64(`robot:${password}`) } } });
  values.push(config);
  return {
    ...secretOf("pull", { ".dockerconfigjson": config }),
    type: "kubernetes.io/dockerconfigjson",
    metadata: { name: "pull", namespace: NS, labels: { "llamastack.io/registry-credentials": "true" } },
  };
}

let harness: Harness;
let registry: Registry;
let registryResolver: ReturnType<typeof guardResolver>;

beforeAll(async () => {
  // A private registry, for credentials that fail: the canary is then a wrong password.
  registry = await startRegistry({ kind: "htpasswd", htpasswdFile: join(__dirname, "../fixtures/oci/htpasswd") });
  const basic = `Basic ${Buffer.from("testuser:testpass").toString("base64")}`;
  await pushImage({ url: registry.url, authorization: () => basic }, "private/llsd", "0.8.0", {
    labels: { "io.llamastack.config.base64": b64Text(configYaml("private")) },
  });
  const policy = { insecureRegistries: [registry.host] };
  registryResolver = guardResolver(
    createBaseConfigResolver({ ...policy, deadlineMs: 2000 }),
    createRegistryGuard(policy),
  );
  harness = await startHarness({
    logLevel: "trace",
    handlers: {
      // Image references go to the registry (so credentials are used); named distributions stay offline.
      sync: (r) =>
        (r.parent.spec as { distribution?: { image?: string } }).distribution?.image
          ? syncWith(r, deps(), registryResolver)
          : Promise.resolve(sync(r, deps(), fixtureFound((r.parent as { spec?: unknown }).spec))),
      customize: (r) => Promise.resolve(customize(r)),
    },
  });
}, 60_000);

afterAll(async () => {
  await harness?.close();
  await registry?.stop();
});

beforeEach(() => harness.clearLogs());

async function expectNoLeak(path: string, body: unknown, parentName: string): Promise<string> {
  const answer = await harness.post(path, body);
  expect({ path, status: answer.status < 500 }).toEqual({ path, status: true });
  expect({ path, response: leaksIn(withoutDerivedData(answer.text, parentName)) }).toEqual({ path, response: [] });
  return answer.text;
}

function expectCleanLogs(): void {
  expect(harness.logText().length).toBeGreaterThan(0);
  expect({ logs: leaksIn(harness.logText()) }).toEqual({ logs: [] });
}

describe.each(samples)("samples/%s with canary Secret values", (file) => {
  it("no canary in the sync answers (first, and once applied), the customize answer, or the logs", async () => {
    const request = withCanaries(sampleRequest(join(SAMPLES, file)));
    const withPull = {
      ...request,
      related: { ...request.related, "Secret.v1": { ...request.related?.["Secret.v1"], [`${NS}/pull`]: pullSecret() } },
    };
    const name = request.parent.metadata.name;

    const first = JSON.parse(await expectNoLeak("/sync", withPull, name)) as SyncResponse;
    expect(first.status.phase).not.toBe("Failed");
    const applied = {
      ...withPull,
      parent: { ...withPull.parent, status: first.status },
      children: objectMap(observedFrom(first.children)),
    };
    const again = JSON.parse(await expectNoLeak("/sync", applied, name)) as SyncResponse;
    expect(again.status.phase).not.toBe("Failed");
    await expectNoLeak("/customize", { parent: request.parent }, name);
    expectCleanLogs();
  });
});

describe("failure cases with canary Secret values", () => {
  const vllm = { provider: "vllm", endpoint: "http://vllm:8000", apiKey: { name: "creds", key: "token" } };
  const good = { distribution: { name: "starter" }, providers: { inference: vllm } };
  const pg = (key = "dsn") => ({
    ...good,
    storage: { sql: { type: "postgres", connectionString: { name: "pg", key } } },
  });

  /** The children of a running server for `spec`, with canary values in its derived Secret. */
  function runningFor(spec: object, related: KubeObject[]): KubeObject[] {
    const first = sync(aRequest(aParent(spec), [], related), deps());
    expect(first.status.phase).toBe("Pending");
    return observedFrom(first.children);
  }

  const CASES: [string, () => { spec: object; related: KubeObject[]; children?: KubeObject[]; phase?: string }][] = [
    [
      "a Secret without the key the spec names",
      () => ({ spec: good, related: [secretOf("creds", { other: canary(), more: canary() })] }),
    ],
    [
      "a connection string that is not a URL",
      () => {
        const value = `not a url ${canary()}`;
        values.push(value);
        return { spec: pg(), related: [secretOf("creds", { token: canary() }), secretOf("pg", { dsn: value })] };
      },
    ],
    [
      "a connection string of another scheme",
      () => {
        const value = `mysql://root:${canary()}@db:3306/x`;
        values.push(value);
        return { spec: pg(), related: [secretOf("creds", { token: canary() }), secretOf("pg", { dsn: value })] };
      },
    ],
    [
      "a connection string without a host",
      () => {
        const value = `postgresql://llama:${canary()}@/x`;
        values.push(value);
        return { spec: pg(), related: [secretOf("creds", { token: canary() }), secretOf("pg", { dsn: value })] };
      },
    ],
    [
      "Secret data that is not base64",
      () => {
        const c = canary();
        // The hooks never decode an API key (the pod reads it through secretKeyRef): not a failure.
        return { spec: good, related: [{ ...secretOf("creds", {}), data: { token: `!!${c}!!` } }], phase: "Pending" };
      },
    ],
    [
      "an invalid spec, after a good state (the derived Secret is kept)",
      () => {
        const related = [
          secretOf("creds", { token: canary() }),
          secretOf("pg", { dsn: `postgresql://llama:${canary()}@db:5432/x` }),
        ];
        return {
          spec: { ...pg(), providers: { inference: [vllm, { provider: "ollama" }] } },
          related,
          children: runningFor(pg(), related),
        };
      },
    ],
    [
      "a missing Secret, after a good state",
      () => {
        const related = [
          secretOf("creds", { token: canary() }),
          secretOf("pg", { dsn: `postgresql://llama:${canary()}@db:5432/x` }),
        ];
        return { spec: pg("other-key"), related, children: runningFor(pg(), related) };
      },
    ],
    [
      "a schema-invalid spec",
      () => ({ spec: { ...good, networking: { port: "eighty" } }, related: [secretOf("creds", { token: canary() })] }),
    ],
    [
      "an override ConfigMap without config.yaml",
      () => ({
        spec: { distribution: { name: "starter" }, overrideConfig: { configMapName: "cm" } },
        related: [secretOf("creds", { token: canary() }), aConfigMap("cm", { "run.yaml": "version: 2" })],
      }),
    ],
    [
      "an image whose registry cannot be reached",
      () => ({
        spec: { ...good, distribution: { image: "registry.invalid/acme/llama:0.7.1" } },
        related: [secretOf("creds", { token: canary() }), pullSecret("registry.invalid")],
      }),
    ],
    [
      "a missing override ConfigMap",
      () => ({
        spec: { distribution: { name: "starter" }, overrideConfig: { configMapName: "nope" } },
        related: [secretOf("creds", { token: canary() }), pullSecret()],
      }),
    ],
    [
      "an override ConfigMap that quotes a Secret value",
      () => {
        const c = canary();
        return {
          spec: { distribution: { name: "starter" }, overrideConfig: { configMapName: "cm" } },
          related: [secretOf("creds", { token: c }), aConfigMap("cm", { "config.yaml": `version: 3\nnote: ${c}\n` })],
        };
      },
    ],
    [
      "registry credentials the registry rejects",
      () => ({
        spec: { ...good, distribution: { image: `${registry.host}/private/llsd:0.8.0` } },
        related: [secretOf("creds", { token: canary() }), pullSecret(registry.host)],
      }),
    ],
    [
      "no registry credentials for a private registry",
      () => ({
        spec: { ...good, distribution: { image: `${registry.host}/private/llsd:0.8.0` } },
        related: [secretOf("creds", { token: canary() }), pullSecret("quay.io")],
      }),
    ],
  ];

  it.each(CASES)("%s: no canary in the answer, the status or the logs", async (_title, make) => {
    const { spec, related, children = [], phase = "Failed" } = make();
    const body = aRequest(aParent(spec, { generation: 2 }), children, related);
    const answer = JSON.parse(await expectNoLeak("/sync", body, "demo")) as SyncResponse;
    expect(answer.status.phase).toBe(phase);
    await expectNoLeak("/customize", { parent: body.parent }, "demo");
    expectCleanLogs();
  });

  it("malformed requests that carry Secrets: the 4xx messages and the logs hold no canary", async () => {
    const secret = secretOf("creds", { token: canary() });
    const base = aRequest(aParent(good), [], [secret]);
    const bodies: unknown[] = [
      { ...base, related: { "Secret.v1": { "team-a/creds": { ...secret, metadata: {} } } } },
      { ...base, related: { "Secret.v1": { [`team-a/${canaries[canaries.length - 1]}`]: { ...secret, kind: 7 } } } },
      { ...base, parent: { ...base.parent, metadata: { name: "demo" } } },
      { ...base, children: canaries[canaries.length - 1] },
    ];
    for (const body of bodies) {
      const answer = await harness.post("/sync", body);
      expect(answer.status).toBe(400);
      expect(leaksIn(answer.text.replace(`team-a/${canaries[canaries.length - 1]}`, "(key)"))).toEqual([]);
    }
    const text = JSON.stringify(base);
    for (const broken of [text.slice(0, -10), `${text.slice(0, 200)}\u0000${text.slice(200)}`]) {
      const answer = await harness.send("POST", "/sync", broken, { "content-type": "application/json" });
      expect({ status: answer.status, body: answer.text }).toEqual({
        status: 400,
        body: '{"error":"request body is not valid JSON"}',
      });
    }
    expect(
      leaksIn(harness.logText().replace(new RegExp(`team-a/${canaries[canaries.length - 1]}`, "g"), "(key)")),
    ).toEqual([]);
  });
});

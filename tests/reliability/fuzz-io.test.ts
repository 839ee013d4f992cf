/**
 * Fuzzing /sync where its I/O reads: the production handlers (hooks/handlers.ts, image labels
 * on) over HTTP, base configs from a real registry (Debian docker-registry on 127.0.0.1) whose
 * images carry hostile config labels, registries that redirect to a loopback host nobody
 * listed, and hostile Secret and ConfigMap values (`%`, very long, binary bytes, YAML tags,
 * anchors and aliases). Each run is a parent that ran fine once, then re-synced with hostile data.
 *
 * Properties: the answer is a 200 with children and a status (never a 5xx, nothing logged at
 * error level: nothing threw); a Failed answer keeps every child it observed; no Secret value
 * (each carries a unique marker) appears in the status, the ConfigMap or the log; nothing
 * reaches the host a redirect pointed at.
 *
 * Bounded: FUZZ_IO_RUNS runs per property (default 150), at most FUZZ_IO_LIMIT_MS each (12 000). The seed is in the title:
 * FUZZ_SEED=<n> replays a failure; FUZZ_IO_DEBUG=1 prints each run's image and unmet conditions.
 * The log is at debug level, so request bodies (Secrets redacted) are logged and checked too.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { createApp } from "../../hooks/app";
import { productionHandlers } from "../../hooks/handlers";
import { createLogger } from "../../hooks/logger";
import { createMetrics } from "../../hooks/metrics";
import type { KubeObject, SyncResponse } from "../../lib/wire/metacontroller";
import { b64, configYaml } from "../oci/support/configs";
import { pushImage } from "../oci/support/images";
import { startRegistry, type Registry } from "../oci/support/registry";
import { aConfigMap, aParent, aRequest, NS, observedFrom } from "../sync-builders";
import { aValidSpec } from "./arbitraries";
import { httpClient, secretRefsIn, type Client } from "./support";

const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const RUNS = Number(process.env.FUZZ_IO_RUNS ?? 150);
/** Each property stops after this many ms (not counted as a failure): the file stays under ~30 s on a busy machine. */
const LIMIT_MS = Number(process.env.FUZZ_IO_LIMIT_MS ?? 12_000);

/** Base config texts a label may carry: bad YAML, wrong shapes, non-JSON tags, alias bombs, huge. */
const HOSTILE_CONFIGS: Record<string, string> = {
  "bad-yaml": "version: [2\nproviders: {\n",
  "a-list": "- version\n- 2\n",
  "a-number": "3\n",
  "providers-number": "version: 2\nproviders:\n  inference: 3\n",
  "binary-tag": "version: 2\nproviders: {}\nimage: !!binary aGVsbG8=\n",
  "set-tag": "version: 2\napis: !!set {inference}\nproviders: {}\n",
  "python-tag": "version: 2\nproviders: !!python/object:os.system {}\n",
  "alias-bomb": [
    "a: &a [x,x,x,x,x,x,x,x,x,x]",
    ...Array.from(
      { length: 8 },
      (_, i) =>
        `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(10)
          .fill(`*${String.fromCharCode(97 + i)}`)
          .join(",")}]`,
    ),
    "version: 2",
    "providers: {}",
    "",
  ].join("\n"),
  "anchored-providers":
    "x: &p [{provider_id: a, provider_type: remote::vllm, config: {base_url: 'http://v'}}]\nversion: 2\nproviders:\n  inference: *p\n  safety: *p\n",
  huge: `${configYaml("huge").trimEnd()}\n${Array.from({ length: 40_000 }, (_, i) => `# ${i} ${"x".repeat(40)}`).join("\n")}\n`,
};

/** Labels as pushed: the base64 label with each text, and a few labels that are not base64 or not UTF-8. */
function hostileLabels(): Record<string, Record<string, string>> {
  const labels: Record<string, Record<string, string>> = {};
  for (const [name, text] of Object.entries(HOSTILE_CONFIGS))
    labels[name] = { "io.llamastack.config.base64": b64(text) };
  labels["not-base64"] = { "io.llamastack.config.base64": "%%% not base64 !!binary" };
  labels["binary-bytes"] = {
    "io.llamastack.config.base64": Buffer.from([0xff, 0xfe, 0x00, 0x80, 0x0a, 0xc3]).toString("base64"),
  };
  labels["ogx-bad"] = {
    "com.ogx.config.config.yaml": b64(HOSTILE_CONFIGS["binary-tag"]!),
    "com.ogx.distribution.default-config": "config.yaml",
    "com.ogx.distribution.version": "1.3.0",
  };
  labels["ogx-missing-default"] = {
    "com.ogx.config.config.yaml": b64(configYaml("ogx")),
    "com.ogx.distribution.default-config": "../../etc/passwd",
  };
  labels["version-junk"] = {
    "io.llamastack.config.base64": b64(configYaml("v")),
    "com.ogx.distribution.version": "!!binary {}",
  };
  labels.good = { "io.llamastack.config.base64": b64(configYaml("good")), "com.ogx.distribution.version": "0.8.0" };
  return labels;
}

/** An HTTP server that redirects every request to `target` (a registry nobody listed). */
async function startRedirector(target: () => string): Promise<{ host: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    res.writeHead(307, { location: `${target()}${req.url ?? "/"}` });
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    host: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A loopback server nobody listed: counts what reaches it. */
async function startForbidden(): Promise<{ host: string; hits: () => number; close(): Promise<void> }> {
  let hits = 0;
  const server: Server = createServer((_req, res) => {
    hits++;
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    host: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits: () => hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let registry: Registry;
let forbidden: Awaited<ReturnType<typeof startForbidden>>;
let redirectors: Awaited<ReturnType<typeof startRedirector>>[];
let images: string[];
let server: Server;
let client: Client;
let log: string[] = [];

beforeAll(async () => {
  registry = await startRegistry();
  forbidden = await startForbidden();
  // To an unlisted loopback port, to the metadata address, and to the registry by a name nobody listed.
  redirectors = await Promise.all([
    startRedirector(() => `http://${forbidden.host}`),
    startRedirector(() => "http://169.254.169.254"),
    startRedirector(() => `http://localhost:${registry.host.split(":")[1]}`),
  ]);
  const labels = hostileLabels();
  for (const [name, l] of Object.entries(labels))
    await pushImage({ url: registry.url }, `fuzz/${name}`, "0.8.0", { labels: l });
  images = [
    ...Object.keys(labels).map((name) => `${registry.host}/fuzz/${name}:0.8.0`),
    `${registry.host}/fuzz/absent:0.8.0`,
    ...redirectors.map((r) => `${r.host}/fuzz/good:0.8.0`),
  ];
  const logger = createLogger({ level: "debug", destination: { write: (line: string) => void log.push(line) } });
  const env = {
    INSECURE_REGISTRIES: [registry.host, ...redirectors.map((r) => r.host)].join(","),
    LLSD_LIVE_STATUS: "false",
  };
  const app = createApp({
    handlers: productionHandlers(logger, env),
    logger,
    metrics: createMetrics(),
    isReady: () => true,
  });
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  client = httpClient((server.address() as AddressInfo).port, { timeoutMs: 20_000 });
}, 60_000);

afterAll(async () => {
  client?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await Promise.all((redirectors ?? []).map((r) => r.close()));
  await forbidden?.close();
  await registry?.stop();
});

// ---------------------------------------------------------------------------------------------

const awkward = fc.oneof(
  fc.constantFrom(
    "%",
    "%%",
    "%zz",
    "50%off",
    "!!binary aGk=",
    "!!set {a}",
    "&a x",
    "*a",
    "<<: *a",
    "${env.X}",
    "- x",
    "~",
    "\n",
    "\u0000",
    "'\"",
    "#",
  ),
  fc.string({ maxLength: 20 }),
  // Long, but a request with every value this long stays well-formed: under the 8 MB body limit (a 413 otherwise).
  fc.integer({ min: 1000, max: 50_000 }).map((n) => "%".repeat(n)),
);
/** A Secret value: awkward text around a unique marker, as UTF-8 or with binary bytes around it. */
const aSecretValue = fc
  .tuple(awkward, awkward, fc.stringMatching(/^[a-z0-9]{10}$/), fc.boolean())
  .map(([before, after, id, binary]) => {
    const marker = `SeCrEt${id}`;
    const text = Buffer.from(`${before}${marker}${after}`);
    return {
      marker,
      bytes: binary ? Buffer.concat([Buffer.from([0xff, 0x00, 0xc3]), text, Buffer.from([0x80])]) : text,
    };
  });
const secretWith = (name: string, key: string, bytes: Buffer): KubeObject => ({
  apiVersion: "v1",
  kind: "Secret",
  metadata: { name, namespace: NS, uid: `uid-${name}`, resourceVersion: "1" },
  data: { [key]: bytes.toString("base64") },
});

const aDsn = fc.tuple(awkward, aSecretValue).map(([user, pw]) => ({
  marker: pw.marker,
  bytes: Buffer.concat([Buffer.from(`postgresql://${user}:`), pw.bytes, Buffer.from("@db:5432/llama")]),
}));
const aConfigText = fc.oneof(
  fc.constantFrom(...Object.values(HOSTILE_CONFIGS).filter((t) => t.length < 10_000)),
  awkward.map((a) => `version: 2\nproviders: {}\nimage_name: ${a}\n`),
);

const aCase = fc.record({
  image: fc.nat(1000),
  token: aSecretValue,
  dsn: fc.oneof(fc.constant(undefined), aDsn),
  // Now and then an override ConfigMap instead of the image's config (it excludes providers and storage).
  override: fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: aConfigText }),
});

const unmet = (r: SyncResponse): string =>
  (r.status.conditions as { type: string; status: string; reason: string; message: string }[])
    .filter((x) => x.status !== "True")
    .map((x) => `${x.type}:${x.reason}:${x.message.slice(0, 150)}`)
    .join(" | ");

const post = async (body: unknown): Promise<{ status: number; response: SyncResponse; text: string }> => {
  const answer = await client.post("/sync", body);
  return { status: answer.status, text: answer.text, response: JSON.parse(answer.text) as SyncResponse };
};

describe(`fuzzing /sync through its I/O (seed ${SEED}, ${RUNS} runs)`, () => {
  it(
    "hostile labels, redirects, Secrets and ConfigMaps: 200, children kept on failure, no Secret value out, no forbidden hop",
    async () => {
      let ran = 0;
      await fc.assert(
        fc.asyncProperty(aCase, async (c) => {
          ran++;
          log = [];
          const image = images[c.image % images.length]!;
          const providers = {
            inference: { provider: "vllm", endpoint: "http://vllm:8000", apiKey: { name: "creds", key: "token" } },
          };
          const spec =
            c.override !== undefined
              ? { distribution: { image }, overrideConfig: { configMapName: "cm" } }
              : {
                  distribution: { image },
                  providers,
                  ...(c.dsn
                    ? { storage: { sql: { type: "postgres", connectionString: { name: "pg", key: "dsn" } } } }
                    : {}),
                };
          const tame = { distribution: { name: "starter" }, providers };
          const first = await post(aRequest(aParent(tame), [], [secretWith("creds", "token", Buffer.from("t0ken"))]));
          expect(first.status).toBe(200);
          const related = [
            secretWith("creds", "token", c.token.bytes),
            ...(c.dsn ? [secretWith("pg", "dsn", c.dsn.bytes)] : []),
            ...(c.override !== undefined ? [aConfigMap("cm", { "config.yaml": c.override })] : []),
          ];
          const again = await post(
            aRequest(aParent(spec, { generation: 2 }), observedFrom(first.response.children), related),
          );

          expect({ image, status: again.status, body: again.status === 200 ? "" : again.text.slice(0, 300) }).toEqual({
            image,
            status: 200,
            body: "",
          });
          expect(Array.isArray(again.response.children)).toBe(true);
          const errors = log.filter((line) => (JSON.parse(line) as { level: number }).level >= 50);
          expect(errors).toEqual([]);
          if (again.response.status.phase === "Failed") {
            const names = (r: SyncResponse) => r.children.map((o) => `${o.kind}/${o.metadata.name}`);
            expect(names(again.response)).toEqual(expect.arrayContaining(names(first.response)));
          }
          if (process.env.FUZZ_IO_DEBUG)
            process.stdout.write(`${image} ${String(again.response.status.phase)} ${unmet(again.response)}\n`);
          const configMaps = JSON.stringify(again.response.children.filter((o) => o.kind === "ConfigMap"));
          const seen = `${JSON.stringify(again.response.status)}\n${configMaps}\n${log.join("")}`;
          for (const marker of [c.token.marker, ...(c.dsn ? [c.dsn.marker] : [])])
            expect(seen.includes(marker) ? `${marker} leaked` : "").toBe("");
        }),
        { numRuns: RUNS, seed: SEED, interruptAfterTimeLimit: LIMIT_MS, endOnFailure: true },
      );
      expect(ran).toBeGreaterThan(Math.min(RUNS, 10));
      expect(forbidden.hits()).toBe(0);
    },
    LIMIT_MS + 20_000,
  );

  it(
    "every Secret and ConfigMap a valid spec references, hostile, with an image from the registry: the same properties",
    async () => {
      let ran = 0;
      const values = fc.array(aSecretValue, { minLength: 16, maxLength: 16 });
      const configMapValues = fc.record({ ca: fc.oneof(awkward, aConfigText), config: aConfigText });
      await fc.assert(
        fc.asyncProperty(aValidSpec, fc.nat(1000), values, configMapValues, async (valid, pick, hostile, cm) => {
          ran++;
          log = [];
          const image = images[pick % images.length]!;
          const spec = {
            ...valid,
            distribution: { image },
            ...(valid.externalProviders
              ? {
                  externalProviders: {
                    inference: [{ providerId: "custom-inference", image: `${registry.host}/fuzz/good:0.8.0` }],
                  },
                }
              : {}),
          };
          const refs = secretRefsIn(spec);
          const secrets = (value: (i: number, path: string) => Buffer): KubeObject[] => {
            const byName = new Map<string, Record<string, string>>();
            refs.forEach((ref, i) =>
              byName.set(ref.name, { ...byName.get(ref.name), [ref.key]: value(i, ref.path).toString("base64") }),
            );
            return [...byName].map(([name, data]) => ({
              apiVersion: "v1",
              kind: "Secret",
              metadata: { name, namespace: NS },
              data,
            }));
          };
          const dsn = (password: Buffer): Buffer =>
            Buffer.concat([Buffer.from("postgresql://llama:"), password, Buffer.from("@db:5432/llama")]);
          const tameSecrets = secrets((_, path) =>
            path.includes("connectionString") ? dsn(Buffer.from("pw")) : Buffer.from("t0ken"),
          );
          const first = await post(aRequest(aParent({ ...valid, distribution: { name: "starter" } }), [], tameSecrets));
          expect(first.status).toBe(200);
          const used = refs.map((_, i) => hostile[i % hostile.length]!);
          const related = [
            ...secrets((i, path) => (path.includes("connectionString") ? dsn(used[i]!.bytes) : used[i]!.bytes)),
            aConfigMap("custom-ca", { "ca.crt": cm.ca, "extra.crt": cm.ca, "ca-bundle.crt": cm.ca }),
            aConfigMap("my-config", { "config.yaml": cm.config }),
          ];
          const again = await post(
            aRequest(aParent(spec, { generation: 2 }), observedFrom(first.response.children), related),
          );
          if (process.env.FUZZ_IO_DEBUG)
            process.stdout.write(
              `${image} ${String(again.response.status?.phase)} ${again.status === 200 ? unmet(again.response) : again.text.slice(0, 300)}\n`,
            );

          expect({ image, status: again.status, body: again.status === 200 ? "" : again.text.slice(0, 300) }).toEqual({
            image,
            status: 200,
            body: "",
          });
          expect(log.filter((line) => (JSON.parse(line) as { level: number }).level >= 50)).toEqual([]);
          if (again.response.status.phase === "Failed") {
            const names = (r: SyncResponse) => r.children.map((o) => `${o.kind}/${o.metadata.name}`);
            expect(names(again.response)).toEqual(expect.arrayContaining(names(first.response)));
          }
          const seen = `${JSON.stringify(again.response.status)}\n${JSON.stringify(again.response.children.filter((o) => o.kind === "ConfigMap"))}\n${log.join("")}`;
          for (const value of used) expect(seen.includes(value.marker) ? `${value.marker} leaked` : "").toBe("");
        }),
        { numRuns: RUNS, seed: SEED + 1, interruptAfterTimeLimit: LIMIT_MS, endOnFailure: true },
      );
      expect(ran).toBeGreaterThan(Math.min(RUNS, 10));
      expect(forbidden.hits()).toBe(0);
    },
    LIMIT_MS + 20_000,
  );
});

/**
 * Metacontroller's hooks over TLS, as the overlays wire them (docs/security.md). Every overlay
 * is built offline by a real `kubectl kustomize`, and its CompositeController hooks are checked
 * against Metacontroller's own Webhook fields (metacontroller-webhook-schema.ts). For the
 * cert-manager overlays (with and without components/hooks-mtls) a real handshake follows:
 * a CA and the serving certificate for the Certificate's dnsNames are issued as cert-manager's
 * CA Issuer would, the Secrets are written where the Deployment mounts them, the service starts
 * with the Deployment's own env, and `/sync` is called the way Metacontroller calls it — at the
 * CompositeController's URL (its host as the TLS server name), trusting the CA its caBundle
 * names, sending the token its authorization names and, with mTLS, the client certificate its
 * clientTLS names. The overlay docs/security.md shows for the plain overlays gets the same
 * handshake, with a certificate for the name the doc asks for.
 */
import Ajv from "ajv";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { parseAllDocuments } from "yaml";
import { tokenSourceFromEnv } from "../../hooks/auth";
import { createLogger } from "../../hooks/logger";
import { serviceConfigFromEnv, startService, type Service } from "../../hooks/service";
import { makeCa, type TestCa } from "../admission/certificates";
import { aSyncBody, anAdmissionReview, echoCustomize, echoSync } from "../hooks/helpers";
import { httpsCall } from "../hooks/https-call";
import { buildWithMonitoring, type Doc } from "../monitoring/support/build";
import { httpClient } from "../reliability/support";
import { HOOK_SCHEMA, WEBHOOK_DEFAULTS } from "./metacontroller-webhook-schema";

const MTLS = "metacontroller/components/hooks-mtls";
const BUILDS: [overlay: string, components: string[]][] = [
  ["metacontroller", []],
  ["metacontroller/overlays/openshift", []],
  ["metacontroller/overlays/cert-manager", []],
  ["metacontroller/overlays/openshift-cert-manager", []],
  ["metacontroller/overlays/cert-manager", [MTLS]],
  ["metacontroller/overlays/openshift-cert-manager", [MTLS]],
];
const CERT_MANAGER = BUILDS.filter(([overlay]) => overlay.endsWith("cert-manager"));

interface KeyRef {
  name: string;
  namespace: string;
  key?: string;
}
interface Webhook {
  url: string;
  caBundle?: { secretRef?: KeyRef };
  clientTLS?: { secretRef: KeyRef; certKey?: string; privateKeyKey?: string };
  authorization?: { type?: string; secretRef: KeyRef };
}
type Hooks = Record<string, { webhook: Webhook }>;
interface Container {
  env: { name: string; value?: string }[];
  ports: { name: string; containerPort: number }[];
  volumeMounts: { name: string; mountPath: string }[];
}

const find = (docs: Doc[], kind: string, name: string): Doc => {
  const found = docs.find((d) => d.kind === kind && d.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in the build`);
  return found;
};
const hooksOf = (docs: Doc[]) =>
  find(docs, "CompositeController", "llamastackdistributions.llamastack.io").spec.hooks as Hooks;
const builds = new Map(BUILDS.map(([o, c]) => [`${o} + ${JSON.stringify(c)}`, buildWithMonitoring(o, c)]));
const built = (overlay: string, components: string[]) => builds.get(`${overlay} + ${JSON.stringify(components)}`)!;

const ROOT = join(__dirname, "..", "..");
const DOC_BASE = "../metacontroller/overlays/openshift";

/** The overlay of docs/security.md ("Plain overlays"), its base path the only rewrite. */
function docOverlay(): Doc[] {
  const text = readFileSync(join(ROOT, "docs", "security.md"), "utf8");
  const block = /```yaml\n(# my-hooks-tls\/kustomization\.yaml\n[\s\S]*?)```/.exec(text)?.[1];
  if (!block?.includes(`  - ${DOC_BASE} `)) throw new Error("docs/security.md: the my-hooks-tls overlay is gone");
  const dir = mkdtempSync(join(tmpdir(), "llsd-doc-overlay-"));
  try {
    const base = relative(dir, join(ROOT, "metacontroller", "overlays", "openshift"));
    writeFileSync(join(dir, "kustomization.yaml"), block.replace(`  - ${DOC_BASE} `, `  - ${base} `));
    const out = execFileSync("kubectl", ["kustomize", dir], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, KUBECONFIG: join(ROOT, "no-such-kubeconfig") },
    });
    return parseAllDocuments(out).map((d) => d.toJS() as Doc);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const DOC_OVERLAY = docOverlay();

it.each(["sync", "customize"])(
  "docs/security.md's overlay: %s is a valid Metacontroller v4.17.2 hook over https",
  (hook) => {
    const validate = new Ajv({ allErrors: true }).compile(HOOK_SCHEMA);
    const webhook = hooksOf(DOC_OVERLAY)[hook]!;
    validate(webhook);
    expect(validate.errors ?? []).toEqual([]);
    expect(new URL(webhook.webhook.url).protocol).toBe("https:");
  },
);

describe.each(BUILDS)("%s + %j: the CompositeController's hooks", (overlay, components) => {
  const hooks = hooksOf(built(overlay, components));
  const validate = new Ajv({ allErrors: true }).compile(HOOK_SCHEMA);

  it.each(["sync", "customize"])("%s is a valid Metacontroller v4.17.2 hook", (hook) => {
    validate(hooks[hook]);
    expect(validate.errors ?? []).toEqual([]);
  });

  it("keeps the bearer token on both hooks", () => {
    for (const hook of ["sync", "customize"])
      expect(hooks[hook]!.webhook.authorization?.secretRef).toEqual({
        name: "llsd-hooks-token",
        namespace: "llsd-hooks",
        key: "token",
      });
  });

  const certManager = overlay.endsWith("cert-manager");
  it(`calls ${certManager ? "https:// with a caBundle" : "http:// (docs/security.md has the steps to move)"}`, () => {
    for (const hook of ["sync", "customize"]) {
      const { url, caBundle } = hooks[hook]!.webhook;
      expect({ scheme: new URL(url).protocol, caBundle: caBundle !== undefined, path: new URL(url).pathname }).toEqual({
        scheme: certManager ? "https:" : "http:",
        caBundle: certManager,
        path: `/${hook}`,
      });
    }
  });
});

it("the schema refuses what Metacontroller refuses (so the checks above can fail)", () => {
  const validate = new Ajv().compile(HOOK_SCHEMA);
  const good = hooksOf(built("metacontroller/overlays/cert-manager", [MTLS])).sync!;
  expect(validate(good)).toBe(true);
  const wrong = [
    { ...good, webhook: { ...good.webhook, caBundle: {} } }, // none of inline, secretRef, configMapRef
    { ...good, webhook: { ...good.webhook, caBundle: { inline: "x", secretRef: { name: "a", namespace: "b" } } } },
    { ...good, webhook: { ...good.webhook, cabundle: good.webhook.caBundle } }, // misspelt
    { ...good, webhook: { ...good.webhook, clientTLS: { secretRef: { name: "a" } } } }, // no namespace
    { ...good, webhook: { ...good.webhook, basicAuth: { secretRef: { name: "a", namespace: "b" } } } },
  ];
  for (const hook of wrong) expect(validate(hook)).toBe(false);
});

/** What cert-manager writes into each Secret the Deployment mounts, from one CA. */
function secretsFor(docs: Doc[], ca: TestCa, token: string): Map<string, Record<string, Buffer>> {
  const secrets = new Map<string, Record<string, Buffer>>([["llsd-hooks-token", { token: Buffer.from(token) }]]);
  for (const doc of docs.filter((d) => d.kind === "Certificate")) {
    const spec = doc.spec as {
      secretName: string;
      dnsNames?: string[];
      usages: string[];
      isCA?: boolean;
      issuerRef: { name: string };
    };
    if (spec.isCA) continue;
    const issuer = find(docs, "Issuer", spec.issuerRef.name).spec as { ca?: { secretName: string } };
    expect(issuer.ca?.secretName).toBe("llsd-hooks-ca"); // the CA Issuer: ca.crt is that CA
    const usage = spec.usages.includes("client auth") ? "clientAuth" : "serverAuth";
    const leaf = ca.issue(spec.secretName, { ...(spec.dnsNames ? { dnsNames: spec.dnsNames } : {}), usage });
    secrets.set(spec.secretName, { "tls.crt": leaf.cert, "tls.key": leaf.key, "ca.crt": ca.cert });
  }
  return secrets;
}

const TOKEN = "a-token-from-the-secret";
/** Each build, and the Secrets its install has: cert-manager's, or the ones the doc has you create. */
const HANDSHAKES: [string, Doc[], (ca: TestCa) => Map<string, Record<string, Buffer>>][] = [
  ...CERT_MANAGER.map(([overlay, components]): [string, Doc[], (ca: TestCa) => Map<string, Record<string, Buffer>>] => {
    const docs = built(overlay, components);
    return [`${overlay} + ${JSON.stringify(components)}`, docs, (ca) => secretsFor(docs, ca, TOKEN)];
  }),
  [
    "docs/security.md's overlay for the plain overlays",
    DOC_OVERLAY,
    (ca) => {
      const serving = ca.issue("llsd-hooks", { dnsNames: ["llsd-hooks.llsd-hooks.svc"], usage: "serverAuth" });
      return new Map<string, Record<string, Buffer>>([
        ["llsd-hooks-token", { token: Buffer.from(TOKEN) }],
        ["llsd-hooks-tls", { "tls.crt": serving.cert, "tls.key": serving.key, "ca.crt": ca.cert }],
      ]);
    },
  ],
];

describe.each(HANDSHAKES)("%s: a real handshake as Metacontroller makes it", (_label, docs, secretsOf) => {
  const ca = makeCa("llsd-hooks-ca");
  const secrets = secretsOf(ca);
  const sync = hooksOf(docs).sync!.webhook;
  const url = new URL(sync.url);
  let dir: string;
  let service: Service;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "llsd-hook-tls-"));
    const pod = find(docs, "Deployment", "llsd-hooks").spec.template as {
      spec: { containers: Container[]; volumes: { name: string; secret?: { secretName: string } }[] };
    };
    const container = pod.spec.containers[0]!;
    // Each mounted Secret's files, at a temporary path standing for its mountPath.
    const mounts = container.volumeMounts.flatMap(({ name, mountPath }) => {
      const secretName = pod.spec.volumes.find((v) => v.name === name)?.secret?.secretName;
      if (!secretName) return [];
      const at = join(dir, name);
      mkdirSync(at);
      for (const [file, bytes] of Object.entries(secrets.get(secretName) ?? {})) writeFileSync(join(at, file), bytes);
      return [[mountPath, at] as const];
    });
    const env = Object.fromEntries(
      container.env
        .filter((e) => e.value !== undefined)
        .map(({ name, value }) => {
          const mount = mounts.find(([path]) => value!.startsWith(`${path}/`));
          return [name, mount ? mount[1] + value!.slice(mount[0].length) : value!];
        }),
    );
    // The port the URL dials reaches the container port SYNC_TLS_PORT names, through the Service.
    const servicePort = (find(docs, "Service", "llsd-hooks").spec.ports as { port: number; targetPort: string }[]).find(
      (p) => p.port === Number(url.port),
    );
    expect(container.ports.find((p) => p.name === servicePort?.targetPort)?.containerPort).toBe(
      Number(env.SYNC_TLS_PORT),
    );
    const logger = createLogger({ level: "silent" });
    const config = serviceConfigFromEnv({ ...env, PORT: "0", TLS_PORT: "0", SYNC_TLS_PORT: "0", HOST: "127.0.0.1" });
    service = startService(
      { ...config, drainDelayMs: 0 },
      {
        logger,
        handlers: { sync: echoSync, customize: echoCustomize },
        bearerToken: tokenSourceFromEnv(env, logger)!,
        exit: () => undefined,
      },
    );
    await service.listening;
  });

  afterAll(() => {
    service.shutdown("SIGINT");
    rmSync(dir, { recursive: true, force: true });
  });

  /** The caBundle and the client certificate, read from the Secrets as Metacontroller reads them. */
  const fromSecret = (ref: KeyRef, key: string) => {
    expect(ref.namespace).toBe("llsd-hooks");
    return secrets.get(ref.name)![key]!;
  };
  const call = (overrides: { token?: string; client?: boolean } = {}) => {
    const tls = sync.clientTLS;
    return httpsCall({
      port: service.ports().syncHttps!,
      servername: url.hostname,
      ca: fromSecret(sync.caBundle!.secretRef!, sync.caBundle!.secretRef!.key ?? WEBHOOK_DEFAULTS.caBundleKey),
      path: url.pathname,
      body: aSyncBody(),
      ...(overrides.token === undefined ? {} : { token: overrides.token }),
      ...(tls && overrides.client !== false
        ? {
            client: {
              cert: fromSecret(tls.secretRef, tls.certKey ?? WEBHOOK_DEFAULTS.clientCertKey),
              key: fromSecret(tls.secretRef, tls.privateKeyKey ?? WEBHOOK_DEFAULTS.clientKeyKey),
            },
          }
        : {}),
    });
  };

  it("answers /sync with the token the authorization names: 200", async () => {
    expect(sync.authorization?.type ?? WEBHOOK_DEFAULTS.authorizationType).toBe("Bearer");
    const token = fromSecret(sync.authorization!.secretRef, sync.authorization!.secretRef.key!).toString();
    expect((await call({ token })).status).toBe(200);
  });

  it("refuses /sync without the token: 401", async () => {
    expect((await call()).status).toBe(401);
  });

  it("serves no /sync on the plain port", async () => {
    const client = httpClient(service.ports().http);
    const res = await client.post("/sync", aSyncBody(), { authorization: `Bearer ${TOKEN}` });
    client.close();
    expect(res.status).toBe(404);
  });

  if (sync.clientTLS) {
    it("refuses the handshake without a client certificate", async () => {
      await expect(call({ token: TOKEN, client: false })).rejects.toThrow(/certificate|socket hang up|ECONNRESET/i);
    });

    it("takes the apiserver's /validate on its own port without one", async () => {
      const res = await httpsCall({
        port: service.ports().https!,
        servername: "llsd-hooks.llsd-hooks.svc",
        ca: ca.cert,
        path: "/validate",
        body: anAdmissionReview(),
      });
      expect({
        status: res.status,
        allowed: (JSON.parse(res.body) as { response: { allowed: boolean } }).response.allowed,
      }).toEqual({ status: 200, allowed: true });
    });
  }
});

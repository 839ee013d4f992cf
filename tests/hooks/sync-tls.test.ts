/**
 * Metacontroller's HTTPS listener (hooks/service.ts): with TLS files the hooks listen on three
 * ports, each for one audience — the apiserver's (TLS_PORT), Metacontroller's (SYNC_TLS_PORT,
 * bearer token still required, a client certificate with TLS_CLIENT_CA_FILE) and the plain
 * port, which serves `/sync` only while SYNC_PLAIN_HTTP is true. Certificates come from a test
 * CA made with openssl, as cert-manager's CA Issuer makes them.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { staticToken } from "../../hooks/auth";
import { createLogger } from "../../hooks/logger";
import { serviceConfigFromEnv, startService, type Service } from "../../hooks/service";
import { makeCa } from "../admission/certificates";
import { httpClient } from "../reliability/support";
import { aSyncBody, anAdmissionReview, echoCustomize, echoSync } from "./helpers";
import { httpsCall } from "./https-call";

const TOKEN = "t0ken-for-tests";
const CA = makeCa("test-ca");
const SERVING = CA.issue("llsd-hooks", { dnsNames: ["localhost"], usage: "serverAuth" });
const CLIENT = CA.issue("metacontroller", { usage: "clientAuth" });
const STRANGER = makeCa("other-ca").issue("metacontroller", { usage: "clientAuth" });

let dir: string;
const running: Service[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "llsd-sync-tls-"));
  writeFileSync(join(dir, "tls.crt"), SERVING.cert);
  writeFileSync(join(dir, "tls.key"), SERVING.key);
  writeFileSync(join(dir, "ca.crt"), CA.cert);
});

afterEach(() => running.splice(0).forEach((s) => s.shutdown("SIGINT")));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TLS_ENV = () => ({ TLS_CERT_FILE: join(dir, "tls.crt"), TLS_KEY_FILE: join(dir, "tls.key") });

async function start(env: NodeJS.ProcessEnv): Promise<Service> {
  const config = serviceConfigFromEnv({ PORT: "0", TLS_PORT: "0", SYNC_TLS_PORT: "0", ...env });
  const service = startService(
    { ...config, drainDelayMs: 0 },
    {
      logger: createLogger({ level: "silent" }),
      handlers: { sync: echoSync, customize: echoCustomize },
      bearerToken: staticToken(TOKEN),
      exit: () => undefined,
    },
  );
  running.push(service);
  await service.listening;
  return service;
}

/** [path, body] of each route, called with the token (the apiserver's routes ignore it). */
const ROUTES: Record<string, [string, unknown]> = {
  "/sync": ["/sync", aSyncBody()],
  "/customize": ["/customize", { controller: {}, parent: aSyncBody().parent }],
  "/validate": ["/validate", anAdmissionReview()],
  "/metrics": ["/metrics", undefined],
  "/readyz": ["/readyz", undefined],
};

async function statuses(service: Service, listener: "http" | "https" | "syncHttps"): Promise<Record<string, number>> {
  const port = service.ports()[listener]!;
  const out: Record<string, number> = {};
  const client = httpClient(port);
  for (const [name, [path, body]] of Object.entries(ROUTES)) {
    if (listener === "http") {
      const res =
        body === undefined
          ? await client.send("GET", path)
          : await client.post(path, body, { authorization: `Bearer ${TOKEN}` });
      out[name] = res.status;
    } else {
      out[name] = (await httpsCall({ port, servername: "localhost", ca: CA.cert, path, body, token: TOKEN })).status;
    }
  }
  client.close();
  return out;
}

describe("listeners and what each serves", () => {
  it("without TLS files: one plain listener for everything, whatever SYNC_PLAIN_HTTP says", async () => {
    const service = await start({ SYNC_PLAIN_HTTP: "false" });
    expect(Object.keys(service.ports())).toEqual(["http"]);
    expect(await statuses(service, "http")).toEqual({
      "/sync": 200,
      "/customize": 200,
      "/validate": 200,
      "/metrics": 200,
      "/readyz": 200,
    });
  });

  it.each([
    ["true (the default: a CompositeController still on http:// keeps working)", "true", 200],
    ["false (no Secret in a /sync body on plain HTTP)", "false", 404],
  ])("with TLS files and SYNC_PLAIN_HTTP %s", async (_what, plainHttp, plainSync) => {
    const service = await start({ ...TLS_ENV(), SYNC_PLAIN_HTTP: plainHttp });
    expect(await statuses(service, "syncHttps")).toEqual({
      "/sync": 200,
      "/customize": 200,
      "/validate": 404,
      "/metrics": 200,
      "/readyz": 200,
    });
    expect(await statuses(service, "https")).toEqual({
      "/sync": 404,
      "/customize": 404,
      "/validate": 200,
      "/metrics": 404,
      "/readyz": 200,
    });
    expect(await statuses(service, "http")).toEqual({
      "/sync": plainSync,
      "/customize": plainSync,
      "/validate": 404,
      "/metrics": 200,
      "/readyz": 200,
    });
  });

  it("the HTTPS /sync still requires the bearer token", async () => {
    const service = await start(TLS_ENV());
    const call = {
      port: service.ports().syncHttps!,
      servername: "localhost",
      ca: CA.cert,
      path: "/sync",
      body: aSyncBody(),
    };
    expect((await httpsCall(call)).status).toBe(401);
    expect((await httpsCall({ ...call, token: "wrong" })).status).toBe(401);
  });

  it("names SYNC_TLS_PORT when its port is taken", async () => {
    const other = await start({ ...TLS_ENV() });
    const config = serviceConfigFromEnv({
      PORT: "0",
      TLS_PORT: "0",
      SYNC_TLS_PORT: String(other.ports().syncHttps),
      ...TLS_ENV(),
    });
    const lines: string[] = [];
    const service = startService(config, {
      logger: createLogger({ level: "fatal", destination: { write: (l: string) => void lines.push(l) } }),
      handlers: { sync: echoSync, customize: echoCustomize },
      exit: () => undefined,
    });
    running.push(service);
    await expect(service.listening).rejects.toThrow(/EADDRINUSE/);
    expect(lines.join("")).toContain("or set SYNC_TLS_PORT to a free port");
  });
});

describe("TLS_CLIENT_CA_FILE: mutual TLS on Metacontroller's listener only", () => {
  const mtls = () => ({ ...TLS_ENV(), TLS_CLIENT_CA_FILE: join(dir, "ca.crt") });
  const syncCall = (service: Service) => ({
    port: service.ports().syncHttps!,
    servername: "localhost",
    ca: CA.cert,
    path: "/sync",
    body: aSyncBody(),
    token: TOKEN,
  });

  it("refuses a handshake without a client certificate", async () => {
    const service = await start(mtls());
    await expect(httpsCall(syncCall(service))).rejects.toThrow(/certificate|socket hang up|ECONNRESET/i);
  });

  it("refuses a client certificate from another CA", async () => {
    const service = await start(mtls());
    await expect(httpsCall({ ...syncCall(service), client: STRANGER })).rejects.toThrow(
      /certificate|socket hang up|ECONNRESET/i,
    );
  });

  it("answers a client certificate the CA signed", async () => {
    const service = await start(mtls());
    expect((await httpsCall({ ...syncCall(service), client: CLIENT })).status).toBe(200);
  });

  it("the apiserver's listener still takes a caller without a certificate", async () => {
    const service = await start(mtls());
    const review = { port: service.ports().https!, servername: "localhost", ca: CA.cert, path: "/validate" };
    expect((await httpsCall({ ...review, body: anAdmissionReview() })).status).toBe(200);
  });

  it("picks up a renewed client CA without a restart", async () => {
    const caFile = join(dir, "renewed-ca.crt");
    writeFileSync(caFile, CA.cert);
    const service = await start({ ...TLS_ENV(), TLS_CLIENT_CA_FILE: caFile });
    const other = makeCa("renewed-ca");
    const client = other.issue("metacontroller", { usage: "clientAuth" });
    await expect(httpsCall({ ...syncCall(service), client })).rejects.toThrow(/certificate|socket hang up|ECONNRESET/i);
    writeFileSync(caFile, other.cert);
    const deadline = Date.now() + 10_000;
    let status: number | string = "refused";
    while (status !== 200 && Date.now() < deadline) {
      status = await httpsCall({ ...syncCall(service), client }).then(
        (r) => r.status,
        () => "refused",
      );
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(200);
  });

  it("refuses to start when the CA file is not PEM, naming the file", () => {
    writeFileSync(join(dir, "bad-ca.crt"), "not a certificate");
    expect(() =>
      startService(serviceConfigFromEnv({ ...TLS_ENV(), TLS_CLIENT_CA_FILE: join(dir, "bad-ca.crt") }), {
        logger: createLogger({ level: "silent" }),
        handlers: { sync: echoSync, customize: echoCustomize },
      }),
    ).toThrow(`${join(dir, "bad-ca.crt")} is not a usable CA certificate (PEM)`);
  });
});

/**
 * hooks/tls.ts: HTTPS from TLS_CERT_FILE/TLS_KEY_FILE, and renewed files picked up without a
 * restart — by plain file replacement and by the kubelet's Secret-volume symlink swap — while a
 * half-written pair is never installed. Certificates are made at test time with openssl.
 */
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect } from "node:tls";
import request from "supertest";
import { createApp } from "../../hooks/app";
import { createLogger } from "../../hooks/logger";
import { createMetrics } from "../../hooks/metrics";
import {
  createTlsServer,
  readTlsMaterial,
  tlsFilesFromEnv,
  watchCertificate,
  type TlsFiles,
  type TlsMaterial,
  type TlsServer,
} from "../../hooks/tls";
import { makeCertificate, type TestCertificate } from "../admission/certificates";
import { echoCustomize, echoSync } from "./helpers";

const A = makeCertificate("llsd-hooks-a");
const B = makeCertificate("llsd-hooks-b");
const C = makeCertificate("llsd-hooks-c");

let dir: string;
const logLines: string[] = [];
const logger = createLogger({ level: "debug", destination: { write: (line: string) => void logLines.push(line) } });
const open: TlsServer[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "llsd-tls-"));
  logLines.length = 0;
});

afterEach(async () => {
  await Promise.all(open.splice(0).map(({ server }) => new Promise((resolve) => server.close(resolve))));
  rmSync(dir, { recursive: true, force: true });
});

function writePair(certificate: TestCertificate, at = dir): TlsFiles {
  const files = { certFile: join(at, "tls.crt"), keyFile: join(at, "tls.key") };
  writeFileSync(files.keyFile, certificate.key);
  writeFileSync(files.certFile, certificate.cert);
  return files;
}

function aTlsApp() {
  return createApp({
    handlers: { sync: echoSync, customize: echoCustomize },
    logger,
    metrics: createMetrics(),
    isReady: () => true,
    audience: "apiserver",
  });
}

/** An HTTPS server on 127.0.0.1 and a promise for each reload. */
async function serve(files: TlsFiles, options: { debounceMs?: number; pollIntervalMs?: number } = {}) {
  const reloads: TlsMaterial[] = [];
  const waiters: (() => void)[] = [];
  const tls = createTlsServer(aTlsApp(), files, {
    logger,
    debounceMs: options.debounceMs ?? 20,
    pollIntervalMs: options.pollIntervalMs ?? 60_000,
    onReload: (m) => {
      reloads.push(m);
      waiters.splice(0).forEach((w) => w());
    },
  });
  open.push(tls);
  await new Promise<void>((resolve) => tls.server.listen(0, "127.0.0.1", resolve));
  const port = (tls.server.address() as AddressInfo).port;
  const nextReload = (timeoutMs = 5_000) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no reload within the timeout")), timeoutMs);
      waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  return { ...tls, port, reloads, nextReload };
}

/** The certificate a new TLS connection is served. */
function servedFingerprint(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port, servername: "localhost", rejectUnauthorized: false }, () => {
      const fingerprint = socket.getPeerCertificate().fingerprint256;
      socket.end();
      resolve(fingerprint);
    });
    socket.once("error", reject);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("tlsFilesFromEnv", () => {
  it("is undefined without either variable: plain HTTP", () => {
    expect(tlsFilesFromEnv({})).toBeUndefined();
    expect(tlsFilesFromEnv({ TLS_CERT_FILE: " ", TLS_KEY_FILE: "" })).toBeUndefined();
  });

  it("names both files when both are set", () => {
    expect(tlsFilesFromEnv({ TLS_CERT_FILE: "/tls/tls.crt", TLS_KEY_FILE: " /tls/tls.key " })).toEqual({
      certFile: "/tls/tls.crt",
      keyFile: "/tls/tls.key",
    });
  });

  it("refuses one without the other instead of silently serving plain HTTP", () => {
    expect(() => tlsFilesFromEnv({ TLS_CERT_FILE: "/tls/tls.crt" })).toThrow(
      "TLS_CERT_FILE and TLS_KEY_FILE must be set together; only TLS_CERT_FILE is set",
    );
    expect(() => tlsFilesFromEnv({ TLS_KEY_FILE: "/tls/tls.key" })).toThrow("only TLS_KEY_FILE is set");
  });
});

describe("readTlsMaterial", () => {
  it("reads a matching pair", () => {
    const files = writePair(A);
    expect(readTlsMaterial(files)).toEqual({ cert: A.cert, key: A.key });
  });

  it("refuses a key that does not match the certificate, without quoting either", () => {
    const files = writePair(A);
    writeFileSync(files.keyFile, B.key);
    expect(() => readTlsMaterial(files)).toThrow(/are not a usable certificate and key: .*key values mismatch/);
    try {
      readTlsMaterial(files);
    } catch (err) {
      expect((err as Error).message).not.toMatch(/BEGIN|PRIVATE/);
    }
  });

  it("refuses missing files and files that are not PEM", () => {
    expect(() => readTlsMaterial({ certFile: join(dir, "nope.crt"), keyFile: join(dir, "nope.key") })).toThrow(
      /ENOENT/,
    );
    const files = writePair(A);
    writeFileSync(files.certFile, "not a certificate");
    expect(() => readTlsMaterial(files)).toThrow(/not a usable certificate and key/);
  });
});

describe("createTlsServer", () => {
  it("serves HTTPS with the certificate from the files; a client that trusts it verifies it", async () => {
    const server = await serve(writePair(A));
    expect(await servedFingerprint(server.port)).toBe(A.fingerprint256);
    const response = await request(server.server).get("/healthz").ca(A.cert);
    expect(response.status).toBe(200);
    await expect(request(server.server).get("/healthz").ca(B.cert)).rejects.toThrow(
      /self[- ]signed|unable to verify|certificate/i,
    );
  });

  it("throws at start when the pair is unusable (the process must not come up half-configured)", () => {
    const files = writePair(A);
    writeFileSync(files.keyFile, B.key);
    expect(() => createTlsServer(aTlsApp(), files, { logger })).toThrow(/key values mismatch/);
  });

  it("picks up replaced files without a restart: the next connection gets the new certificate", async () => {
    const files = writePair(A);
    const server = await serve(files);
    expect(await servedFingerprint(server.port)).toBe(A.fingerprint256);

    const reloaded = server.nextReload();
    writePair(B);
    await reloaded;
    expect(await servedFingerprint(server.port)).toBe(B.fingerprint256);
    const response = await request(server.server).get("/healthz").ca(B.cert);
    expect(response.status).toBe(200);

    const again = server.nextReload();
    writePair(C);
    await again;
    expect(await servedFingerprint(server.port)).toBe(C.fingerprint256);
    expect(server.reloads.map((m) => m.cert)).toEqual([B.cert, C.cert]);
    const line = logLines
      .map((l) => JSON.parse(l) as { msg: string; certificate?: { subject: string; fingerprint256: string } })
      .filter((l) => l.msg === "Reloaded TLS certificate")
      .at(-1);
    expect(line?.certificate).toMatchObject({ subject: "CN=llsd-hooks-c", fingerprint256: C.fingerprint256 });
  });

  it("picks up a Kubernetes Secret volume update (the ..data symlink swap)", async () => {
    // The kubelet's layout: tls.crt -> ..data/tls.crt, ..data -> ..<timestamp>/ (AtomicWriter).
    const first = join(dir, "..2026_01_01_00_00_00.000000001");
    mkdirSync(first);
    writePair(A, first);
    symlinkSync("..2026_01_01_00_00_00.000000001", join(dir, "..data"));
    symlinkSync(join("..data", "tls.crt"), join(dir, "tls.crt"));
    symlinkSync(join("..data", "tls.key"), join(dir, "tls.key"));
    const files = { certFile: join(dir, "tls.crt"), keyFile: join(dir, "tls.key") };
    const server = await serve(files);
    expect(await servedFingerprint(server.port)).toBe(A.fingerprint256);

    const reloaded = server.nextReload();
    const second = join(dir, "..2026_03_01_00_00_00.000000002");
    mkdirSync(second);
    writePair(B, second);
    symlinkSync("..2026_03_01_00_00_00.000000002", join(dir, "..data_tmp"));
    renameSync(join(dir, "..data_tmp"), join(dir, "..data"));
    rmSync(first, { recursive: true });
    await reloaded;
    expect(await servedFingerprint(server.port)).toBe(B.fingerprint256);
  });

  it("keeps the current certificate while the pair does not match, and installs it once whole", async () => {
    const files = writePair(A);
    const server = await serve(files);
    writeFileSync(files.certFile, B.cert); // the key is still A's
    await sleep(200);
    expect(server.reloads).toEqual([]);
    expect(await servedFingerprint(server.port)).toBe(A.fingerprint256);
    const warnings = logLines.filter((l) => l.includes("cannot be used yet"));
    expect(warnings.length).toBeGreaterThanOrEqual(1);

    const reloaded = server.nextReload();
    writeFileSync(files.keyFile, B.key);
    await reloaded;
    expect(await servedFingerprint(server.port)).toBe(B.fingerprint256);
  });

  it("never logs key material", async () => {
    const files = writePair(A);
    const server = await serve(files);
    const reloaded = server.nextReload();
    writePair(B);
    await reloaded;
    writeFileSync(files.keyFile, C.key);
    server.watcher.reload();
    const text = logLines.join("");
    for (const pem of [A.key, B.key, C.key, A.cert, B.cert]) {
      expect(text).not.toContain(pem.toString().split("\n")[1]);
    }
    expect(text).not.toMatch(/PRIVATE KEY/);
  });

  it("stops watching when the server closes", async () => {
    const files = writePair(A);
    const server = await serve(files);
    await new Promise((resolve) => server.server.close(resolve));
    open.splice(open.indexOf(server), 1);
    writePair(B);
    expect(server.watcher.reload()).toBe(false);
    expect(server.watcher.current().cert).toEqual(A.cert);
  });
});

describe("watchCertificate", () => {
  it("re-reads on its poll even when no change event arrives", async () => {
    const files = writePair(A);
    const installed: Buffer[] = [];
    const fake = { setSecureContext: (o: { cert?: unknown }) => void installed.push(o.cert as Buffer) };
    // A debounce longer than the test: only the poll can reload.
    const watcher = watchCertificate(fake, files, readTlsMaterial(files), {
      logger,
      debounceMs: 60_000,
      pollIntervalMs: 30,
    });
    try {
      writePair(B);
      for (let i = 0; i < 100 && installed.length === 0; i += 1) await sleep(20);
      expect(installed).toEqual([B.cert]);
    } finally {
      watcher.close();
    }
  });

  it("installs nothing when the files did not change", () => {
    const files = writePair(A);
    const installed: unknown[] = [];
    const watcher = watchCertificate(
      { setSecureContext: (o) => void installed.push(o) },
      files,
      readTlsMaterial(files),
      { logger },
    );
    try {
      expect(watcher.reload()).toBe(false);
      writePair(B);
      expect(watcher.reload()).toBe(true);
      expect(watcher.reload()).toBe(false);
      expect(installed).toHaveLength(1);
      expect(installed[0]).toMatchObject({ minVersion: "TLSv1.2", cert: B.cert, key: B.key });
    } finally {
      watcher.close();
    }
  });
});

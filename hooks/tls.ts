/**
 * HTTPS for the kube-apiserver's webhooks (`/validate`, `/convert`) and for Metacontroller's
 * hooks (`/sync`, `/customize`; docs/security.md), with certificate rotation that needs no
 * restart, and optionally a client CA (mutual TLS, Metacontroller's listener only).
 *
 * `TLS_CERT_FILE` and `TLS_KEY_FILE` name a PEM certificate (chain) and its key — in the
 * cluster, `tls.crt` and `tls.key` of the cert-manager Secret mounted as a volume. cert-manager
 * renews the Secret before it expires and the kubelet swaps the mounted files (atomically: a
 * `..data` symlink in the mount directory moves to a new timestamped directory). The watcher
 * sees the change (fs.watch on the directories, plus a slow poll in case an event is missed),
 * re-reads both files, and installs them with `server.setSecureContext`: connections opened
 * afterwards get the new certificate, open ones finish with the old. A pair that is half
 * written or does not match (certificate from the new Secret, key still the old one) is not
 * installed; the current certificate stays until the pair is whole.
 */
import { X509Certificate } from "node:crypto";
import { readFileSync, watch, type FSWatcher } from "node:fs";
import { createServer, type Server } from "node:https";
import type { RequestListener } from "node:http";
import { dirname } from "node:path";
import { createSecureContext, type SecureContextOptions } from "node:tls";
import type pino from "pino";
import { messageOf } from "../lib/errors";

export interface TlsFiles {
  readonly certFile: string;
  readonly keyFile: string;
  /**
   * CA certificates a client must present a certificate from (mutual TLS); the listener then
   * refuses a handshake without one. Re-read with the pair: a renewed CA takes effect too.
   */
  readonly clientCaFile?: string;
}

export interface TlsMaterial {
  readonly cert: Buffer;
  readonly key: Buffer;
  readonly ca?: Buffer;
}

/** Applied to the first context and to every reloaded one (setSecureContext replaces all of it). */
const SECURE_OPTIONS: SecureContextOptions = { minVersion: "TLSv1.2" };

/**
 * `TLS_CERT_FILE` + `TLS_KEY_FILE` → the files; neither → undefined (plain HTTP only). One
 * without the other is a configuration mistake, and serving plain HTTP instead would hide it.
 */
export function tlsFilesFromEnv(env: NodeJS.ProcessEnv = process.env): TlsFiles | undefined {
  const certFile = trimmed(env.TLS_CERT_FILE);
  const keyFile = trimmed(env.TLS_KEY_FILE);
  if (certFile === "" && keyFile === "") return undefined;
  if (certFile === "" || keyFile === "") {
    throw new Error(
      `TLS_CERT_FILE and TLS_KEY_FILE must be set together; only ${certFile === "" ? "TLS_KEY_FILE" : "TLS_CERT_FILE"} is set`,
    );
  }
  return { certFile, keyFile };
}

function trimmed(value: string | undefined): string {
  return value?.trim() ?? "";
}

/** Reads both files and checks that they make a usable pair (PEM parses, key matches); throws otherwise. */
export function readTlsMaterial(files: TlsFiles): TlsMaterial {
  const cert = readFileSync(files.certFile);
  const key = readFileSync(files.keyFile);
  const ca = files.clientCaFile === undefined ? undefined : readFileSync(files.clientCaFile);
  try {
    createSecureContext({ ...SECURE_OPTIONS, cert, key });
  } catch (err) {
    // OpenSSL's reason ("key values mismatch", "no start line"); never the file contents.
    throw new Error(`${files.certFile} and ${files.keyFile} are not a usable certificate and key: ${messageOf(err)}`, {
      cause: err,
    });
  }
  if (ca) {
    try {
      new X509Certificate(ca); // OpenSSL would skip a CA file that is not PEM, and trust nothing
    } catch (err) {
      throw new Error(`${String(files.clientCaFile)} is not a usable CA certificate (PEM): ${messageOf(err)}`, {
        cause: err,
      });
    }
  }
  return { cert, key, ...(ca ? { ca } : {}) };
}

/** The secure context of a pair (and client CA): the whole of it, as setSecureContext replaces all. */
function contextOf(material: TlsMaterial): SecureContextOptions {
  return { ...SECURE_OPTIONS, cert: material.cert, key: material.key, ...(material.ca ? { ca: material.ca } : {}) };
}

const same = (a: Buffer | undefined, b: Buffer | undefined): boolean =>
  a === undefined || b === undefined ? a === b : a.equals(b);

/** What a log line says about a certificate: never the key, never the PEM. */
export function describeCertificate(cert: Buffer): {
  subject: string;
  subjectAltName?: string;
  notAfter: string;
  fingerprint256: string;
} {
  const x509 = new X509Certificate(cert);
  return {
    subject: x509.subject.replace(/\n/g, ", "),
    ...(x509.subjectAltName ? { subjectAltName: x509.subjectAltName } : {}),
    notAfter: new Date(x509.validTo).toISOString(),
    fingerprint256: x509.fingerprint256,
  };
}

export interface WatchOptions {
  readonly logger: pino.Logger;
  /** Re-read at least this often even without a change event. @default 60_000 */
  readonly pollIntervalMs?: number;
  /** After a change event, wait this long for the writer to finish (it writes two files). @default 250 */
  readonly debounceMs?: number;
  /** Called once a new pair is in use. */
  readonly onReload?: (material: TlsMaterial) => void;
}

export interface CertificateWatcher {
  /** Re-read the files now; true when a new pair was installed. */
  reload(): boolean;
  /** The pair in use. */
  current(): TlsMaterial;
  /** Stop watching (the server keeps the pair it has). */
  close(): void;
}

/**
 * The directories, not the files: a Secret volume replaces files by swapping a symlink, and a
 * watch on a replaced file never fires again.
 */
function watchDirectories(files: TlsFiles, onChange: () => void, logger: pino.Logger): FSWatcher[] {
  const dirs = [files.certFile, files.keyFile, ...(files.clientCaFile ? [files.clientCaFile] : [])].map((f) =>
    dirname(f),
  );
  return [...new Set(dirs)].flatMap((dir) => {
    try {
      const watcher = watch(dir, { persistent: false }, onChange);
      watcher.on("error", (err) =>
        logger.warn({ err, dir }, "Cannot watch the TLS directory; relying on the periodic re-read"),
      );
      return [watcher];
    } catch (err) {
      logger.warn({ err, dir }, "Cannot watch the TLS directory; relying on the periodic re-read");
      return [];
    }
  });
}

/** The files' material, or why it cannot be used (readTlsMaterial's message). */
function tryRead(files: TlsFiles): TlsMaterial | { problem: string } {
  try {
    return readTlsMaterial(files);
  } catch (err) {
    return { problem: messageOf(err) };
  }
}

/** Logs each new problem once (the poll would otherwise repeat it every interval); undefined: usable again. */
function reportOnce(logger: pino.Logger): (problem: string | undefined) => void {
  let last: string | undefined;
  return (problem) => {
    if (problem !== undefined && problem !== last)
      logger.warn({ reason: problem }, "TLS files changed but cannot be used yet; keeping the current certificate");
    last = problem;
  };
}

/** Installs changed certificate files on `server` until closed. */
export function watchCertificate(
  server: { setSecureContext(options: SecureContextOptions): void },
  files: TlsFiles,
  initial: TlsMaterial,
  options: WatchOptions,
): CertificateWatcher {
  const { logger, pollIntervalMs = 60_000, debounceMs = 250, onReload } = options;
  let current = initial;
  const problem = reportOnce(logger);
  let pending: NodeJS.Timeout | undefined;
  let closed = false;

  const reload = (): boolean => {
    if (closed) return false;
    const next = tryRead(files);
    problem("problem" in next ? next.problem : undefined);
    if ("problem" in next) return false;
    if (next.cert.equals(current.cert) && next.key.equals(current.key) && same(next.ca, current.ca)) return false;
    server.setSecureContext(contextOf(next));
    current = next;
    logger.info({ certificate: describeCertificate(next.cert) }, "Reloaded TLS certificate");
    onReload?.(next);
    return true;
  };

  const schedule = (): void => {
    if (closed) return;
    if (pending) clearTimeout(pending);
    pending = setTimeout(() => {
      pending = undefined;
      reload();
    }, debounceMs);
  };

  const watchers = watchDirectories(files, schedule, logger);
  const poll = setInterval(reload, pollIntervalMs);
  poll.unref();

  return {
    reload,
    current: () => current,
    close() {
      closed = true;
      if (pending) clearTimeout(pending);
      clearInterval(poll);
      for (const w of watchers) w.close();
    },
  };
}

export interface TlsServer {
  readonly server: Server;
  readonly watcher: CertificateWatcher;
}

/**
 * An HTTPS server for `handler` with the pair from `files` (read now: a missing or broken pair
 * throws, and the process should not start), reloading it when the files change. Closing the
 * server stops the watcher.
 */
export function createTlsServer(handler: RequestListener, files: TlsFiles, options: WatchOptions): TlsServer {
  const material = readTlsMaterial(files);
  // With a client CA: no handshake without a certificate it signed (the apiserver's listener has none).
  const clients = material.ca ? { requestCert: true, rejectUnauthorized: true } : {};
  const server = createServer({ ...contextOf(material), ...clients }, handler);
  const watcher = watchCertificate(server, files, material, options);
  server.on("close", () => watcher.close());
  return { server, watcher };
}

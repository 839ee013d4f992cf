/**
 * The running service: configuration from the environment, the listeners, and shutdown.
 * main.ts wires it to the process (signals, exit); tests start it on port 0 with their own
 * handlers and exit function.
 *
 * Without TLS files one plain-HTTP listener on PORT serves everything (local use, curl). With
 * them three listeners, each for one audience (app.ts says why they are kept apart):
 * - TLS_PORT: HTTPS for the apiserver (`/validate`, `/convert`, probes), never a client
 *   certificate (the apiserver sends none);
 * - SYNC_TLS_PORT: HTTPS for Metacontroller (`/sync`, `/customize`, `/metrics`, probes), which
 *   trusts the CA through the CompositeController's `caBundle`; with TLS_CLIENT_CA_FILE it also
 *   requires a client certificate signed by that CA (mutual TLS);
 * - PORT: plain HTTP, for Metacontroller too while SYNC_PLAIN_HTTP is `true` (the default, so an
 *   install whose CompositeController still says `http://` keeps working), only the probes and
 *   `/metrics` when it is `false` — the related Secrets in a `/sync` body then never travel in clear.
 * All share one metrics registry and one overload guard (its limit counts every listener).
 *
 * Shutdown (`shutdown("SIGTERM")`): readiness turns false at once and every answer from then on
 * carries `Connection: close` (keep-alive clients such as Metacontroller dial again, through the
 * Service, to a pod that is ready); after `drainDelayMs` the listeners close, calls in flight
 * finish, and `exit(0)`. Still open `shutdownTimeoutMs` later: `exit(1)`. SIGINT (Ctrl-C in a
 * terminal) skips the drain delay.
 */
import { createServer, type Server as HttpServer } from "node:http";
import type { Server as HttpsServer } from "node:https";
import type pino from "pino";
import { createApp, type AppDeps, type HookHandlers } from "./app";
import type { TokenSource } from "./auth";
import { BadSetting, booleanSetting, hostSetting, numberSetting, setting, type NumberRule } from "./env-values";
import { createMetrics, type HookMetrics } from "./metrics";
import { createOverloadGuard, overloadOptionsFromEnv, type OverloadOptions } from "./overload";
import { createTlsServer, tlsFilesFromEnv, type TlsFiles } from "./tls";
import { errorCode } from "../lib/errors";

export interface ServiceConfig {
  /** The address every listener binds; undefined: all interfaces (the image's default). */
  readonly host?: string;
  readonly port: number;
  readonly tlsPort: number;
  /** Metacontroller's HTTPS port (with TLS files only). @default 8444 */
  readonly syncTlsPort: number;
  /** With TLS files: false → the plain port serves only probes and `/metrics`. @default true */
  readonly syncPlainHttp: boolean;
  readonly tlsFiles?: TlsFiles;
  /** CA a client certificate on SYNC_TLS_PORT must chain to (mutual TLS); needs TLS files. */
  readonly syncClientCaFile?: string;
  readonly overload: OverloadOptions;
  /** SIGTERM → listeners closed this much later. @default 5000 */
  readonly drainDelayMs: number;
  /** Listeners closing → forced exit(1) this much later. @default 10_000 */
  readonly shutdownTimeoutMs: number;
}

export const SHUTDOWN_DEFAULTS = Object.freeze({ drainDelayMs: 5000, shutdownTimeoutMs: 10_000 });

const PORT: NumberRule = { integer: true, min: 0, max: 65535, means: "an integer from 0 to 65535" };
const MILLISECONDS: NumberRule = { integer: true, min: 0, means: "a whole number of milliseconds" };

/** Every setting of the service from the environment; a bad value throws with its name. */
export function serviceConfigFromEnv(env: NodeJS.ProcessEnv): ServiceConfig {
  const tlsFiles = tlsFilesFromEnv(env);
  const host = hostSetting(env, "HOST");
  const syncClientCaFile = setting(env, "TLS_CLIENT_CA_FILE");
  // Without a serving certificate there is no HTTPS listener to ask for a client's.
  if (syncClientCaFile !== undefined && !tlsFiles)
    throw new BadSetting("TLS_CLIENT_CA_FILE", syncClientCaFile, "unset unless TLS_CERT_FILE and TLS_KEY_FILE are set");
  return {
    ...(host ? { host } : {}),
    port: numberSetting(env, "PORT", PORT, 8080),
    tlsPort: numberSetting(env, "TLS_PORT", PORT, 8443),
    syncTlsPort: numberSetting(env, "SYNC_TLS_PORT", PORT, 8444),
    syncPlainHttp: booleanSetting(env, "SYNC_PLAIN_HTTP", true),
    ...(tlsFiles ? { tlsFiles } : {}),
    ...(syncClientCaFile ? { syncClientCaFile } : {}),
    overload: overloadOptionsFromEnv(env),
    drainDelayMs: numberSetting(env, "SHUTDOWN_DRAIN_DELAY_MS", MILLISECONDS, SHUTDOWN_DEFAULTS.drainDelayMs),
    shutdownTimeoutMs: SHUTDOWN_DEFAULTS.shutdownTimeoutMs,
  };
}

export interface ServiceDeps {
  readonly logger: pino.Logger;
  readonly handlers: HookHandlers;
  readonly bearerToken?: TokenSource;
  readonly metrics?: HookMetrics;
  /** Ends the process. @default process.exit */
  readonly exit?: (code: number) => void;
}

export interface Service {
  /** Resolves once every listener listens; rejects when one cannot. */
  readonly listening: Promise<void>;
  /**
   * The ports actually bound (port 0 picks one): plain HTTP and, with TLS, the apiserver's
   * HTTPS port and Metacontroller's.
   */
  ports(): { http: number; https?: number; syncHttps?: number };
  isReady(): boolean;
  /** Idempotent. The drain delay applies to SIGTERM only. */
  shutdown(signal: NodeJS.Signals): void;
}

/** Node's own request bounds, in line with the hooks' time limit (overload.ts answers first). */
function bound(server: HttpServer | HttpsServer, overload: OverloadOptions): void {
  server.headersTimeout = Math.min(overload.timeoutMs, 60_000);
  server.requestTimeout = overload.timeoutMs + 1000;
  // Node checks the two above only this often (30 s by default).
  // Read when the server starts listening; not in @types/node 20's Server type.
  Object.assign(server, { connectionsCheckingInterval: Math.min(1000, overload.timeoutMs) });
}

type Listener = {
  server: HttpServer | HttpsServer;
  host?: string;
  port: number;
  scheme: "http" | "https";
  /** The variable that sets `port`, for the listen error. */
  setting: "PORT" | "TLS_PORT" | "SYNC_TLS_PORT";
};

/** The port a listening server is bound to (a TCP server's address is always an AddressInfo). */
export function portOf(server: HttpServer | HttpsServer): number {
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the server is not listening on a TCP port");
  return address.port;
}

/** The address a listening server is bound to: `127.0.0.1`, or `::` for all interfaces. */
function addressOf(server: HttpServer | HttpsServer): string {
  const address = server.address();
  return address === null || typeof address === "string" ? String(address) : address.address;
}

/** Plain HTTP on PORT; with TLS files, HTTPS on TLS_PORT for the apiserver and on SYNC_TLS_PORT for Metacontroller. */
function listenersFor(config: ServiceConfig, appDeps: AppDeps, logger: pino.Logger): Listener[] {
  const { tlsFiles } = config;
  const plainAudience = !tlsFiles ? "all" : config.syncPlainHttp ? "metacontroller" : "observers";
  const plain = createServer(createApp({ ...appDeps, audience: plainAudience }));
  bound(plain, config.overload);
  const at = config.host === undefined ? {} : { host: config.host };
  const listeners: Listener[] = [{ server: plain, ...at, port: config.port, scheme: "http", setting: "PORT" }];
  if (tlsFiles) {
    // The apiserver presents no client certificate: this listener never asks for one.
    const apiserverFiles = { certFile: tlsFiles.certFile, keyFile: tlsFiles.keyFile };
    const tls = createTlsServer(createApp({ ...appDeps, audience: "apiserver" }), apiserverFiles, { logger });
    bound(tls.server, config.overload);
    listeners.push({ server: tls.server, ...at, port: config.tlsPort, scheme: "https", setting: "TLS_PORT" });
    const syncFiles = config.syncClientCaFile
      ? { ...apiserverFiles, clientCaFile: config.syncClientCaFile }
      : apiserverFiles;
    const sync = createTlsServer(createApp({ ...appDeps, audience: "metacontroller" }), syncFiles, { logger });
    bound(sync.server, config.overload);
    listeners.push({ server: sync.server, ...at, port: config.syncTlsPort, scheme: "https", setting: "SYNC_TLS_PORT" });
  }
  return listeners;
}

/** Why a port cannot be listened on, and what to do, in the words of the `reason` of a fatal line. */
function listenProblem(err: Error, { port, host, setting }: Listener): string {
  const code = errorCode(err);
  if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND" || code === "EAI_AGAIN")
    return `HOST ${String(host)} is not an address of this machine: set HOST to one of its addresses (127.0.0.1 for this machine only), or unset it for all interfaces`;
  if (code === "EADDRINUSE")
    return `port ${port} is already in use by another process: stop it, or set ${setting} to a free port`;
  if (code === "EACCES") return `port ${port} needs privileges this process does not have: set ${setting} above 1023`;
  return `cannot listen on port ${port} (${setting}): ${err.message}`;
}

function listenAll(listeners: readonly Listener[], logger: pino.Logger): Promise<void> {
  return Promise.all(
    listeners.map(
      (listener) =>
        new Promise<void>((resolve, reject) => {
          const { server, host, port, scheme } = listener;
          server.once("error", (err) => {
            logger.fatal({ err, scheme, host, port, reason: listenProblem(err, listener) }, "Listen failed");
            reject(err);
          });
          server.listen(port, host, () => {
            logger.info({ scheme, address: addressOf(server), port: portOf(server) }, "Listening");
            resolve();
          });
        }),
    ),
  ).then(() => undefined);
}

/** Closes every listener, then exits: 0 when all closed cleanly, 1 on an error or after `timeoutMs`. */
function closeAll(
  listeners: readonly Listener[],
  { logger, exit, timeoutMs }: { logger: pino.Logger; exit: (code: number) => void; timeoutMs: number },
): void {
  let open = listeners.length;
  let failed = false;
  const force = setTimeout(() => {
    logger.warn({ timeoutMs }, "Forced exit: calls still in flight");
    exit(1);
  }, timeoutMs);
  force.unref();
  for (const { server } of listeners) {
    // Keep-alive connections with no call in flight would hold close() until they time out;
    // one whose call finishes later turns idle then, hence the sweep until closed.
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    server.close((err) => {
      clearInterval(sweep);
      if (err) {
        failed = true;
        logger.error({ err }, "Server close failed");
      }
      open -= 1;
      if (open > 0) return;
      clearTimeout(force);
      if (!failed) logger.info("Stopped");
      exit(failed ? 1 : 0);
    });
    server.closeIdleConnections();
  }
}

export function startService(config: ServiceConfig, deps: ServiceDeps): Service {
  const { logger } = deps;
  const exit = deps.exit ?? ((code: number) => process.exit(code));
  let shuttingDown = false;
  const appDeps: AppDeps = {
    handlers: deps.handlers,
    logger,
    metrics: deps.metrics ?? createMetrics(), // one registry: /metrics on PORT counts the webhooks too
    isReady: () => !shuttingDown,
    overload: createOverloadGuard(config.overload),
    ...(deps.bearerToken ? { bearerToken: deps.bearerToken } : {}),
  };
  const listeners = listenersFor(config, appDeps, logger);
  return {
    listening: listenAll(listeners, logger),
    ports() {
      const [plain, https, sync] = listeners;
      return {
        http: plain ? portOf(plain.server) : 0,
        ...(https ? { https: portOf(https.server) } : {}),
        ...(sync ? { syncHttps: portOf(sync.server) } : {}),
      };
    },
    isReady: () => !shuttingDown,
    shutdown(signal) {
      if (shuttingDown) return;
      shuttingDown = true;
      const drainDelayMs = signal === "SIGTERM" ? config.drainDelayMs : 0;
      logger.info({ signal, drainDelayMs }, "Shutting down: not ready, listeners close after the drain delay");
      // Not unref'd: the process must live through the delay even with no connection open.
      setTimeout(() => closeAll(listeners, { logger, exit, timeoutMs: config.shutdownTimeoutMs }), drainDelayMs);
    },
  };
}

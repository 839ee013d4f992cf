/**
 * The service entry point and the only file that listens. Environment: `PORT` (default 8080),
 * `LOG_LEVEL` (default info), and for the kube-apiserver's webhooks `TLS_CERT_FILE` +
 * `TLS_KEY_FILE` (PEM files, re-read when they change) with `TLS_PORT` (default 8443).
 *
 * Without TLS files: one plain-HTTP listener on PORT serves everything (local use, curl).
 * With them: PORT stays plain HTTP for Metacontroller (`/sync`, `/customize`, `/metrics`,
 * probes; Metacontroller has no way to trust a private CA) and TLS_PORT serves HTTPS for the
 * apiserver (`/validate`, `/convert`, probes) — see app.ts for why the two are kept apart.
 *
 * SIGTERM/SIGINT: turn unready, let in-flight calls finish, exit 0; still running after 10 s,
 * exit 1.
 */
import { createServer } from "node:http";
import type { Server } from "node:net";
import { customizeHook } from "../lib/customize";
import { syncHook } from "../lib/sync";
import { createApp, type AppDeps } from "./app";
import { createLogger } from "./logger";
import { createMetrics } from "./metrics";
import { createTlsServer, tlsFilesFromEnv, type TlsFiles, type TlsServer } from "./tls";

/** A hook call lasts at most 10 s (Metacontroller's timeout); the kubelet sends SIGKILL after 30 s. */
const SHUTDOWN_TIMEOUT_MS = 10_000;

function portOf(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === "") return fallback;
  const port = Number(value);
  if (Number.isInteger(port) && port >= 0 && port <= 65535) return port;
  throw new Error(`${name} must be an integer from 0 to 65535, got "${value}"`);
}

const logger = createLogger();
let shuttingDown = false;
let tlsFiles: TlsFiles | undefined;
let port: number;
let tlsPort: number;
try {
  tlsFiles = tlsFilesFromEnv(process.env);
  port = portOf("PORT", process.env.PORT, 8080);
  tlsPort = portOf("TLS_PORT", process.env.TLS_PORT, 8443);
} catch (err) {
  logger.fatal({ reason: (err as Error).message }, "Bad configuration");
  process.exit(1);
}

const deps: AppDeps = {
  handlers: { sync: syncHook, customize: customizeHook },
  logger,
  metrics: createMetrics(), // one registry: /metrics on PORT counts the webhooks too
  isReady: () => !shuttingDown,
};
const servers: Server[] = [];

function listen(server: Server, listenPort: number, scheme: "http" | "https"): void {
  server.once("error", (err) => {
    logger.fatal({ err, scheme, port: listenPort }, "Listen failed");
    process.exit(1);
  });
  server.listen(listenPort, () => {
    const address = server.address();
    logger.info({ scheme, port: typeof address === "object" && address ? address.port : address }, "Listening");
  });
  servers.push(server);
}

if (tlsFiles === undefined) {
  listen(createServer(createApp(deps)), port, "http");
} else {
  let tls: TlsServer;
  try {
    tls = createTlsServer(createApp({ ...deps, audience: "apiserver" }), tlsFiles, { logger });
  } catch (err) {
    logger.fatal({ reason: (err as Error).message }, "Cannot read the TLS certificate and key");
    process.exit(1);
  }
  listen(createServer(createApp({ ...deps, audience: "metacontroller" })), port, "http");
  listen(tls.server, tlsPort, "https");
}

function shutdown(signal: NodeJS.Signals): void {
  if (shuttingDown) return;
  shuttingDown = true;
  logger.info({ signal }, "Shutting down");
  let open = servers.length;
  let failed = false;
  for (const server of servers) {
    server.close((err) => {
      if (err) {
        failed = true;
        logger.error({ err }, "Server close failed");
      }
      open -= 1;
      if (open > 0) return;
      if (!failed) logger.info("Stopped");
      process.exit(failed ? 1 : 0);
    });
  }
  setTimeout(() => {
    logger.warn({ timeoutMs: SHUTDOWN_TIMEOUT_MS }, "Forced exit: calls still in flight");
    process.exit(1);
  }, SHUTDOWN_TIMEOUT_MS).unref();
}

process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);

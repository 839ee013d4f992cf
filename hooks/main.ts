/**
 * The service entry point and the only file that listens. Environment: `PORT` (default 8080),
 * `LOG_LEVEL` (default info). SIGTERM/SIGINT: turn unready, let in-flight hook calls finish,
 * exit 0; still running after 10 s, exit 1.
 */
import { customizeHook } from "../lib/customize";
import { syncHook } from "../lib/sync";
import { createApp } from "./app";
import { createLogger } from "./logger";
import { createMetrics } from "./metrics";

/** A hook call lasts at most 10 s (Metacontroller's timeout); the kubelet sends SIGKILL after 30 s. */
const SHUTDOWN_TIMEOUT_MS = 10_000;

function portOf(value: string | undefined): number {
  if (value === undefined || value === "") return 8080;
  const port = Number(value);
  if (Number.isInteger(port) && port >= 0 && port <= 65535) return port;
  throw new Error(`PORT must be an integer from 0 to 65535, got "${value}"`);
}

const logger = createLogger();
let shuttingDown = false;
const app = createApp({
  handlers: { sync: syncHook, customize: customizeHook },
  logger,
  metrics: createMetrics(),
  isReady: () => !shuttingDown,
});
// Express 5 hands a listen error (EADDRINUSE, EACCES) to this callback.
const server = app.listen(portOf(process.env.PORT), (err?: Error) => {
  if (err) {
    logger.fatal({ err }, "Listen failed");
    process.exit(1);
  }
  const address = server.address();
  logger.info({ port: typeof address === "object" && address ? address.port : address }, "Listening");
});

function shutdown(signal: NodeJS.Signals): void {
  if (shuttingDown) return;
  shuttingDown = true;
  logger.info({ signal }, "Shutting down");
  server.close((err) => {
    if (err) logger.error({ err }, "Server close failed");
    else logger.info("Stopped");
    process.exit(err ? 1 : 0);
  });
  setTimeout(() => {
    logger.warn({ timeoutMs: SHUTDOWN_TIMEOUT_MS }, "Forced exit: hook calls still in flight");
    process.exit(1);
  }, SHUTDOWN_TIMEOUT_MS).unref();
}

process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);

/**
 * The service entry point and the only file that touches the process: environment, signals,
 * exit. Everything else is service.ts (listeners, shutdown) and app.ts (routes).
 *
 * Environment (docs/configuration.md and docs/security.md): `PORT`, `LOG_LEVEL`,
 * `TLS_CERT_FILE` + `TLS_KEY_FILE` + `TLS_PORT`, `HOOK_BEARER_TOKEN` or
 * `HOOK_BEARER_TOKEN_FILE`, `MAX_CONCURRENT_HOOKS`, `HOOK_TIMEOUT_MS`,
 * `SHUTDOWN_DRAIN_DELAY_MS`, and the sync hook's settings (sync-settings.ts: registries, running servers,
 * image overrides, memo). A bad value
 * stops the process before it listens, with a `fatal` line that names the variable.
 *
 * SIGTERM: not ready at once, listeners closed after the drain delay, calls in flight
 * finished, exit 0 (exit 1 when some are still running 10 s later). SIGINT: the same without
 * the delay.
 */
import { tokenSourceFromEnv, type TokenSource } from "./auth";
import type { HookHandlers } from "./app";
import { messageOf } from "../lib/errors";
import { productionHandlers } from "./handlers";
import { createLogger, logLevelFromEnv } from "./logger";
import { createMetrics } from "./metrics";
import { serviceConfigFromEnv, startService, type ServiceConfig } from "./service";

// A bad LOG_LEVEL is reported like any other bad value, by a logger at the default level.
let level: string | Error;
try {
  level = logLevelFromEnv(process.env);
} catch (err) {
  level = err instanceof Error ? err : new Error(String(err));
}
const logger = createLogger({ level: typeof level === "string" ? level : "info" });
const metrics = createMetrics();
let config: ServiceConfig;
let handlers: HookHandlers;
let bearerToken: TokenSource | undefined;
try {
  if (level instanceof Error) throw level;
  config = serviceConfigFromEnv(process.env);
  bearerToken = tokenSourceFromEnv(process.env, logger);
  handlers = productionHandlers(logger, process.env, metrics);
} catch (err) {
  logger.fatal({ reason: messageOf(err) }, "Bad configuration");
  process.exit(1);
}

logger.info(
  {
    bearerToken: bearerToken === undefined ? "off" : "required on /sync and /customize",
    maxConcurrentHooks: config.overload.maxConcurrent,
    hookTimeoutMs: config.overload.timeoutMs,
    drainDelayMs: config.drainDelayMs,
  },
  "Starting",
);

const service = startService(config, { logger, handlers, metrics, ...(bearerToken ? { bearerToken } : {}) });
service.listening.catch(() => process.exit(1));

process.on("SIGTERM", () => service.shutdown("SIGTERM"));
process.on("SIGINT", () => service.shutdown("SIGINT"));

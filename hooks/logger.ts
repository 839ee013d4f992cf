/**
 * The service's pino logger: one JSON line per event, level from `LOG_LEVEL` (default info).
 * Secret values must never reach a log (docs/security.md). Bodies are logged only at `debug` (and `trace`), and
 * only as copies whose Secrets lost their values (redact.ts); errors are logged with every
 * Secret value of their request scrubbed out. The paths below are redacted besides, in case
 * an object carrying them is logged by mistake.
 */
import pino from "pino";
import { enumSetting } from "./env-values";

const LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/** `LOG_LEVEL`: one of pino's levels (default info); anything else throws, naming it. */
export function logLevelFromEnv(env: NodeJS.ProcessEnv): string {
  return enumSetting(env, "LOG_LEVEL", LEVELS, "info");
}

export interface LoggerOptions {
  /** @default process.env.LOG_LEVEL ?? "info" */
  readonly level?: string;
  /** Where lines go. @default stdout */
  readonly destination?: pino.DestinationStream;
}

const REDACT_PATHS = [
  // Bearer tokens (hooks/auth.ts), wherever a request's headers end up.
  "req.headers.authorization",
  "headers.authorization",
  "*.headers.authorization",
  "authorization",
  "*.authorization",
  // Secret and ConfigMap payloads.
  "*.data",
  "*.stringData",
  // Request and response bodies, and the raw body body-parser attaches to its errors.
  "body",
  "*.body",
];

export function createLogger(options: LoggerOptions = {}): pino.Logger {
  const settings: pino.LoggerOptions = {
    level: options.level ?? process.env.LOG_LEVEL ?? "info",
    redact: { paths: REDACT_PATHS, censor: "[redacted]" },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return options.destination ? pino(settings, options.destination) : pino(settings);
}

/**
 * Bounds on the work the hook endpoints accept (`/sync`, `/customize`, `/validate`, `/convert`):
 *
 * - At most `MAX_CONCURRENT_HOOKS` calls in flight (default 64), counted across every listener
 *   of the process. One more is answered at once with 429 JSON and `Retry-After: 1`:
 *   Metacontroller requeues the parent for exactly that long instead of backing off
 *   exponentially, and the apiserver retries webhooks too. Memory stays bounded (each call
 *   may hold an 8 MB body) and a burst cannot push every call past its timeout.
 * - Every call answered within `HOOK_TIMEOUT_MS` (default 9 s, under Metacontroller's and the
 *   apiserver's 10 s): past it, 503 JSON with `Retry-After: 1`, never a hang. The clock starts
 *   when the request arrives, so a client that sends its body slowly is cut too (and its
 *   connection closed: the rest of the body is not waited for). The handler's own work cannot
 *   be interrupted; its late answer is dropped and logged. Registry reads, the only slow part,
 *   are bounded to 4 s on their own.
 *
 * A slot is taken when the request arrives and given back when its response is finished or
 * its connection closed.
 */
import type { Request, RequestHandler, Response } from "express";
import type pino from "pino";
import { createDeadlines } from "./deadlines";
import { numberSetting, type NumberRule } from "./env-values";
import { sendError } from "./errors";
import { hookLabelOf, type HookMetrics } from "./metrics";

export interface OverloadOptions {
  /** Calls in flight at once, across the process. @default 64 */
  readonly maxConcurrent: number;
  /** Time from arrival to answer. @default 9000 */
  readonly timeoutMs: number;
  /** The `Retry-After` of a 429 or 503, in seconds. @default 1 */
  readonly retryAfterSeconds: number;
}

export const OVERLOAD_DEFAULTS: OverloadOptions = Object.freeze({
  maxConcurrent: 64,
  timeoutMs: 9000,
  retryAfterSeconds: 1,
});

export interface OverloadDeps {
  readonly logger: pino.Logger;
  readonly metrics: HookMetrics;
}

export interface OverloadGuard {
  readonly options: OverloadOptions;
  /** Calls holding a slot now. */
  inFlight(): number;
  /** The middleware for one app; every app of the process shares the guard's slots. */
  middleware(deps: OverloadDeps): RequestHandler;
}

/** Set on `res.locals` when the time limit answered for the handler: the handler must not answer again. */
export const TIMED_OUT = "llsdTimedOut";

/** The time limit's 503, unless the handler answered first; the handler's own answer is then dropped. */
function answerTimedOut(
  req: Request,
  res: Response,
  {
    hook,
    elapsedMs,
    settings,
    deps,
  }: { hook: string; elapsedMs: number; settings: OverloadOptions; deps: OverloadDeps },
): void {
  if (res.headersSent) return;
  const retryAfter = String(settings.retryAfterSeconds);
  res.locals[TIMED_OUT] = true;
  deps.metrics.observe(hook, "timeout", elapsedMs / 1000);
  deps.logger.warn(
    { hook, outcome: "timeout", status: 503, limitMs: settings.timeoutMs, bodyComplete: req.complete },
    "Hook call ran past its time limit",
  );
  res.set("Retry-After", retryAfter);
  // Still receiving the body: do not wait for the rest, close the connection after this answer.
  if (!req.complete) res.set("Connection", "close");
  sendError(res, {
    status: 503,
    message: `the hook call did not finish within ${settings.timeoutMs} ms; retry after ${retryAfter} s`,
  });
}

export function createOverloadGuard(options: Partial<OverloadOptions> = {}): OverloadGuard {
  const settings: OverloadOptions = { ...OVERLOAD_DEFAULTS, ...options };
  const retryAfter = String(settings.retryAfterSeconds);
  let inFlight = 0;
  const deadlines = createDeadlines(settings.timeoutMs);
  return {
    options: settings,
    inFlight: () => inFlight,
    middleware(deps) {
      const { logger, metrics } = deps;
      return (req, res, next) => {
        const hook = hookLabelOf(req);
        if (inFlight >= settings.maxConcurrent) {
          metrics.observe(hook, "overloaded", 0);
          logger.warn(
            { hook, outcome: "overloaded", status: 429, inFlight, limit: settings.maxConcurrent },
            "Rejected hook call: too many in flight",
          );
          res.set("Retry-After", retryAfter);
          sendError(res, {
            status: 429,
            message: `too many hook calls in flight (limit ${settings.maxConcurrent}); retry after ${retryAfter} s`,
          });
          return;
        }
        inFlight++;
        const finish = deadlines.start((elapsedMs) => answerTimedOut(req, res, { hook, elapsedMs, settings, deps }));
        res.once("close", () => {
          finish();
          inFlight--;
        });
        next();
      };
    },
  };
}

const POSITIVE_INTEGER: NumberRule = { integer: true, min: 1, means: "a positive integer" };

/** `MAX_CONCURRENT_HOOKS`, `HOOK_TIMEOUT_MS`; a bad value throws. */
export function overloadOptionsFromEnv(env: NodeJS.ProcessEnv): OverloadOptions {
  return {
    maxConcurrent: numberSetting(env, "MAX_CONCURRENT_HOOKS", POSITIVE_INTEGER, OVERLOAD_DEFAULTS.maxConcurrent),
    timeoutMs: numberSetting(env, "HOOK_TIMEOUT_MS", POSITIVE_INTEGER, OVERLOAD_DEFAULTS.timeoutMs),
    retryAfterSeconds: OVERLOAD_DEFAULTS.retryAfterSeconds,
  };
}

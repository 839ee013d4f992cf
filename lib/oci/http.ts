/**
 * One registry GET with every bound the hook needs: a per-request timeout joined with the
 * resolve's overall deadline (both AbortSignals, so they also cut a body mid-stream), bounded
 * retries of 429/5xx/connection errors with backoff and Retry-After, and redirects followed
 * by hand so a registry cannot bounce us to a host its policy refuses (every hop is checked like
 * the registry itself) or leak a header to another origin.
 */
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { isForbiddenHost } from "./reference";
import { decideRetry, isRetryableStatus, parseRetryAfter } from "./retry";
import { fail, ok, REASON, type Failed, type Result } from "./types";

/** The overall time budget of one resolve. Real elapsed time (monotonic), not the injected cache clock. */
export interface Deadline {
  readonly signal: AbortSignal;
  readonly totalMs: number;
  remainingMs(): number;
  dispose(): void;
}

export function startDeadline(totalMs: number): Deadline {
  const controller = new AbortController();
  const started = performance.now();
  const timer = setTimeout(() => controller.abort(new Error("deadline")), totalMs);
  return {
    signal: controller.signal,
    totalMs,
    remainingMs: () => Math.max(0, totalMs - (performance.now() - started)),
    dispose: () => clearTimeout(timer),
  };
}

export interface HttpOptions {
  readonly requestTimeoutMs: number;
  readonly maxRetries: number;
  readonly retryBaseMs: number;
  /** Longest single wait between attempts, Retry-After included. */
  readonly maxRetryDelayMs: number;
  readonly now: () => number;
}

export interface RequestContext {
  readonly deadline: Deadline;
  readonly http: HttpOptions;
  /**
   * The registry policy for a host other than the registry's own: each redirect target and
   * token realm passes it (allow-list, link-local/metadata, loopback and private addresses)
   * before it is contacted. Absent: only the literal checks of `redirectTarget`.
   */
  readonly checkHop?: (url: URL) => Promise<Result<void>>;
}

const MAX_REDIRECTS = 5;

/**
 * A thrown fetch/stream error → a failure value. Duck-typed, not `instanceof`: undici's errors
 * and DOMExceptions come from another realm under jest (and Node's fetch in general).
 * Only host names go into messages, never URLs with queries.
 */
export function describeError(err: unknown, ctx: RequestContext, host: string): Failed {
  if (ctx.deadline.signal.aborted) {
    return fail(REASON.timeout, `${host} did not answer within the ${ctx.deadline.totalMs} ms deadline`, true);
  }
  const { name, message, cause } = (typeof err === "object" && err !== null ? err : {}) as {
    name?: unknown;
    message?: unknown;
    cause?: { code?: unknown };
  };
  if (name === "TimeoutError" || name === "AbortError") {
    return fail(REASON.timeout, `a request to ${host} took longer than ${ctx.http.requestTimeoutMs} ms`, true);
  }
  const detail = typeof cause?.code === "string" ? cause.code : typeof message === "string" ? message : String(err);
  return fail(REASON.unavailable, `cannot reach ${host}: ${detail}`, true);
}

function parseUrl(location: string | null, base: URL): URL | undefined {
  if (location === null) return undefined;
  try {
    return new URL(location, base);
  } catch {
    return undefined;
  }
}

function redirectTarget(from: URL, location: string | null): Result<URL> {
  const to = parseUrl(location, from);
  const downgrade = to?.protocol === "http:" && from.protocol === "https:";
  if (
    to === undefined ||
    (to.protocol !== "https:" && to.protocol !== "http:") ||
    downgrade ||
    isForbiddenHost(to.host)
  ) {
    return fail(REASON.notAllowed, `${from.host} redirected to a location this service does not follow`);
  }
  return ok(to);
}

/** The next hop of a redirect, once it passed the policy; a hop to another origin loses our Authorization. */
async function followRedirect(
  current: URL,
  response: Response,
  headers: Record<string, string>,
  ctx: RequestContext,
): Promise<Result<{ url: URL; headers: Record<string, string> }>> {
  const next = redirectTarget(current, response.headers.get("location"));
  if (!next.ok) return next;
  const allowed =
    next.value.host === current.host ? ok(undefined) : ((await ctx.checkHop?.(next.value)) ?? ok(undefined));
  if (!allowed.ok)
    return fail(
      REASON.notAllowed,
      `${current.host} redirected to ${next.value.host}, which this service does not contact: ${allowed.error.message}`,
    );
  // Blob redirects go to storage (S3, GCS) with presigned URLs: our Authorization must not follow.
  const sent =
    next.value.origin === current.origin
      ? headers
      : Object.fromEntries(Object.entries(headers).filter(([k]) => k.toLowerCase() !== "authorization"));
  return ok({ url: next.value, headers: sent });
}

function isRedirect(status: number): boolean {
  return status >= 300 && status < 400 && status !== 304;
}

/** GET with redirects (manual, checked) under one per-request timeout. Throws what fetch throws. */
async function getOnce(url: URL, headers: Record<string, string>, ctx: RequestContext): Promise<Result<Response>> {
  const signal = AbortSignal.any([ctx.deadline.signal, AbortSignal.timeout(ctx.http.requestTimeoutMs)]);
  let hop = { url, headers };
  for (let count = 0; count <= MAX_REDIRECTS; count++) {
    const response = await fetch(hop.url, { headers: hop.headers, redirect: "manual", signal });
    if (!isRedirect(response.status)) return ok(response);
    await response.body?.cancel();
    const next = await followRedirect(hop.url, response, hop.headers, ctx);
    if (!next.ok) return next;
    hop = next.value;
  }
  return fail(REASON.registryError, `${url.host} redirected more than ${MAX_REDIRECTS} times`, true);
}

/** One attempt; a thrown error becomes a failure value. */
async function attemptOnce(
  target: URL,
  headers: Record<string, string>,
  ctx: RequestContext,
): Promise<Result<Response>> {
  try {
    return await getOnce(target, headers, ctx);
  } catch (err) {
    return describeError(err, ctx, target.host);
  }
}

/** An answer that is final: a non-retryable status, or a failure that retrying cannot fix. */
function isFinal(outcome: Result<Response>): boolean {
  if (outcome.ok) return !isRetryableStatus(outcome.value.status);
  return outcome.error.reason !== REASON.unavailable;
}

/**
 * The final answer to a GET (any status but a retryable one), or a failure once retries are
 * spent. 401/404 come back as responses: what they mean depends on the caller.
 */
export async function send(
  url: string,
  headers: Record<string, string>,
  ctx: RequestContext,
): Promise<Result<Response>> {
  const target = new URL(url);
  for (let attempt = 0; ; attempt++) {
    const outcome = await attemptOnce(target, headers, ctx);
    if (isFinal(outcome)) return outcome;
    const retryAfterMs = outcome.ok
      ? parseRetryAfter(outcome.value.headers.get("retry-after"), ctx.http.now())
      : undefined;
    if (outcome.ok) await outcome.value.body?.cancel();
    const decision = decideRetry({
      attempt,
      maxRetries: ctx.http.maxRetries,
      retryAfterMs,
      baseMs: ctx.http.retryBaseMs,
      maxDelayMs: ctx.http.maxRetryDelayMs,
      remainingMs: ctx.deadline.remainingMs(),
    });
    if (!decision.retry) return giveUp(outcome, { attempts: attempt + 1, host: target.host, why: decision.why });
    try {
      await sleep(decision.delayMs, undefined, { signal: ctx.deadline.signal });
    } catch (err) {
      return describeError(err, ctx, target.host);
    }
  }
}

function giveUp(
  outcome: Result<Response>,
  { attempts, host, why }: { attempts: number; host: string; why?: string },
): Failed {
  if (!outcome.ok) return outcome;
  const { status } = outcome.value;
  const tries = `after ${attempts} attempt${attempts === 1 ? "" : "s"}${why === undefined ? "" : ` (${why})`}`;
  if (status === 429) return fail(REASON.rateLimited, `${host} is rate limiting requests (429) ${tries}`, true);
  return fail(REASON.registryError, `${host} answered ${String(status)} ${tries}`, true);
}

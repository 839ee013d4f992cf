/** Retry timing for registry requests. Pure: the clock is an argument. */

/** 429 and every 5xx are worth another try; other statuses are answers. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/**
 * `Retry-After` in milliseconds: delta-seconds (`"2"`) or an HTTP date. Undefined when absent or
 * unreadable; never negative.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

/** 0 → base, 1 → 2·base, … capped. No jitter: single-flight already keeps callers from stampeding. */
export function backoffMs(attempt: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt));
}

export interface RetryDecision {
  readonly retry: boolean;
  readonly delayMs: number;
  /** Why we stop, when `retry` is false because waiting would cost too much. */
  readonly why?: string;
}

/**
 * Whether to try again after a retryable answer: only while attempts remain, and only when the
 * wait (Retry-After, else backoff) fits both the cap and the time left before the deadline.
 */
export function decideRetry(input: {
  attempt: number;
  maxRetries: number;
  retryAfterMs: number | undefined;
  baseMs: number;
  maxDelayMs: number;
  remainingMs: number;
}): RetryDecision {
  const delayMs = input.retryAfterMs ?? backoffMs(input.attempt, input.baseMs, input.maxDelayMs);
  if (input.attempt >= input.maxRetries) return { retry: false, delayMs };
  if (delayMs > input.maxDelayMs)
    return { retry: false, delayMs, why: `it asked to retry after ${Math.ceil(delayMs / 1000)} s` };
  if (delayMs >= input.remainingMs)
    return { retry: false, delayMs, why: "the retry delay does not fit in the time left" };
  return { retry: true, delayMs };
}

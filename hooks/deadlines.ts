/**
 * The time limit of every hook call in flight, kept by one timer for all of them instead of one
 * per call: a timer set and cleared on every call (a libuv timer rescheduled, the event loop
 * ref'ed and unref'ed) cost about a tenth of a `/validate` call's CPU in the replay benchmark
 * (docs/development.md, "Where a call's time goes").
 *
 * Every call gets the same limit, so calls expire in the order they started, which is the
 * order of the `Set`: the timer waits for the oldest call still in flight, expires every call
 * past its deadline, then waits for the next oldest. A call that finishes leaves the set and
 * the timer as they are; the timer finds nothing to do when it fires and is not set again, so
 * an idle process has no timer, at most one firing after its last call.
 */

export interface Deadlines {
  /**
   * Starts a call's clock: `expire` runs at its deadline, with the milliseconds since the
   * start, unless the returned `finish` ran first.
   */
  start(expire: (elapsedMs: number) => void): () => void;
  /** Calls whose deadline is pending. */
  pending(): number;
}

/** Milliseconds on a monotonic clock (performance.now()). */
export type Clock = () => number;

interface Pending {
  readonly deadline: number;
  readonly expire: (elapsedMs: number) => void;
}

export function createDeadlines(timeoutMs: number, clock: Clock = () => performance.now()): Deadlines {
  const calls = new Set<Pending>();
  let timer: NodeJS.Timeout | undefined;
  const arm = (deadline: number): void => {
    // Unref'ed: a call in flight keeps the process alive through its socket, not through this.
    timer = setTimeout(fire, Math.max(0, deadline - clock())).unref();
  };
  function fire(): void {
    timer = undefined;
    const now = clock();
    const expired: Pending[] = [];
    for (const call of calls) {
      if (call.deadline > now) {
        arm(call.deadline);
        break;
      }
      calls.delete(call);
      expired.push(call);
    }
    for (const call of expired) call.expire(now - call.deadline + timeoutMs);
  }
  return {
    start(expire) {
      const call: Pending = { deadline: clock() + timeoutMs, expire };
      calls.add(call);
      if (timer === undefined) arm(call.deadline);
      return () => void calls.delete(call);
    },
    pending: () => calls.size,
  };
}

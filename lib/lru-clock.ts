/**
 * lru-cache's time source from an injected clock (style: the clock is injected, so tests step
 * it). Read on every staleness check (`ttlResolution: 0`: no cached "now", no timer), and one
 * millisecond ahead because lru-cache takes an entry started at time 0 as one without a TTL.
 */
export function lruClock(now: () => number): { readonly perf: { now: () => number }; readonly ttlResolution: 0 } {
  return { perf: { now: () => now() + 1 }, ttlResolution: 0 };
}

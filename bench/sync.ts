/**
 * Benchmark: one in-process sync (the code as built, bench/built.ts) of the full-featured
 * sample with its observed children (validate, normalize, generate, children, status: `sync()`
 * without the registry), against a
 * baseline in the same process: JSON.parse + JSON.stringify of the same request, the least any
 * hook does with it. Reported beside it: the same request through the sync memo once it has
 * the parent's answer (`syncRemembered`, what a resync of an unchanged parent costs).
 */
import type { CacheName } from "../lib/caches";
import { builtCaches, builtMemo, builtSync, builtSyncIo } from "./built";
import { benchDeps, sampleSyncRequest } from "./request";
import { measureAsync, measurePair, type Timing } from "./stats";

/**
 * One in-process sync with and without one cache (the base-config cache, in the report), in
 * alternating rounds, so the ratio is the cache's gain. The policy changes once per round (a
 * change empties the cache, which the round's warm-up fills again).
 */
export async function benchWithout(name: CacheName, iterations = 3000): Promise<{ without: Timing; with: Timing }> {
  const { CACHE_BUDGET_MB, setCachePolicy } = builtCaches();
  const { sync } = builtSync();
  const request = await sampleSyncRequest();
  const deps = benchDeps();
  let off: boolean | undefined;
  const policy = (without: boolean): void => {
    if (off === without) return;
    off = without;
    setCachePolicy(CACHE_BUDGET_MB * 2 ** 20, without ? [name] : []);
  };
  try {
    const [without, kept] = measurePair(
      () => (policy(true), void sync(request, deps)),
      () => (policy(false), void sync(request, deps)),
      iterations,
      { warmup: iterations },
    );
    return { without, with: kept };
  } finally {
    setCachePolicy(CACHE_BUDGET_MB * 2 ** 20);
  }
}

export interface SyncBench {
  readonly sync: Timing;
  readonly baseline: Timing;
  /** `syncRemembered` of the same request, answered from the memo. */
  readonly remembered: Timing;
  readonly requestBytes: number;
}

export async function benchSync(iterations = 5000): Promise<SyncBench> {
  const { cacheBytes } = builtCaches();
  const { createSyncMemo, MEMO_DEFAULTS } = builtMemo();
  const { syncRemembered } = builtSyncIo();
  const { sync } = builtSync();
  const request = await sampleSyncRequest();
  const text = JSON.stringify(request);
  const deps = benchDeps();
  const [syncTiming, baseline] = measurePair(
    () => void sync(request, deps),
    () => void JSON.stringify(JSON.parse(text)),
    iterations,
    { warmup: iterations },
  );
  const memo = createSyncMemo({ ...MEMO_DEFAULTS, maxBytes: cacheBytes("sync memo"), now: Date.now });
  const first = await syncRemembered(request, deps, { memo });
  const again = await syncRemembered(request, deps, { memo });
  if (first.summary.reused !== 0 || again.summary.reused !== 1)
    throw new Error(
      `the sample request is not answered from the memo: ${JSON.stringify([first.summary, again.summary])}`,
    );
  const remembered = await measureAsync(() => syncRemembered(request, deps, { memo }), iterations);
  return { sync: syncTiming, baseline, remembered, requestBytes: Buffer.byteLength(text) };
}

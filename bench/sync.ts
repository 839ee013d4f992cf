/**
 * Benchmark: one in-process sync of the full-featured sample with its observed children
 * (validate, normalize, generate, children, status: `sync()` without the registry), against a
 * baseline in the same process: JSON.parse + JSON.stringify of the same request, the least any
 * hook does with it. Reported beside it: the same request through the sync memo once it has
 * the parent's answer (`syncRemembered`, what a resync of an unchanged parent costs).
 */
import { syncRemembered } from "../lib/sync";
import { cacheBytes } from "../lib/caches";
import { createSyncMemo, MEMO_DEFAULTS } from "../lib/sync/memo";
import { sync } from "../lib/sync/sync";
import { benchDeps, sampleSyncRequest } from "./request";
import { measureAsync, measurePair, type Timing } from "./stats";

export interface SyncBench {
  readonly sync: Timing;
  readonly baseline: Timing;
  /** `syncRemembered` of the same request, answered from the memo. */
  readonly remembered: Timing;
  readonly requestBytes: number;
}

export async function benchSync(iterations = 5000): Promise<SyncBench> {
  const request = await sampleSyncRequest();
  const text = JSON.stringify(request);
  const deps = benchDeps();
  const [syncTiming, baseline] = measurePair(
    () => void sync(request, deps),
    () => void JSON.stringify(JSON.parse(text)),
    iterations,
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

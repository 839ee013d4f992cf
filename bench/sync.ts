/**
 * Benchmark: one in-process sync of the full-featured sample with its observed children
 * (validate, normalize, generate, children, status: `sync()` without the registry), against a
 * baseline in the same process: JSON.parse + JSON.stringify of the same request, the least any
 * hook does with it.
 */
import { sync } from "../lib/sync/sync";
import { benchDeps, sampleSyncRequest } from "./request";
import { measurePair, type Timing } from "./stats";

export interface SyncBench {
  readonly sync: Timing;
  readonly baseline: Timing;
  readonly requestBytes: number;
}

export async function benchSync(iterations = 5000): Promise<SyncBench> {
  const request = await sampleSyncRequest();
  const text = JSON.stringify(request);
  const deps = benchDeps();
  const [syncTiming, baseline] = measurePair(() => void sync(request, deps), () => void JSON.stringify(JSON.parse(text)), iterations);
  return { sync: syncTiming, baseline, requestBytes: Buffer.byteLength(text) };
}

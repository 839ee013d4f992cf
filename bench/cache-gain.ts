/**
 * Benchmark: what a cache keyed by ConfigMap version saves on the recorded `/sync` traffic
 * (bench/traffic): every request parsed, shape-checked and answered by the sync handler as the
 * service wires it (the code as built, registry reading and live status off), in process, with
 * the cache and without it in alternating rounds. Each round refills the cache with one
 * unmeasured pass, then measures process CPU over two.
 */
import type { CacheName } from "../lib/caches";
import { builtCaches, builtHandlers, builtLogger, builtMetrics, builtRequestShape } from "./built";
import { SERVICE_ENV } from "./service";
import { median } from "./stats";
import { readTraffic } from "./traffic";

export interface CacheGain {
  readonly calls: number;
  /** Median CPU per call (µs) with the cache, and without it. */
  readonly withUs: number;
  readonly withoutUs: number;
  /** Median over the rounds of without ÷ with, each pair measured back to back. */
  readonly ratio: number;
  readonly lowest: number;
  readonly highest: number;
}

const ROUNDS = 8;
const WARM_PASSES = 10;

export async function benchCacheGain(name: CacheName): Promise<CacheGain> {
  const { CACHE_BUDGET_MB, setCachePolicy } = builtCaches();
  const { syncRequestShape } = builtRequestShape();
  const handlers = builtHandlers().productionHandlers(
    builtLogger().createLogger({ level: "silent" }),
    SERVICE_ENV,
    builtMetrics().createMetrics(),
  );
  const bodies = readTraffic("sync").map((r) => r.body);
  const pass = async (): Promise<void> => {
    for (const body of bodies) {
      const shaped = syncRequestShape(JSON.parse(body));
      if (!shaped.ok) continue; // the recording's cut call
      const answer = await handlers.sync(shaped.request);
      if (!("body" in answer)) JSON.stringify(answer);
    }
  };
  const cpuPerCall = async (): Promise<number> => {
    const start = process.cpuUsage();
    for (let i = 0; i < 2; i++) await pass();
    const used = process.cpuUsage(start);
    return (used.user + used.system) / 2 / bodies.length;
  };
  try {
    for (let i = 0; i < WARM_PASSES; i++) await pass();
    const kept: number[] = [];
    const without: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      for (const off of [false, true]) {
        setCachePolicy(CACHE_BUDGET_MB * 2 ** 20, off ? [name] : []);
        await pass();
        (off ? without : kept).push(await cpuPerCall());
      }
    }
    const ratios = kept.map((k, i) => (without[i] ?? NaN) / k).sort((a, b) => a - b);
    return {
      calls: bodies.length,
      withUs: median(kept),
      withoutUs: median(without),
      ratio: median(ratios),
      lowest: ratios[0] ?? NaN,
      highest: ratios.at(-1) ?? NaN,
    };
  } finally {
    setCachePolicy(CACHE_BUDGET_MB * 2 ** 20);
  }
}

/**
 * Benchmark: resident memory of the service (the hooks Deployment's command, bench/service.ts)
 * after 10,000 distinct parents were synced over HTTP, their spec naming one of a few images
 * in a real local registry. Baseline: the same process idle, right after it became ready.
 */
import { Agent } from "node:http";
import { CACHE_BUDGET_MB, CACHE_SHARES, MAX_ENTRY_FRACTION } from "../lib/caches";
import { pushStarterImage } from "./burst";
import { requestBody, sampleSyncRequest } from "./request";
import { build, deploymentArgs, metricOf, postSync, SERVICE_ENV, spawnReady } from "./service";
import { startProxy } from "../tests/oci/support/proxy";
import { startRegistry } from "../tests/oci/support/registry";
import { runHostile } from "../tests/reliability/hostile-sizes";

export const PARENTS = 10_000;
const IMAGES = 4;
/** Under the service's default overload limit (64 in flight). */
const CONCURRENCY = 32;

export interface MemoryBench {
  readonly idleRssMb: number;
  readonly halfwayRssMb: number;
  /** A second after the last answer. */
  readonly finalRssMb: number;
  /** The highest RSS the process reached (VmHWM). */
  readonly peakRssMb: number;
  /** V8 heap in use at the end (the service's /metrics): what the caches and live objects hold. */
  readonly heapUsedMb: number;
  readonly parents: number;
  readonly images: number;
  readonly seconds: number;
}

/** The bounds of every cache a sync can fill, for the report: each one's share of the one budget (lib/caches.ts). */
export const CACHE_BOUNDS: readonly string[] = Object.entries(CACHE_SHARES).map(
  ([name, share]) =>
    `${name}: ${(CACHE_BUDGET_MB * share).toFixed(1)} MiB of LLSD_CACHE_MB (${CACHE_BUDGET_MB}), no entry above 1/${1 / MAX_ENTRY_FRACTION} of it`,
);

const mb = (bytes: number): number => bytes / 1024 / 1024;

export async function benchMemory(built = build()): Promise<MemoryBench> {
  if (!built.ok) throw new Error(built.error);
  const registry = await startRegistry();
  const proxy = await startProxy(registry.host);
  // Live status off: it would call each parent's Service, which exists only in a cluster.
  const service = await spawnReady(deploymentArgs(), { INSECURE_REGISTRIES: proxy.host, LLSD_LIVE_STATUS: "false" });
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  try {
    for (let i = 0; i < IMAGES; i++) await pushStarterImage(registry.url, `llsd/memory-${i}`);
    const text = JSON.stringify(await sampleSyncRequest());
    const idle = service.rssBytes().now;
    let halfway = NaN;
    let next = 0;
    const failures: number[] = [];
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let i = next++; i < PARENTS; i = next++) {
          const { status } = await postSync(
            agent,
            service.url,
            requestBody(text, `mem-${i}`, `${proxy.host}/llsd/memory-${i % IMAGES}:0.7.1`),
          );
          if (status !== 200) failures.push(status);
          if (i === PARENTS / 2) halfway = service.rssBytes().now;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    if (failures.length > 0)
      throw new Error(`${failures.length} of ${PARENTS} syncs were not answered 200 (first: ${failures[0]})`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const final = service.rssBytes();
    const heapUsed = await metricOf(service.url, "nodejs_heap_size_used_bytes ");
    return {
      idleRssMb: mb(idle),
      halfwayRssMb: mb(halfway),
      finalRssMb: mb(final.now),
      peakRssMb: mb(final.peak),
      heapUsedMb: mb(heapUsed),
      parents: PARENTS,
      images: IMAGES,
      seconds,
    };
  } finally {
    agent.destroy();
    await service.stop();
    await proxy.close();
    await registry.stop();
  }
}

export const LARGE_PARENTS = 10_000;

export interface LargeMemoryBench {
  readonly idleRssMb: number;
  /** After the last answer; the highest RSS seen after any answer; the kernel's peak (VmHWM). */
  readonly finalRssMb: number;
  readonly maxRssMb: number;
  readonly peakRssMb: number;
  readonly answered: number;
  readonly wrong: readonly string[];
  readonly died?: string;
  readonly seconds: number;
}

/**
 * The hostile-size test's case (tests/build.test.ts) at scale: LARGE_PARENTS distinct parents,
 * every one large (a 1 MiB provider setting, a 0.9 MiB overrideConfig or CA-bundle ConfigMap in
 * turn), 4 at a time, against the Deployment's command; every answer checked.
 */
export async function benchLargeMemory(built = build()): Promise<LargeMemoryBench> {
  if (!built.ok) throw new Error(built.error);
  const service = await spawnReady(deploymentArgs(), SERVICE_ENV);
  try {
    const idle = service.rssBytes().now;
    const started = performance.now();
    const run = await runHostile(service, { requests: LARGE_PARENTS, largeEvery: 1, concurrency: 4 });
    const seconds = (performance.now() - started) / 1000;
    const final = run.died === undefined ? service.rssBytes() : { now: NaN, peak: NaN };
    return {
      idleRssMb: mb(idle),
      finalRssMb: mb(final.now),
      maxRssMb: mb(run.maxRssBytes),
      peakRssMb: mb(final.peak),
      answered: run.sent - run.wrongCount,
      wrong: run.wrong,
      ...(run.died === undefined ? {} : { died: run.died }),
      seconds,
    };
  } finally {
    await service.stop();
  }
}

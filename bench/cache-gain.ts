/**
 * Benchmark: what a cache saves on `/sync` requests: every request parsed, shape-checked and
 * answered by the sync handler as the service wires it (the code as built, registry reading and
 * live status off), in process, with the cache and without it in alternating rounds. Each round
 * refills the cache with one unmeasured pass, then measures process CPU over two. The requests:
 * the recorded traffic (bench/traffic), or for "generated configs" the sample parent resynced at
 * a new resourceVersion on every call (a status write: the unchanged-parent memo cannot answer).
 */
import type { CacheName } from "../lib/caches";
import { builtCaches, builtHandlers, builtLogger, builtMetrics, builtRequestShape } from "./built";
import { sampleSyncRequest, withParentVersion } from "./request";
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

type Handlers = ReturnType<ReturnType<typeof builtHandlers>["productionHandlers"]>;

/** The sync handler as the service builds it, under the cache policy of the moment (the memo sizes itself then). */
const handlersNow = (): Handlers =>
  builtHandlers().productionHandlers(
    builtLogger().createLogger({ level: "silent" }),
    SERVICE_ENV,
    builtMetrics().createMetrics(),
  );

/** Each call's body: the recorded traffic, or a pass's worth of fresh ones. */
export type Bodies = () => readonly string[];

/** Calls a pass of the status-write scenario. */
export const STATUS_WRITES = 100;

/** The sample parent, each call at the next resourceVersion with the same spec: what Metacontroller sends after each status write. */
export async function statusWrites(): Promise<Bodies> {
  const text = JSON.stringify(await sampleSyncRequest());
  let version = 1000;
  return () => Array.from({ length: STATUS_WRITES }, () => withParentVersion(text, String(++version)));
}

const recorded = (): Bodies => {
  const bodies = readTraffic("sync").map((r) => r.body);
  return () => bodies;
};

/** Caches each handler builds for itself (with the sync memo): the policy is left alone between rounds. */
const PER_HANDLER: ReadonlySet<CacheName> = new Set(["generated configs"]);

export async function benchCacheGain(name: CacheName, bodiesOf: Bodies = recorded()): Promise<CacheGain> {
  const { CACHE_BUDGET_MB, setCachePolicy } = builtCaches();
  const full = CACHE_BUDGET_MB * 2 ** 20;
  // One handler per policy: the sync memo takes its budgets when it is built.
  setCachePolicy(full, [name]);
  const without = handlersNow();
  setCachePolicy(full);
  const kept = handlersNow();
  try {
    // A change of policy empties every shared cache: only a shared cache's rounds need one.
    const policy = PER_HANDLER.has(name) ? () => undefined : (off: boolean) => setCachePolicy(full, off ? [name] : []);
    return await alternate(runner(bodiesOf), { kept, without }, policy);
  } finally {
    setCachePolicy(full);
  }
}

interface Runner {
  readonly calls: number;
  pass(handlers: Handlers): Promise<void>;
  /** CPU per call (µs) over two passes. */
  cpuPerCall(handlers: Handlers): Promise<number>;
}

function runner(bodiesOf: Bodies): Runner {
  const { syncRequestShape } = builtRequestShape();
  const calls = bodiesOf().length;
  const pass = async (handlers: Handlers): Promise<void> => {
    for (const body of bodiesOf()) {
      const shaped = syncRequestShape(JSON.parse(body));
      if (!shaped.ok) continue; // the recording's cut call
      const answer = await handlers.sync(shaped.request);
      if (!("body" in answer)) JSON.stringify(answer);
    }
  };
  const cpuPerCall = async (handlers: Handlers): Promise<number> => {
    const start = process.cpuUsage();
    for (let i = 0; i < 2; i++) await pass(handlers);
    const used = process.cpuUsage(start);
    return (used.user + used.system) / 2 / calls;
  };
  return { calls, pass, cpuPerCall };
}

/** Warm passes, then rounds with the cache and without it; `policy` sets the shared caches' side (the sync memo is the handler's own). */
async function alternate(
  run: Runner,
  handlers: { readonly kept: Handlers; readonly without: Handlers },
  policy: (off: boolean) => void,
): Promise<CacheGain> {
  for (let i = 0; i < WARM_PASSES; i++) for (const h of [handlers.kept, handlers.without]) await run.pass(h);
  const withIt: number[] = [];
  const withoutIt: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const off of [false, true]) {
      policy(off);
      const h = off ? handlers.without : handlers.kept;
      await run.pass(h);
      (off ? withoutIt : withIt).push(await run.cpuPerCall(h));
    }
  }
  const ratios = withIt.map((k, i) => (withoutIt[i] ?? NaN) / k).sort((a, b) => a - b);
  return {
    calls: run.calls,
    withUs: median(withIt),
    withoutUs: median(withoutIt),
    ratio: median(ratios),
    lowest: ratios[0] ?? NaN,
    highest: ratios.at(-1) ?? NaN,
  };
}

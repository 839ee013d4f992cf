/**
 * Benchmark: process start to `/readyz` 200 for `node dist/hooks/main.js` (what the image
 * runs), against a baseline started the same way: a bare `node:http` server answering 200 —
 * the wall time, and the process CPU spent by then (/proc, every thread). Then both idle side by
 * side for IDLE_SECONDS after ready: the CPU each spends doing nothing, and its wakeups
 * (voluntary context switches: a timer or an event that woke a thread).
 */
import { build, deploymentArgs, spawnReady, type Spawned } from "./service";

export interface StartupBench {
  readonly medianMs: number;
  readonly maxMs: number;
  readonly baselineMedianMs: number;
  /** Process CPU from spawn to ready, median over the runs. */
  readonly cpuMedianMs: number;
  readonly baselineCpuMedianMs: number;
  readonly runs: number;
  readonly idle: IdleUse;
}

/** CPU and wakeups over IDLE_SECONDS with no request, a second after ready. */
export interface IdleUse {
  readonly seconds: number;
  readonly cpuMs: number;
  readonly wakeups: number;
  readonly baselineCpuMs: number;
  readonly baselineWakeups: number;
}

export const IDLE_SECONDS = 10;

const RUNS = 5;
const BARE = "require('node:http').createServer((q, s) => s.end('ok')).listen(Number(process.env.PORT), '127.0.0.1')";

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Both processes left alone at once; what each used meanwhile. */
async function idleUse(service: Spawned, bare: Spawned): Promise<IdleUse> {
  await sleep(1000); // past the start's last work (a first GC, timers armed at listen)
  const before = [service.cpu(), bare.cpu()];
  await sleep(IDLE_SECONDS * 1000);
  const [s, b] = [service.cpu(), bare.cpu()].map((after, i) => ({
    cpuMs: (after.ns - (before[i]?.ns ?? 0)) / 1e6,
    wakeups: after.wakeups - (before[i]?.wakeups ?? 0),
  }));
  return {
    seconds: IDLE_SECONDS,
    cpuMs: s?.cpuMs ?? NaN,
    wakeups: s?.wakeups ?? NaN,
    baselineCpuMs: b?.cpuMs ?? NaN,
    baselineWakeups: b?.wakeups ?? NaN,
  };
}

export async function benchStartup(built = build()): Promise<StartupBench> {
  if (!built.ok) throw new Error(built.error);
  const service: Spawned[] = [];
  const bare: Spawned[] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      // Live status and registry reads are irrelevant to startup; the defaults stay as shipped.
      service.push(await spawnReady(deploymentArgs()));
      bare.push(await spawnReady(["-e", BARE], {}, "/"));
      // The last pair stays up for the idle figure; the others stop before the next spawn.
      if (i < RUNS - 1) await Promise.all([service[i]?.stop(), bare[i]?.stop()]);
    }
    const [s, b] = [service.at(-1), bare.at(-1)];
    if (!s || !b) throw new Error("nothing spawned");
    const ms = (xs: Spawned[], of: (x: Spawned) => number): number[] => xs.map(of);
    return {
      medianMs: median(ms(service, (x) => x.readyMs)),
      maxMs: Math.max(...ms(service, (x) => x.readyMs)),
      baselineMedianMs: median(ms(bare, (x) => x.readyMs)),
      cpuMedianMs: median(ms(service, (x) => x.readyCpu.ns / 1e6)),
      baselineCpuMedianMs: median(ms(bare, (x) => x.readyCpu.ns / 1e6)),
      runs: RUNS,
      idle: await idleUse(s, b),
    };
  } finally {
    await Promise.all([...service, ...bare].map((x) => x.stop()));
  }
}

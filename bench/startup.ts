/**
 * Benchmark: process start to `/readyz` 200 for `node dist/hooks/main.js` (what the image
 * runs), against a baseline started the same way: a bare `node:http` server answering 200.
 */
import { build, deploymentArgs, spawnReady } from "./service";

export interface StartupBench {
  readonly medianMs: number;
  readonly maxMs: number;
  readonly baselineMedianMs: number;
  readonly runs: number;
}

const RUNS = 5;
const BARE = "require('node:http').createServer((q, s) => s.end('ok')).listen(Number(process.env.PORT), '127.0.0.1')";

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

export async function benchStartup(built = build()): Promise<StartupBench> {
  if (!built.ok) throw new Error(built.error);
  const service: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    // Live status and registry reads are irrelevant to startup; the defaults stay as shipped.
    const s = await spawnReady(deploymentArgs());
    service.push(s.readyMs);
    await s.stop();
    const b = await spawnReady(["-e", BARE], {}, "/");
    bare.push(b.readyMs);
    await b.stop();
  }
  return { medianMs: median(service), maxMs: Math.max(...service), baselineMedianMs: median(bare), runs: RUNS };
}

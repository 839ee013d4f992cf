/**
 * Benchmark: POST /sync over loopback with autocannon, the real app against the echo baseline
 * (bench/servers.ts), in alternating rounds so both see the same machine. Body: the sample's
 * sync request with its observed children (bench/request.ts).
 */
import autocannon from "autocannon";
import { sampleSyncRequest } from "./request";
import { startEchoApp, startHookApp, type Running } from "./servers";

export interface HttpFigures {
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

export interface HttpBench {
  readonly app: HttpFigures;
  readonly baseline: HttpFigures;
  readonly ratio: number;
  readonly requestBytes: number;
  readonly connections: number;
  readonly seconds: number;
}

const CONNECTIONS = 8;
const ROUND_SECONDS = 4;
const ROUNDS = 3;

async function load(target: Running, body: string): Promise<autocannon.Result> {
  const result = await autocannon({
    url: `${target.url}/sync`, method: "POST", headers: { "content-type": "application/json" }, body,
    connections: CONNECTIONS, duration: ROUND_SECONDS,
  });
  if (result.errors > 0 || result.timeouts > 0 || result.non2xx > 0) {
    throw new Error(`${target.url}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx answers`);
  }
  return result;
}

/** Totals over the rounds: requests per second overall, latency percentiles averaged. */
function figuresOf(results: readonly autocannon.Result[]): HttpFigures {
  const seconds = results.reduce((s, r) => s + r.duration, 0);
  const mean = (f: (r: autocannon.Result) => number): number => results.reduce((s, r) => s + f(r), 0) / results.length;
  return {
    requestsPerSecond: results.reduce((s, r) => s + r.requests.total, 0) / seconds,
    p50Ms: mean((r) => r.latency.p50),
    p99Ms: mean((r) => r.latency.p99),
  };
}

export async function benchHttp(): Promise<HttpBench> {
  const body = JSON.stringify(sampleSyncRequest());
  const app = await startHookApp(undefined);
  const echo = await startEchoApp();
  try {
    const check = await fetch(`${app.url}/sync`, { method: "POST", headers: { "content-type": "application/json" }, body });
    const answer = (await check.json()) as { status?: { phase?: string } };
    if (check.status !== 200 || answer.status?.phase === "Failed") throw new Error(`/sync answered ${check.status}: ${JSON.stringify(answer.status)}`);
    const appRuns: autocannon.Result[] = [];
    const echoRuns: autocannon.Result[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      appRuns.push(await load(app, body));
      echoRuns.push(await load(echo, body));
    }
    const appFigures = figuresOf(appRuns);
    const baseline = figuresOf(echoRuns);
    return {
      app: appFigures, baseline, ratio: appFigures.requestsPerSecond / baseline.requestsPerSecond,
      requestBytes: Buffer.byteLength(body), connections: CONNECTIONS, seconds: ROUNDS * ROUND_SECONDS,
    };
  } finally {
    await app.close();
    await echo.close();
  }
}

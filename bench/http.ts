/**
 * Benchmark: POST /sync over loopback with autocannon, the real app against the echo baseline
 * (bench/servers.ts), in alternating rounds so both see the same machine. Bodies: the sample's
 * sync request as Metacontroller sends it on a resync (bench/request.ts), in two scenarios:
 *
 * - resync: 100 parents, every one unchanged since its last answer, in turn — the steady state
 *   of a cluster, where the sync memo (lib/sync/memo.ts) answers after the first round;
 * - changed: one parent whose resourceVersion is new on every call, its spec the same (what a
 *   status write or a child event sends) — every call validates, builds and serializes (the
 *   memo's miss path, its cost included); config.yaml is generated once and then reused from the
 *   "generated configs" cache (lib/sync/config-memory.ts).
 */
import autocannon from "autocannon";
import { own } from "../lib/json";
import { sampleSyncRequest, steadyRequestBody, withParentVersion } from "./request";
import { startEchoApp, startHookApp, type Running } from "./servers";

export interface HttpFigures {
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

export interface HttpScenario {
  readonly app: HttpFigures;
  readonly baseline: HttpFigures;
  readonly ratio: number;
}

export interface HttpBench {
  readonly resync: HttpScenario;
  readonly changed: HttpScenario;
  readonly requestBytes: number;
  readonly parents: number;
  readonly connections: number;
  readonly seconds: number;
}

const CONNECTIONS = 8;
const ROUND_SECONDS = 4;
const ROUNDS = 3;
export const RESYNC_PARENTS = 100;

type Requests = autocannon.Request[];
const HEADERS = { "content-type": "application/json" };

async function load(target: Running, requests: Requests): Promise<autocannon.Result> {
  const result = await autocannon({
    url: `${target.url}/sync`,
    method: "POST",
    headers: HEADERS,
    requests,
    connections: CONNECTIONS,
    duration: ROUND_SECONDS,
  });
  if (result.errors > 0 || result.timeouts > 0 || result.non2xx > 0) {
    throw new Error(
      `${target.url}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx answers`,
    );
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

async function scenario(app: Running, echo: Running, requests: () => Requests): Promise<HttpScenario> {
  // One round each unmeasured: the app's miss path runs about 3,000 calls before V8 has optimized it.
  await load(app, requests());
  await load(echo, requests());
  const appRuns: autocannon.Result[] = [];
  const echoRuns: autocannon.Result[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    appRuns.push(await load(app, requests()));
    echoRuns.push(await load(echo, requests()));
  }
  const figures = figuresOf(appRuns);
  const baseline = figuresOf(echoRuns);
  return { app: figures, baseline, ratio: figures.requestsPerSecond / baseline.requestsPerSecond };
}

async function expectSynced(app: Running, body: string): Promise<void> {
  const check = await fetch(`${app.url}/sync`, { method: "POST", headers: HEADERS, body });
  const status = own(await check.json(), "status");
  if (check.status !== 200 || own(status, "phase") === "Failed")
    throw new Error(`/sync answered ${check.status}: ${JSON.stringify(status)}`);
}

export async function benchHttp(): Promise<HttpBench> {
  const text = JSON.stringify(await sampleSyncRequest());
  // Each parent at its own steady state: a resync finds nothing changed, and the memo answers.
  const parents = await Promise.all(
    Array.from({ length: RESYNC_PARENTS }, (_, i) => steadyRequestBody(text, `llsd-${String(i).padStart(3, "0")}`)),
  );
  let version = 1000;
  // A new body per call: the parent's next resourceVersion (the same client work for the echo app).
  const changed = (): Requests => [
    { setupRequest: (req) => ({ ...req, body: withParentVersion(text, String(++version)) }) },
  ];
  const app = await startHookApp(undefined);
  const echo = await startEchoApp();
  try {
    await expectSynced(app, text);
    return {
      resync: await scenario(app, echo, () => parents.map((body) => ({ body }))),
      changed: await scenario(app, echo, changed),
      requestBytes: Buffer.byteLength(text),
      parents: RESYNC_PARENTS,
      connections: CONNECTIONS,
      seconds: ROUNDS * ROUND_SECONDS,
    };
  } finally {
    await app.close();
    await echo.close();
  }
}

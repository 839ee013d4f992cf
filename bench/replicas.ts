/**
 * Benchmark: the recorded /sync traffic through two replicas, as a Kubernetes Service in front
 * of two hooks pods spreads it: in recorded order over CONNECTIONS keep-alive connections,
 * alternating between the two processes (connection 0, 2 → A; 1, 3 → B), requests round-robin
 * over the connections, so each process sees part of each parent's resyncs. Then the steady
 * state, where a cluster spends most of its time: STEADY_ROUNDS rounds of each parent's last
 * request again (every parent once per round, in the order of its first request; the status
 * last answered for it fed back as before), over the same connections, the round-robin going
 * on, one connection further each round: Metacontroller's periodic resync with nothing changed,
 * each parent's resyncs alternating between the two pods. Reported per phase: the sync
 * memo's hit rate over both (their /metrics) and the CPU per /sync call of both processes with
 * the memo on and off, in alternating rounds of fresh processes.
 *
 * The service has no setting for the memo alone (`LLSD_CACHE_MB=0` turns every cache off, the
 * base-config cache too). "Off" is the `--without "sync memo"` comparison of bench/run.ts done
 * inside the spawned service: a preload (`node -r`) makes the policy the service sets at start
 * (lib/caches.ts `setCachePolicy`) leave the memo out; every other cache keeps its share.
 */
import { rmSync, writeFileSync } from "node:fs";
import { Agent } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { reusedOf, callOf } from "./replay";
import { build, deploymentArgs, metricOf, ROOT, send, SERVICE_ENV, spawnReady, type Spawned } from "./service";
import { getPath, own } from "../lib/json";
import { readTraffic, type TrafficRecord } from "./traffic";

export const CONNECTIONS = 4;
export const ROUNDS = 3;
/** Steady-state resync rounds after the recorded sequence: every parent once per round. */
export const STEADY_ROUNDS = 3;

/** One phase of a pass over both processes (one, for the comparison). */
export interface ReplicaPhase {
  readonly cpuMsPerSync: number;
  /** Calls the memo answered, over both processes. */
  readonly reused: number;
  /** /sync calls both processes counted. */
  readonly requests: number;
}

/** The recorded sequence (the top-level figures), then the steady-state resyncs. */
export interface ReplicaPass extends ReplicaPhase {
  /** All STEADY_ROUNDS rounds of resyncs with nothing changed. */
  readonly steady: ReplicaPhase;
  /** The last steady round alone. */
  readonly lastRound: ReplicaPhase;
}

export interface ReplicasBench {
  readonly calls: number;
  readonly connections: number;
  readonly rounds: number;
  /** Parents resent in each steady round, and the rounds. */
  readonly parents: number;
  readonly steadyRounds: number;
  /** Median over the rounds (each phase's own median). */
  readonly memoOn: ReplicaPass;
  readonly memoOff: ReplicaPass;
  /** Over both processes, the status fed back (the figure): recorded phase. */
  readonly hitRate: number;
  /** The same traffic through one process. */
  readonly oneProcessHitRate: number;
  /** Two processes, the bodies as recorded (no status fed back). */
  readonly asRecordedHitRate: number;
  /** Steady phase, two processes: over all steady rounds, and the last round. */
  readonly steadyHitRate: number;
  readonly lastRoundHitRate: number;
  /** Steady phase, one process: over all steady rounds, and the last round. */
  readonly oneProcessSteadyHitRate: number;
  readonly oneProcessLastRoundHitRate: number;
}

/** The preload that turns the sync memo (only) off in a spawned service. */
function memoOffPreload(): string {
  const file = join(tmpdir(), `llsd-bench-memo-off-${process.pid}.js`);
  writeFileSync(
    file,
    `const caches = require(${JSON.stringify(join(ROOT, "dist", "lib", "caches.js"))});
const set = caches.setCachePolicy;
caches.setCachePolicy = (bytes, without = []) => set(bytes, [...without, "sync memo"]);
`,
  );
  return file;
}

const isObject = (v: unknown): v is object => typeof v === "object" && v !== null;

const uidOf = (body: string): unknown => getPath(JSON.parse(body), ["parent", "metadata", "uid"]);

/** How a pass runs: how many processes, the memo-off preload, the answered status fed back. */
interface PassOptions {
  readonly processes: number;
  readonly preload?: string;
  /** Each parent sent with the status the last answer for it gave (as Metacontroller writes it back). */
  readonly feedback: boolean;
  /** Steady rounds after the recorded sequence (STEADY_ROUNDS unless told). */
  readonly steadyRounds?: number;
}

/** Feeds each parent's last answered status back into its next request. */
interface StatusFeedback {
  body(record: TrafficRecord): string;
  answered(record: TrafficRecord, body: string): void;
}

/**
 * The records' bodies with `parent.status` replaced by the status of the previous answer for the
 * same parent; `answered` hears each answer. Without it the recording's status, written by the
 * hooks of the time, differs from what these hooks answer, the answer reads the clock (a
 * condition's transition time) and the memo keeps none.
 */
function statusFeedback(): StatusFeedback {
  const last = new Map<unknown, unknown>();
  return {
    body(record) {
      const request: unknown = JSON.parse(record.body);
      const status = last.get(getPath(request, ["parent", "metadata", "uid"]));
      const parent = own(request, "parent");
      if (status === undefined || !isObject(request) || !isObject(parent)) return record.body;
      return JSON.stringify({ ...request, parent: { ...parent, status } });
    },
    answered(record, body) {
      const status = own(JSON.parse(body), "status");
      if (status !== undefined) last.set(uidOf(record.body), status);
    },
  };
}

/**
 * Each parent's last recorded request, parents in the order of their first request: what a
 * steady round resends (Metacontroller's periodic resync with nothing changed).
 */
export function lastRequests(records: readonly TrafficRecord[]): TrafficRecord[] {
  const last = new Map<unknown, TrafficRecord>();
  for (const record of records) last.set(uidOf(record.body), record); // a Map keeps the first insertion's place
  return [...last.values()];
}

/** The processes of a pass, its connections, the feedback, and the requests sent so far (the round-robin). */
interface Cluster {
  readonly processes: readonly Spawned[];
  readonly agents: readonly Agent[];
  readonly feedback?: StatusFeedback;
  sent: number;
}

/** `records` in order, each on the next connection (round-robin) to that connection's process. */
async function sendAll(cluster: Cluster, records: readonly TrafficRecord[]): Promise<void> {
  const { processes, agents, feedback } = cluster;
  for (const record of records) {
    const i = cluster.sent++ % CONNECTIONS;
    const target = processes[i % processes.length];
    const call = callOf(feedback ? { ...record, body: feedback.body(record) } : record);
    const answer = target ? await send(agents[i] ?? new Agent(), target.url, call) : undefined;
    if (feedback && answer?.status === 200) feedback.answered(record, answer.body);
  }
}

/** CPU (ns), memo answers and /sync calls over the processes of a phase. */
interface Window {
  readonly cpuNs: number;
  /** Requests sent. */
  readonly calls: number;
  readonly reused: number;
  readonly requests: number;
}

async function countsOf(processes: readonly Spawned[]): Promise<{ reused: number; requests: number }> {
  const counts = await Promise.all(
    processes.map(async (p) => [await reusedOf(p.url), await metricOf(p.url, 'llsd_hook_requests_total{hook="sync"')]),
  );
  return {
    // No sample before the first /sync: NaN, none counted.
    reused: counts.reduce((n, [reused]) => n + (reused || 0), 0),
    requests: counts.reduce((n, [, requests]) => n + (requests || 0), 0),
  };
}

/** Sends `records` as `sendAll`; the CPU over the sending only (/metrics read outside it) and the counters' change. */
async function measured(cluster: Cluster, records: readonly TrafficRecord[]): Promise<Window> {
  const cpuNs = (): number => cluster.processes.reduce((n, p) => n + p.cpu().ns, 0);
  const before = await countsOf(cluster.processes);
  const cpuBefore = cpuNs();
  await sendAll(cluster, records);
  const cpuAfter = cpuNs();
  const after = await countsOf(cluster.processes);
  return {
    cpuNs: cpuAfter - cpuBefore,
    calls: records.length,
    reused: after.reused - before.reused,
    requests: after.requests - before.requests,
  };
}

const phaseOf = (w: Window): ReplicaPhase => ({
  cpuMsPerSync: w.cpuNs / 1e6 / w.calls,
  reused: w.reused,
  requests: w.requests,
});

const NO_WINDOW: Window = { cpuNs: 0, calls: 0, reused: 0, requests: 0 };

const sumOf = (windows: readonly Window[]): Window =>
  windows.reduce(
    (a, b) => ({
      cpuNs: a.cpuNs + b.cpuNs,
      calls: a.calls + b.calls,
      reused: a.reused + b.reused,
      requests: a.requests + b.requests,
    }),
    NO_WINDOW,
  );

/** Fresh processes: the recorded sequence, then the steady rounds (each parent's last request again). */
async function replicaPass(records: readonly TrafficRecord[], options: PassOptions): Promise<ReplicaPass> {
  const processes: Spawned[] = [];
  const agents = Array.from({ length: CONNECTIONS }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
  const args = [...(options.preload ? ["-r", options.preload] : []), ...deploymentArgs()];
  const cluster: Cluster = { processes, agents, feedback: options.feedback ? statusFeedback() : undefined, sent: 0 };
  try {
    for (let i = 0; i < options.processes; i++) processes.push(await spawnReady(args, SERVICE_ENV));
    const recorded = await measured(cluster, records);
    const resent = lastRequests(records);
    const steady: Window[] = [];
    for (let round = 0; round < (options.steadyRounds ?? STEADY_ROUNDS); round++) {
      // One connection further each round: a parent's resyncs then alternate between the pods.
      cluster.sent += 1;
      steady.push(await measured(cluster, resent));
    }
    const last = steady.at(-1) ?? NO_WINDOW;
    return { ...phaseOf(recorded), steady: phaseOf(sumOf(steady)), lastRound: phaseOf(last) };
  } finally {
    agents.forEach((a) => a.destroy());
    await Promise.all(processes.map((p) => p.stop()));
  }
}

const NO_PHASE: ReplicaPhase = { cpuMsPerSync: NaN, reused: 0, requests: 0 };

/** The median phase by CPU per call. */
const middle = (phases: readonly ReplicaPhase[]): ReplicaPhase =>
  [...phases].sort((a, b) => a.cpuMsPerSync - b.cpuMsPerSync)[Math.floor(phases.length / 2)] ?? NO_PHASE;

/** Each phase's median over the passes. */
const medianPass = (passes: readonly ReplicaPass[]): ReplicaPass => ({
  ...middle(passes.map(({ cpuMsPerSync, reused, requests }) => ({ cpuMsPerSync, reused, requests }))),
  steady: middle(passes.map((p) => p.steady)),
  lastRound: middle(passes.map((p) => p.lastRound)),
});

const rate = (p: ReplicaPhase): number => p.reused / p.requests;

export async function benchReplicas(built = build()): Promise<ReplicasBench> {
  if (!built.ok) throw new Error(built.error);
  const records = readTraffic("sync");
  const preload = memoOffPreload();
  const on: ReplicaPass[] = [];
  const off: ReplicaPass[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      on.push(await replicaPass(records, { processes: 2, feedback: true }));
      off.push(await replicaPass(records, { processes: 2, preload, feedback: true }));
    }
  } finally {
    rmSync(preload, { force: true });
  }
  const [memoOn, memoOff] = [medianPass(on), medianPass(off)];
  const one = await replicaPass(records, { processes: 1, feedback: true });
  return {
    calls: records.length,
    connections: CONNECTIONS,
    rounds: ROUNDS,
    parents: lastRequests(records).length,
    steadyRounds: STEADY_ROUNDS,
    memoOn,
    memoOff,
    hitRate: rate(memoOn),
    oneProcessHitRate: rate(one),
    asRecordedHitRate: rate(await replicaPass(records, { processes: 2, feedback: false, steadyRounds: 0 })),
    steadyHitRate: rate(memoOn.steady),
    lastRoundHitRate: rate(memoOn.lastRound),
    oneProcessSteadyHitRate: rate(one.steady),
    oneProcessLastRoundHitRate: rate(one.lastRound),
  };
}

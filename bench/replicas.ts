/**
 * Benchmark: the recorded /sync traffic through two replicas, as a Kubernetes Service in front
 * of two hooks pods spreads it: in recorded order over CONNECTIONS keep-alive connections,
 * alternating between the two processes (connection 0, 2 → A; 1, 3 → B), requests round-robin
 * over the connections, so each process sees part of each parent's resyncs. Reported: the sync
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
import { reusedOf, SERVICE_ENV, callOf } from "./replay";
import { build, deploymentArgs, metricOf, ROOT, send, spawnReady, type Spawned } from "./service";
import { getPath, own } from "../lib/conversion/paths";
import { readTraffic, type TrafficRecord } from "./traffic";

export const CONNECTIONS = 4;
export const ROUNDS = 3;

export interface ReplicaPass {
  readonly cpuMsPerSync: number;
  /** Calls the memo answered, over both processes. */
  readonly reused: number;
  /** /sync calls both processes counted. */
  readonly requests: number;
}

export interface ReplicasBench {
  readonly calls: number;
  readonly connections: number;
  readonly rounds: number;
  /** Median over the rounds. */
  readonly memoOn: ReplicaPass;
  readonly memoOff: ReplicaPass;
  /** Over both processes, the status fed back (the figure). */
  readonly hitRate: number;
  /** The same traffic through one process. */
  readonly oneProcessHitRate: number;
  /** Two processes, the bodies as recorded (no status fed back). */
  readonly asRecordedHitRate: number;
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

/** How a pass runs: how many processes, the memo-off preload, the answered status fed back. */
interface PassOptions {
  readonly processes: number;
  readonly preload?: string;
  /** Each parent sent with the status the last answer for it gave (as Metacontroller writes it back). */
  readonly feedback: boolean;
}

/**
 * The records' bodies with `parent.status` replaced by the status of the previous answer for the
 * same parent; `answered` hears each answer. Without it the recording's status, written by the
 * hooks of the time, differs from what these hooks answer, the answer reads the clock (a
 * condition's transition time) and the memo keeps none.
 */
function statusFeedback(): {
  body(record: TrafficRecord): string;
  answered(record: TrafficRecord, body: string): void;
} {
  const last = new Map<unknown, unknown>();
  const uidOf = (request: unknown): unknown => getPath(request, ["parent", "metadata", "uid"]);
  return {
    body(record) {
      const request: unknown = JSON.parse(record.body);
      const status = last.get(uidOf(request));
      const parent = own(request, "parent");
      if (status === undefined || !isObject(request) || !isObject(parent)) return record.body;
      return JSON.stringify({ ...request, parent: { ...parent, status } });
    },
    answered(record, body) {
      const status = own(JSON.parse(body), "status");
      if (status !== undefined) last.set(uidOf(JSON.parse(record.body)), status);
    },
  };
}

async function replicaPass(records: readonly TrafficRecord[], options: PassOptions): Promise<ReplicaPass> {
  const processes: Spawned[] = [];
  const agents = Array.from({ length: CONNECTIONS }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
  const args = [...(options.preload ? ["-r", options.preload] : []), ...deploymentArgs()];
  const feedback = statusFeedback();
  try {
    for (let i = 0; i < options.processes; i++) processes.push(await spawnReady(args, SERVICE_ENV));
    const before = processes.reduce((n, p) => n + p.cpu().ns, 0);
    for (const [i, record] of records.entries()) {
      const target = processes[(i % CONNECTIONS) % processes.length];
      const call = callOf(options.feedback ? { ...record, body: feedback.body(record) } : record);
      const answer = target ? await send(agents[i % CONNECTIONS] ?? new Agent(), target.url, call) : undefined;
      if (options.feedback && answer?.status === 200) feedback.answered(record, answer.body);
    }
    const cpuNs = processes.reduce((n, p) => n + p.cpu().ns, 0) - before;
    const counts = await Promise.all(
      processes.map(async (p) => [
        await reusedOf(p.url),
        await metricOf(p.url, 'llsd_hook_requests_total{hook="sync"'),
      ]),
    );
    return {
      cpuMsPerSync: cpuNs / 1e6 / records.length,
      reused: counts.reduce((n, [reused]) => n + (reused ?? 0), 0),
      requests: counts.reduce((n, [, requests]) => n + (requests ?? 0), 0),
    };
  } finally {
    agents.forEach((a) => a.destroy());
    await Promise.all(processes.map((p) => p.stop()));
  }
}

const middle = (passes: ReplicaPass[]): ReplicaPass =>
  [...passes].sort((a, b) => a.cpuMsPerSync - b.cpuMsPerSync)[Math.floor(passes.length / 2)] ?? {
    cpuMsPerSync: NaN,
    reused: 0,
    requests: 0,
  };

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
  const rate = (p: ReplicaPass): number => p.reused / p.requests;
  return {
    calls: records.length,
    connections: CONNECTIONS,
    rounds: ROUNDS,
    memoOn: middle(on),
    memoOff: middle(off),
    hitRate: rate(middle(on)),
    oneProcessHitRate: rate(await replicaPass(records, { processes: 1, feedback: true })),
    asRecordedHitRate: rate(await replicaPass(records, { processes: 2, feedback: false })),
  };
}

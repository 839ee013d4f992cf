/**
 * The service as the hooks Deployment runs it: the container's `command` from
 * metacontroller/base/deployment.yaml (node, its flags, `dist/hooks/main.js` built by
 * `npm run build`) in a child process on a free loopback port, for the startup and memory figures.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { request, type Agent } from "node:http";
import { createServer } from "node:net";
import { join } from "node:path";
import { parseAllDocuments } from "yaml";
import { getPath, own } from "../lib/json";

export const ROOT = join(__dirname, "..");
export const MAIN = "dist/hooks/main.js";
const DEPLOYMENT = "metacontroller/base/deployment.yaml";

/** The service's settings in the benchmarks: registry reads and calls to the running servers off (neither exists here). */
export const SERVICE_ENV = Object.freeze({ LLSD_READ_IMAGE_LABELS: "false", LLSD_LIVE_STATUS: "false" });

/**
 * The node binary the spawned processes (service and baselines alike) run: `LLSD_BENCH_NODE`,
 * else this one. The image runs another Node major than a development machine may have
 * (docs/development.md, "Benchmarks on the image's Node").
 */
export function spawnedNode(env: NodeJS.ProcessEnv = process.env): string {
  const given = env.LLSD_BENCH_NODE;
  return given !== undefined && given !== "" ? given : process.execPath;
}

/** This process's Node, and the spawned processes' when `LLSD_BENCH_NODE` names another. */
export function nodeOf(own: string, spawned: string): string {
  return spawned === own ? own : `${own} in process; ${spawned} for the spawned service and baselines`;
}

/** `node --version` of the spawned processes' binary (`v24.21.0`). */
export function spawnedNodeVersion(env: NodeJS.ProcessEnv = process.env): string {
  const node = spawnedNode(env);
  if (node === process.execPath) return process.version;
  const result = spawnSync(node, ["--version"], { encoding: "utf8" });
  if (result.status !== 0)
    throw new Error(`LLSD_BENCH_NODE=${node}: \`--version\` failed (${result.error?.message ?? result.stderr})`);
  return result.stdout.trim();
}

/** Node's arguments in the hooks Deployment's `command` (flags, then MAIN). */
export function deploymentArgs(): string[] {
  const docs = parseAllDocuments(readFileSync(join(ROOT, DEPLOYMENT), "utf8")).map((d) => {
    const value: unknown = d.toJS();
    return value;
  });
  const containers = getPath(
    docs.find((d) => own(d, "kind") === "Deployment"),
    ["spec", "template", "spec", "containers"],
  );
  const hooks: unknown = Array.isArray(containers) ? containers.find((c) => own(c, "name") === "hooks") : undefined;
  const command = stringList(own(hooks, "command"));
  if (command?.[0] !== "node" || command.at(-1) !== MAIN)
    throw new Error(`${DEPLOYMENT}: the hooks container's command is not node … ${MAIN}: ${JSON.stringify(command)}`);
  return command.slice(1);
}

/** The hooks container's memory limit in bytes (`resources.limits.memory`, in Mi). */
export function deploymentMemoryLimitBytes(): number {
  const text = readFileSync(join(ROOT, DEPLOYMENT), "utf8");
  const limit = /limits:\s*\n\s*memory:\s*(\d+)Mi/.exec(text)?.[1];
  if (limit === undefined) throw new Error(`${DEPLOYMENT}: no memory limit in Mi`);
  return Number(limit) * 2 ** 20;
}

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((v) => typeof v === "string") ? value : undefined;
}

/** `npm run build`; the error output when it fails. */
export function build(): { ok: true } | { ok: false; error: string } {
  const run = spawnSync("npm", ["run", "-s", "build"], { cwd: ROOT, encoding: "utf8" });
  return run.status === 0
    ? { ok: true }
    : {
        ok: false,
        error: `npm run build failed: ${(run.stdout + run.stderr).trim().split("\n").slice(0, 5).join(" / ")}`,
      };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

/** Status of GET `url`, or 0 when nothing answers yet. */
export function statusOf(url: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request(url, { agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", () => resolve(0));
    req.end();
  });
}

/** One HTTP call as a recording holds it; `headers` as sent (the caller sets content-length). */
export interface Call {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string | number>>;
  readonly body: string;
}

/** Sends `call` to `url` on `agent`; status 0 and the error's message when the connection fails. */
export function send(agent: Agent, url: string, call: Call): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const req = request(`${url}${call.path}`, { method: call.method, agent, headers: call.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
    });
    req.on("error", (error) => resolve({ status: 0, body: error.message }));
    req.end(call.body);
  });
}

/** POST `body` to `url`/sync; status 0 and the error's message when the connection fails. */
export function postSync(agent: Agent, url: string, body: string): Promise<{ status: number; body: string }> {
  const headers = { "content-type": "application/json", "content-length": Buffer.byteLength(body) };
  return send(agent, url, { method: "POST", path: "/sync", headers, body });
}

/** The sum of the samples of `url`/metrics whose line starts with `prefix` (a name, labels in part); NaN when none. */
export async function metricOf(url: string, prefix: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const values = text
    .split("\n")
    .filter((line) => line.startsWith(prefix))
    .map((line) => Number(line.slice(line.lastIndexOf(" ") + 1)));
  return values.length === 0 ? NaN : values.reduce((a, b) => a + b, 0);
}

/** CPU a process has used and how often its threads gave the CPU up (waited: a wakeup each). */
export interface CpuUse {
  /** Nanoseconds on a CPU, every live thread (GC and the libuv pool included). */
  readonly ns: number;
  /** Voluntary context switches of every live thread. */
  readonly wakeups: number;
}

const TICK_NS = 1e9 / 100; // USER_HZ: /proc/<pid>/stat counts in 1/100 s

/** From /proc: per-thread schedstat (ns), else the process's utime + stime ticks; zeros once gone. */
export function cpuOf(pid: number | undefined): CpuUse {
  const task = `/proc/${pid ?? 0}/task`;
  let threads: string[];
  try {
    threads = readdirSync(task);
  } catch {
    return { ns: 0, wakeups: 0 };
  }
  const read = (file: string): string => {
    try {
      return readFileSync(file, "utf8");
    } catch {
      return ""; // the thread ended meanwhile
    }
  };
  const sum = (xs: number[]): number => xs.reduce((a, b) => a + (Number.isFinite(b) ? b : 0), 0);
  const ns = sum(threads.map((t) => Number(read(`${task}/${t}/schedstat`).split(" ")[0])));
  const wakeups = sum(
    threads.map((t) => Number(/voluntary_ctxt_switches:\s+(\d+)/.exec(read(`${task}/${t}/status`))?.[1])),
  );
  if (ns > 0) return { ns, wakeups };
  const stat = read(`/proc/${pid ?? 0}/stat`);
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // utime and stime: fields 14 and 15
  return { ns: (Number(fields[11]) + Number(fields[12])) * TICK_NS, wakeups };
}

export interface Spawned {
  readonly child: ChildProcess;
  readonly url: string;
  /** Milliseconds from spawn to the first 200 from `readyPath`. */
  readonly readyMs: number;
  /** The CPU it had used by then. */
  readonly readyCpu: CpuUse;
  /** Resident set size now and its peak so far (Linux /proc); 0 once the process is gone. */
  rssBytes(): { readonly now: number; readonly peak: number };
  /** Its CPU so far (Linux /proc). */
  cpu(): CpuUse;
  /** Its exit code or signal once it exited, else undefined. */
  exitReason(): string | undefined;
  /**
   * Ends it: SIGKILL by default; another signal lets it exit on its own (a `--cpu-prof` process
   * writes its profile on exit), SIGKILL after 30 s.
   */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

function rssOf(pid: number | undefined): { now: number; peak: number } {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid ?? 0}/status`, "utf8");
  } catch {
    return { now: 0, peak: 0 }; // gone
  }
  const kb = (field: string): number => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN) * 1024;
  return { now: kb("VmRSS"), peak: kb("VmHWM") };
}

/** Spawns `node args` with PORT set, polls `readyPath` every 2 ms (60 s at most: on a shared machine under load a start took more than 30). */
export async function spawnReady(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
  readyPath = "/readyz",
): Promise<Spawned> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(spawnedNode(), args, {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: "ignore",
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let readyMs = -1;
  let readyCpu: CpuUse = { ns: 0, wakeups: 0 };
  while (readyMs < 0) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`node ${args.join(" ")} exited (${child.exitCode ?? child.signalCode}) before it was ready`);
    if (performance.now() - started > 60_000) {
      child.kill("SIGKILL");
      throw new Error(`node ${args.join(" ")} was not ready within 60 s`);
    }
    if ((await statusOf(`${url}${readyPath}`)) === 200) {
      readyMs = performance.now() - started;
      readyCpu = cpuOf(child.pid);
    } else await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return {
    child,
    url,
    readyMs,
    readyCpu,
    rssBytes: () => rssOf(child.pid),
    cpu: () => cpuOf(child.pid),
    exitReason: () =>
      child.exitCode === null && child.signalCode === null ? undefined : String(child.exitCode ?? child.signalCode),
    stop: async (signal = "SIGKILL") => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      const late = signal === "SIGKILL" ? undefined : setTimeout(() => child.kill("SIGKILL"), 30_000);
      await exited;
      clearTimeout(late);
    },
  };
}

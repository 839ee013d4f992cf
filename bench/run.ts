/**
 * `npm run bench`: bounded benchmarks on loopback (about 15 minutes on a quiet machine). Each figure runs beside
 * a baseline in the same run, so the ratio holds on a noisy machine, and the time budgets are
 * ratios to that baseline (an absolute time on a shared machine is not stable). Prints a markdown table,
 * writes it into BENCHMARKS.md and the figures into bench/results.json; `--check` exits 1
 * when a budget is missed (or a figure could not be measured).
 *
 * A cache's gain (docs/development.md, "Caches"): `--without "sync memo"` runs with that cache
 * off (lib/caches.ts), `--only sync,http` runs only those sections; either prints the table
 * without rewriting BENCHMARKS.md.
 *
 * Profiling the service on the recorded traffic: `--only replay --cpu-prof DIR` runs each replayed
 * service process with node's `--cpu-prof` (profiles in DIR/<endpoint>/), `--endpoint validate,sync`
 * replays only those endpoints (either leaves the two-replicas figure out), `--pairs N` runs N
 * process pairs per endpoint instead of PROCESS_PAIRS; `npx tsx bench/profile.ts DIR/validate --from 0.5`
 * prints the top frames.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, release, totalmem } from "node:os";
import { join, resolve } from "node:path";
import { messageOf } from "../lib/errors";
import { benchBurst, BURST } from "./burst";
import { benchCacheGain, type CacheGain } from "./cache-gain";
import { benchGenerate } from "./generate";
import { benchHttp, RESYNC_PARENTS, type HttpScenario } from "./http";
import { CACHE_BUDGET_MB, CACHE_SHARES, type CacheName } from "../lib/caches";
import { builtCaches } from "./built";
import { benchLargeMemory, benchMemory, CACHE_BOUNDS, LARGE_PARENTS, PARENTS } from "./memory";
import { profileSection } from "./profile";
import { build, deploymentArgs, MAIN, nodeOf, ROOT, spawnedNodeVersion } from "./service";
import {
  benchReplay,
  PASSES,
  PROCESS_PAIRS,
  REPLAY_BUDGET,
  REPLAY_BUDGET_BASIS,
  STEADY,
  STEADY_EVIDENCE,
  WARM,
  type EndpointReplay,
} from "./replay";
import { benchReplicas, CONNECTIONS, ROUNDS, STEADY_ROUNDS, type ReplicaPhase, type ReplicasBench } from "./replicas";
import { benchStartup, IDLE_SECONDS } from "./startup";
import type { Timing } from "./stats";
import { benchSync, benchWithout } from "./sync";
import { ENDPOINTS, type Endpoint } from "./traffic";

/**
 * Ratios are to the same run's baseline: generate ≤ 0.1× a YAML parse + stringify of the base
 * config; one full sync ≤ 2× the JSON round trip of its own request; over HTTP, the memo's
 * resync ≥ 0.8× and a changed parent's full sync ≥ 0.5× the parse-and-echo app's rate.
 */
const BUDGET = { generateRatio: 0.1, syncRatio: 2, resyncRatio: 0.8, changedRatio: 0.5, rssMb: 200, startupMs: 1000 };

/** `--without NAME` (repeatable) and `--only a,b`: a comparison run (lib/caches.ts names). */
function option(name: string): string[] {
  return process.argv.flatMap((arg, i) => (arg === name ? [process.argv[i + 1] ?? ""] : []));
}
const WITHOUT = option("--without").filter((n): n is CacheName => Object.hasOwn(CACHE_SHARES, n));
const ONLY = option("--only").flatMap((list) => list.split(","));
const CPU_PROF = option("--cpu-prof").map((dir) => resolve(dir))[0];
const REPLAYED = option("--endpoint")
  .flatMap((list) => list.split(","))
  .filter((e): e is Endpoint => (ENDPOINTS as readonly string[]).includes(e));
const PAIRS = option("--pairs")
  .map(Number)
  .find((n) => Number.isInteger(n) && n > 0);
const comparison =
  WITHOUT.length > 0 || ONLY.length > 0 || CPU_PROF !== undefined || REPLAYED.length > 0 || PAIRS !== undefined;
const runs = (name: string): boolean => ONLY.length === 0 || ONLY.includes(name);

interface Row {
  readonly figure: string;
  readonly measured: string;
  readonly baseline: string;
  readonly ratio: string;
  readonly budget: string;
  /** undefined: reported only. */
  readonly pass?: boolean;
}

const ms = (n: number): string => (n < 10 ? `${n.toFixed(3)} ms` : `${Math.round(n)} ms`);
const timing = (t: Timing): string => `median ${ms(t.median)}, p99 ${ms(t.p99)}`;
const fixed = (n: number, digits = 2): string => n.toFixed(digits);

const results: { [figure: string]: unknown } = {};

/** What the results are measured on, for the report's first line. */
interface Machine {
  readonly cpus: string;
  readonly memoryGb: number;
  readonly os: string;
  readonly node: string;
  readonly loadAverageAtStart: string;
}

type BuildResult = ReturnType<typeof build>;
const rows: Row[] = [];

/** Runs one benchmark; a failure becomes a failed row instead of stopping the others. */
async function section<T>(name: string, run: () => T | Promise<T>, toRows: (value: T) => Row[]): Promise<void> {
  process.stderr.write(`bench: ${name}…\n`);
  const started = performance.now();
  try {
    const value = await run();
    results[name] = value;
    rows.push(...toRows(value));
  } catch (err) {
    const message = messageOf(err).split("\n")[0] ?? "";
    results[name] = { error: message };
    rows.push({ figure: name, measured: `not measured: ${message}`, baseline: "", ratio: "", budget: "", pass: false });
  }
  process.stderr.write(`bench: ${name} done in ${fixed((performance.now() - started) / 1000, 1)} s\n`);
}

function generateSection(): Promise<void> {
  return section(
    "generate",
    () => benchGenerate(),
    ({ generate, render, baseline }) => [
      {
        figure: "generate config.yaml, full sample (in process)",
        measured: timing(generate),
        baseline: `YAML parse + stringify of the starter base config: ${timing(baseline)}`,
        ratio: fixed(generate.median / baseline.median, 3),
        budget: `median ratio ≤ ${BUDGET.generateRatio}`,
        pass: generate.median / baseline.median <= BUDGET.generateRatio,
      },
      {
        figure: "validate + generate (render), same sample",
        measured: timing(render),
        baseline: "",
        ratio: "",
        budget: "(reported)",
      },
    ],
  );
}

function syncSection(): Promise<void> {
  return section(
    "sync",
    () => benchSync(),
    ({ sync, baseline, remembered, requestBytes }) => [
      {
        figure: "one sync in process: validate, normalize, generate, children, status",
        measured: timing(sync),
        baseline: `JSON.parse + JSON.stringify of the same ${fixed(requestBytes / 1024, 1)} KB request: ${timing(baseline)}`,
        ratio: fixed(sync.median / baseline.median),
        budget: `median ratio ≤ ${BUDGET.syncRatio}`,
        pass: sync.median / baseline.median <= BUDGET.syncRatio,
      },
      {
        figure: "the same request through the sync memo, parent unchanged (in process)",
        measured: timing(remembered),
        baseline: "the JSON round trip above",
        ratio: fixed(remembered.median / baseline.median),
        budget: "(reported)",
      },
    ],
  );
}

/** The caches keyed by ConfigMap version, measured on the recorded traffic (bench/cache-gain.ts). */
const VERSION_CACHES = ["CA certificates", "override configs"] as const satisfies readonly CacheName[];

function cachesSection(): Promise<void> {
  return section(
    "caches",
    async () => {
      const base = await benchWithout("base configs");
      // One at a time: the cache policy is the process's.
      const byVersion: { name: CacheName; gain: CacheGain }[] = [];
      for (const name of VERSION_CACHES) byVersion.push({ name, gain: await benchCacheGain(name) });
      return { base, byVersion };
    },
    ({ base, byVersion }) => [
      {
        figure: "one sync in process without the base-config cache (each sync parses and checks the base config)",
        measured: timing(base.without),
        baseline: `the same with it: ${timing(base.with)}`,
        ratio: fixed(base.without.median / base.with.median),
        budget: "(reported: the cache's gain)",
      },
      ...byVersion.map(({ name, gain }) => ({
        figure: `the ${gain.calls} recorded /sync requests in process without the "${name}" cache (${ROUNDS_NOTE})`,
        measured: `${fixed(gain.withoutUs / 1000, 3)} ms CPU per call`,
        baseline: `the same with it: ${fixed(gain.withUs / 1000, 3)} ms`,
        ratio: `${fixed(gain.ratio)} (rounds ${fixed(gain.lowest)}–${fixed(gain.highest)})`,
        budget: "(reported: the cache's gain)",
      })),
    ],
  );
}

const ROUNDS_NOTE = "with and without it in alternating rounds, the median of each pair's ratio";

function largeMemorySection(built: BuildResult): Promise<void> {
  return section(
    "large",
    () => benchLargeMemory(built),
    ({ idleRssMb, finalRssMb, maxRssMb, peakRssMb, answered, wrong, died }) => [
      {
        figure: `RSS of node ${deploymentArgs().join(" ")} after ${LARGE_PARENTS.toLocaleString("en")} large parents (1 MiB settings, 0.9 MiB overrideConfig and CA-bundle ConfigMaps in turn, all distinct; 4 at a time)`,
        measured: `${died ? `died (${died}); ` : ""}${Math.round(finalRssMb)} MB (highest after an answer ${Math.round(maxRssMb)} MB; peak ${Math.round(peakRssMb)} MB); ${answered.toLocaleString("en")} answers right${wrong.length > 0 ? `, first wrong: ${wrong[0]}` : ""}`,
        baseline: `same process idle after start: ${Math.round(idleRssMb)} MB`,
        ratio: fixed(finalRssMb / idleRssMb),
        budget: `peak ≤ ${BUDGET.rssMb} MB, every answer right`,
        pass: died === undefined && peakRssMb <= BUDGET.rssMb && answered === LARGE_PARENTS,
      },
    ],
  );
}

function httpSection(): Promise<void> {
  return section(
    "http",
    () => benchHttp(),
    ({ resync, changed, requestBytes, parents, connections, seconds }) => {
      const load = `autocannon, ${connections} connections, ${seconds} s each, ${fixed(requestBytes / 1024, 1)} KB bodies`;
      const rate = (x: HttpScenario): Pick<Row, "measured" | "baseline" | "ratio"> => ({
        measured: `${Math.round(x.app.requestsPerSecond)} req/s (p50 ${ms(x.app.p50Ms)}, p99 ${ms(x.app.p99Ms)})`,
        baseline: `parse-and-echo Express app: ${Math.round(x.baseline.requestsPerSecond)} req/s (p50 ${ms(x.baseline.p50Ms)}, p99 ${ms(x.baseline.p99Ms)})`,
        ratio: fixed(x.ratio),
      });
      return [
        {
          figure: `POST /sync, resync: ${parents} unchanged parents in turn (${load}); the sync memo answers`,
          ...rate(resync),
          budget: `ratio ≥ ${BUDGET.resyncRatio}`,
          pass: resync.ratio >= BUDGET.resyncRatio,
        },
        {
          figure: `POST /sync, changed: one parent with a new resourceVersion on every call (${load}); validated and built every time, its config.yaml generated once (the spec stays the same, as after a status write)`,
          ...rate(changed),
          budget: `ratio ≥ ${BUDGET.changedRatio}`,
          pass: changed.ratio >= BUDGET.changedRatio,
        },
      ];
    },
  );
}

function burstSection(): Promise<void> {
  return section(
    "burst",
    () => benchBurst(),
    ({ app, baseline, fetches, fromLabels }) => {
      const pass = app.ok === BURST && fromLabels === BURST && fetches.manifest === 1 && fetches.blob === 1;
      return [
        {
          figure: `burst: ${BURST} distinct parents, one uncached image (real registry), all at once`,
          measured: `${app.ok}/${BURST} answered 200 (${fromLabels} from the image's labels); registry: ${fetches.manifest} manifest + ${fetches.blob} config fetch; p50 ${ms(app.p50Ms)}, p99 ${ms(app.p99Ms)}`,
          baseline: `echo: p50 ${ms(baseline.p50Ms)}, p99 ${ms(baseline.p99Ms)}`,
          ratio: fixed(app.p99Ms / baseline.p99Ms),
          budget: "every answer 200, 1 manifest + 1 config fetch",
          pass,
        },
      ];
    },
  );
}

function memorySection(built: BuildResult): Promise<void> {
  return section(
    "memory",
    () => benchMemory(built),
    ({ idleRssMb, halfwayRssMb, finalRssMb, peakRssMb, heapUsedMb, images }) => [
      {
        figure: `RSS of node ${deploymentArgs().join(" ")} after ${PARENTS.toLocaleString("en")} distinct parents (${images} images)`,
        measured: `${Math.round(finalRssMb)} MB (after ${(PARENTS / 2).toLocaleString("en")}: ${Math.round(halfwayRssMb)} MB; peak ${Math.round(peakRssMb)} MB; V8 heap in use ${Math.round(heapUsedMb)} MB)`,
        baseline: `same process idle after start: ${Math.round(idleRssMb)} MB`,
        ratio: fixed(finalRssMb / idleRssMb),
        budget: `≤ ${BUDGET.rssMb} MB`,
        pass: finalRssMb <= BUDGET.rssMb,
      },
    ],
  );
}

function startupSection(built: BuildResult): Promise<void> {
  return section(
    "startup",
    () => benchStartup(built),
    ({ medianMs, maxMs, baselineMedianMs, cpuMedianMs, baselineCpuMedianMs, runs, idle }) => [
      {
        figure: `startup: spawn of node ${deploymentArgs().join(" ")} to /readyz 200 (${runs} runs)`,
        measured: `median ${ms(medianMs)} (max ${ms(maxMs)}); process CPU by then: median ${ms(cpuMedianMs)}`,
        baseline: `bare node:http server: median ${ms(baselineMedianMs)}; CPU ${ms(baselineCpuMedianMs)}`,
        ratio: fixed(medianMs / baselineMedianMs),
        budget: `median ≤ ${BUDGET.startupMs} ms`,
        pass: medianMs <= BUDGET.startupMs,
      },
      {
        figure: `idle: the same process for ${idle.seconds} s after ready, no request; process CPU and wakeups (voluntary context switches, every thread)`,
        measured: `${ms(idle.cpuMs)} CPU, ${idle.wakeups} wakeups`,
        baseline: `bare node:http server: ${ms(idle.baselineCpuMs)} CPU, ${idle.baselineWakeups} wakeups`,
        ratio: idle.baselineCpuMs > 0 ? fixed(idle.cpuMs / idle.baselineCpuMs) : "",
        budget: "(reported)",
      },
    ],
  );
}

function replayRow(r: EndpointReplay): Row {
  const statuses = `answers: ${r.mismatches} of ${r.calls} not the recorded status (${r.registryMismatches} registry-dependent)${r.cut > 0 ? `, ${r.cut} recorded cut` : ""}${r.failed > 0 ? `, ${r.failed} not 2xx` : ""}`;
  const memo = r.endpoint === "sync" ? `; the sync memo answered ${r.coldReused} of the cold pass` : "";
  const ratios = (xs: readonly number[]): string => xs.map((x) => fixed(x)).join(", ");
  return {
    figure: `replay POST /${r.endpoint}: ${r.calls} recorded requests (avg ${fixed(r.avgBodyBytes / 1024, 1)} KB), one at a time on one keep-alive connection; process CPU per call`,
    measured: `steady ${ms(r.steadyMs)} (warm ${ms(r.warmMs)}, cold ${ms(r.coldMs)}); ${statuses}${memo}; steady ratio of each of the ${r.pairRatios.length} process pairs: ${ratios(r.pairRatios)}, warm: ${ratios(r.pairWarmRatios)} (the median pair shown)`,
    baseline: `echo app: steady ${ms(r.echoSteadyMs)} (warm ${ms(r.echoWarmMs)}, cold ${ms(r.echoColdMs)})`,
    ratio: `${fixed(r.ratio)} (warm ${fixed(r.warmRatio)})`,
    budget: `steady ratio ≤ ${r.budget}, answers 2xx as recorded`,
    pass: r.pass,
  };
}

function replicasRow(r: ReplicasBench): Row {
  const pct = (n: number): string => `${fixed(100 * n, 0)} %`;
  const answered = (p: ReplicaPhase): string => `${p.reused} of ${p.requests}`;
  const rate = (p: ReplicaPhase): string => pct(p.reused / p.requests);
  const cpu = (on: ReplicaPhase, off: ReplicaPhase): string =>
    `CPU per call ${fixed(on.cpuMsPerSync, 3)} ms vs ${fixed(off.cpuMsPerSync, 3)} ms without the memo (${fixed(on.cpuMsPerSync / off.cpuMsPerSync)})`;
  const { memoOn: on, memoOff: off } = r;
  return {
    figure: `two replicas: the ${r.calls} recorded /sync requests in order over ${r.connections} keep-alive connections alternating between 2 service processes, each parent sent with the status last answered for it; then ${r.steadyRounds} steady rounds resending each of the ${r.parents} parents' last request the same way (a resync with nothing changed); median of ${r.rounds} rounds; the sync memo's hit rate and process CPU per /sync call`,
    measured: `recorded: memo answered ${answered(on)} (${rate(on)}; one process ${pct(r.oneProcessHitRate)}, bodies as recorded ${pct(r.asRecordedHitRate)}), ${cpu(on, off)}; steady resyncs (${r.steadyRounds} rounds × ${r.parents} parents): memo answered ${answered(on.steady)} (${rate(on.steady)}; last round ${answered(on.lastRound)}, ${rate(on.lastRound)}; one process ${pct(r.oneProcessSteadyHitRate)}, last round ${pct(r.oneProcessLastRoundHitRate)}), ${cpu(on.steady, off.steady)}`,
    baseline: `memo off, every other cache on: recorded ${fixed(off.cpuMsPerSync, 3)} ms, steady ${fixed(off.steady.cpuMsPerSync, 3)} ms per call`,
    ratio: `recorded ${fixed(on.cpuMsPerSync / off.cpuMsPerSync)}, steady ${fixed(on.steady.cpuMsPerSync / off.steady.cpuMsPerSync)}`,
    budget: "(reported: the memo's gain)",
  };
}

function replaySection(built: BuildResult): Promise<void> {
  return section(
    "replay",
    async () => {
      // A profiling or one-endpoint run is about the replayed endpoints: no two-replicas figure.
      const partial = CPU_PROF !== undefined || REPLAYED.length > 0;
      const options = {
        ...(REPLAYED.length > 0 ? { endpoints: REPLAYED } : {}),
        ...(PAIRS === undefined ? {} : { pairs: PAIRS }),
        cpuProfDir: CPU_PROF,
      };
      const endpoints = await benchReplay(built, options);
      return { endpoints, replicas: partial ? undefined : await benchReplicas(built) };
    },
    ({ endpoints, replicas }) => [...endpoints.map(replayRow), ...(replicas ? [replicasRow(replicas)] : [])],
  );
}

/** Prints the table and writes bench/results.json and BENCHMARKS.md; the number of budgets missed. */
function report({ machine, command, started }: { machine: Machine; command: string; started: number }): number {
  const failed = rows.filter((r) => r.pass === false).length;
  const header = [
    `Machine: ${machine.cpus}, ${machine.memoryGb} GB, ${machine.os}; Node ${machine.node}; load average at start ${machine.loadAverageAtStart}`,
    `Command: \`${command}\` (${fixed((performance.now() - started) / 1000, 0)} s); ${new Date().toISOString()}`,
  ];
  const table = [
    "| figure | measured | baseline (same run) | ratio | budget | result |",
    "|---|---|---|---|---|---|",
    ...rows.map(
      (r) =>
        `| ${[r.figure, r.measured, r.baseline, r.ratio, r.budget, r.pass === undefined ? "" : r.pass ? "pass" : "**FAIL**"].join(" | ")} |`,
    ),
  ];
  console.log(
    [...header, "", ...table, "", `${failed === 0 ? "All budgets met." : `${failed} budget(s) missed.`}`].join("\n"),
  );
  if (comparison) return failed; // a comparison run: the table is printed, the latest full run kept
  writeFileSync(
    join(ROOT, "bench", "results.json"),
    `${JSON.stringify({ date: new Date().toISOString(), command, machine, budgets: { ...BUDGET, replay: REPLAY_BUDGET }, rows, figures: results, cacheBounds: CACHE_BOUNDS }, null, 2)}\n`,
  );
  writeFileSync(join(ROOT, "BENCHMARKS.md"), benchmarksMd(header, table));
  return failed;
}

function machineOf(): Machine {
  return {
    cpus: `${cpus().length} × ${cpus()[0]?.model.trim() ?? "cpu"}`,
    memoryGb: Math.round(totalmem() / 2 ** 30),
    os: `${process.platform} ${release()}`,
    node: nodeOf(process.version, spawnedNodeVersion()),
    loadAverageAtStart: loadavg()
      .map((l) => fixed(l))
      .join(" "),
  };
}

async function main(): Promise<void> {
  const machine = machineOf();
  const command = ["npm run bench", ...(process.argv.length > 2 ? ["--", ...process.argv.slice(2)] : [])].join(" ");
  const started = performance.now();

  // Built once, when the first section that runs the service's code runs.
  let builtOnce: BuildResult | undefined;
  const built = (): BuildResult => {
    if (builtOnce) return builtOnce;
    builtOnce = results.build = build();
    if (builtOnce.ok && WITHOUT.length > 0) builtCaches().setCachePolicy(CACHE_BUDGET_MB * 2 ** 20, WITHOUT);
    return builtOnce;
  };
  /** An in-process section: it runs the built code (bench/built.ts), so the build comes first. */
  const inProcess = (run: () => Promise<void>) => (): Promise<void> => {
    const build = built();
    return build.ok
      ? run()
      : section(
          "build",
          () => Promise.reject(new Error(build.error)),
          () => [],
        );
  };
  const sections: [string, () => Promise<void>][] = [
    ["generate", inProcess(generateSection)],
    ["sync", inProcess(syncSection)],
    // The cache's gain is measured against the whole policy; a comparison run has changed it.
    ...(WITHOUT.length === 0 ? [["caches", inProcess(cachesSection)] as [string, () => Promise<void>]] : []),
    ["http", inProcess(httpSection)],
    ["burst", inProcess(burstSection)],
    ["memory", () => memorySection(built())],
    ["large", () => largeMemorySection(built())],
    ["startup", () => startupSection(built())],
    ["replay", () => replaySection(built())],
  ];
  for (const [name, run] of sections) if (runs(name)) await run();

  const failed = report({ machine, command, started });
  if (process.argv.includes("--check") && failed > 0) process.exitCode = 1;
}

/** What the spawned-process figures measure (bench/startup.ts, bench/replay.ts, bench/replicas.ts), for BENCHMARKS.md. */
function processFiguresMd(): string {
  return `- **startup** (\`bench/startup.ts\`): spawn of the same command to the first 200 from \`/readyz\`
  (polled every 2 ms), against a bare \`node:http\` server spawned and polled the same way;
  beside it the process CPU spent by then (from \`/proc\`, as for **replay**). **idle**: the
  last service and bare server left alone side by side for ${IDLE_SECONDS} s, from a second after ready: the CPU
  each spends and its wakeups (voluntary context switches summed over its threads: a thread
  woken by a timer or an event). Reported, no budget.
- **replay** (\`bench/replay.ts\`): the recorded hook traffic in \`bench/traffic/\` (its README:
  Metacontroller v4.16.7 and kube-apiserver v1.32 driving 200 LLSDs of 12 variants, Secrets
  faked, a subset keeping every kind of request) sent to \`node ${deploymentArgs().join(" ")}\`
  (\`LLSD_READ_IMAGE_LABELS=false\`, \`LLSD_LIVE_STATUS=false\`; without TLS files PORT serves all
  four routes) and to an Express echo app (\`express.json\` with the service's 8 MB limit,
  answering the parsed body) spawned the same way; ${PROCESS_PAIRS} fresh pairs of processes per
  endpoint, one after another, and the row shows the pair with the median steady ratio beside
  every pair's steady and warm ratios.
  Each record's method, path, headers (without \`host\`, \`content-length\` the body's bytes)
  and body, one at a time on one keep-alive connection, as Metacontroller's Go client sends.
  The figure is process CPU per call, read from outside: the first field of
  \`/proc/<pid>/task/*/schedstat\` (nanoseconds on a CPU) summed over the threads, GC and the
  libuv pool included (utime + stime ticks where schedstat is missing), its change over a pass
  divided by the calls; ${PASSES} passes per process, service and echo alternating. **cold**: the
  fresh process's first pass; **warm**: the median of passes ${WARM.from}–${WARM.to}, where V8 is still
  compiling both apps; **steady**: the median of passes ${STEADY.from}–${STEADY.to}, once the code has
  settled (${STEADY_EVIDENCE}). The budgets guard the steady ratio. The service gets no request the echo
  app does not, except for /sync one read of \`/metrics\` after the cold pass (the memo's count):
  one extra GET there raised /convert's warm ratio by about 0.15. Every answer's status is compared
  with the recorded one; answers that depend on the registry (off here) may differ and are
  counted apart; any other answer not 2xx where the recording has 2xx fails the row. A /sync
  replayed as recorded never reaches the sync memo: each parent carries the status the hooks of
  the recording wrote, which lacks conditions these hooks add, so every answer sets a
  transition time (reads the clock) and is not kept; the /sync passes after the first measure
  full syncs with warm caches.
${replicasFigureMd()}`;
}

/** What the two-replicas figure measures (bench/replicas.ts), for BENCHMARKS.md. */
function replicasFigureMd(): string {
  return `- **two replicas** (\`bench/replicas.ts\`): the recorded /sync requests in order over
  ${CONNECTIONS} keep-alive connections alternating between two service processes (connections 0,
  2 → A; 1, 3 → B), requests round-robin over the connections, as a Kubernetes Service in front
  of two pods spreads them; each parent sent with the status of the last answer for it, as
  Metacontroller writes it back (as recorded, the memo keeps nothing: above). Hit rate: the
  sum of \`llsd_hook_reused_total{hook="sync"}\` over the sum of
  \`llsd_hook_requests_total{hook="sync"}\` of both processes' \`/metrics\`; beside it the same
  traffic through one process, and the bodies as recorded. Then the **steady** phase, where a
  cluster spends most of its time: ${STEADY_ROUNDS} rounds resending each parent's last recorded request
  (every parent once per round, in the order of its first request), its status fed back the same
  way, over the same connections with the round-robin going on, one connection further each
  round: Metacontroller's periodic resync with nothing changed, each parent's resyncs
  alternating between the two pods. Its hit rate is
  reported over all steady rounds and over the last one (an answer that read the clock, a
  condition changed, is not kept, so the first round may still miss), beside the same phase
  through one process. The memo's saving, per phase: CPU per /sync call of both processes
  (\`/metrics\` read outside the measured window) with the memo on and off (${ROUNDS} alternating
  rounds of fresh processes, each phase's median round). The service has no setting for the memo alone (\`LLSD_CACHE_MB=0\` turns every
  cache off), so "off" preloads (\`node -r\`) a file that makes the service's own
  \`setCachePolicy\` (lib/caches.ts) leave the sync memo out: the \`--without "sync memo"\` of
  this bench, inside the spawned service. Reported, no budget.`;
}

/** What the caches' figures measure, for BENCHMARKS.md. */
function cachesFiguresMd(): string {
  return `- **without the base-config cache** (\`bench/sync.ts\` \`benchWithout\`): the one-sync figure
  with the base-config cache off (\`lib/caches.ts\`) and on, in alternating rounds: its gain.
  The caches keyed by ConfigMap version (\`bench/cache-gain.ts\`): the recorded \`/sync\`
  requests of **replay**, parsed and answered in process by the sync handler as the service wires
  it (built code, registry reading and live status off), with the cache and without it in
  8 alternating rounds (one unmeasured pass each to refill it, then process CPU over two).
  The other caches' gains: \`--without "sync memo"\` for the memo's (POST /sync, resync), the
  registry counts of **burst** for the image caches' (docs/development.md, "Caches").`;
}

/** What each figure measures, for BENCHMARKS.md. */
function figuresMd(): string {
  return `## What each figure measures

- **generate** (\`bench/generate.ts\`): \`generate()\` of \`samples/autoscaling-full.yaml\` on the
  bundled starter config, against parsing and re-serializing that config with the \`yaml\` library.
- **one sync** (\`bench/sync.ts\`): the pure \`sync()\` — no memo — of the sample's sync request as
  Metacontroller sends it on a resync (\`bench/request.ts\`: \`llsd request sync\`'s logic, then
  the answers applied as \`tests/sync-builders.ts\` \`afterApply()\` does until the status is
  steady: every object with uid and resourceVersion, the parent with its status, the children
  observed, a ready Deployment), without the registry; baseline: \`JSON.parse\` +
  \`JSON.stringify\` of that request, the two in alternating rounds after 5,000 unmeasured
  calls of each (V8 optimizes code run once per sync only after thousands of syncs; a process's
  first calls are the replay's cold pass). Reported beside it: the same request through
  \`syncRemembered\` once the memo holds the parent's answer (the I/O step, the keys, the lookup).
  The generate and sync figures, like every sync after the first, find the base config parsed,
  checked and adapted to the server line (kept per base text); nothing is kept per request, so
  each call validates, normalizes, generates, hashes and builds everything again.
${cachesFiguresMd()}
- **POST /sync** (\`bench/http.ts\`, \`bench/servers.ts\`): autocannon against \`createApp\` with
  the real handlers (\`syncRemembered\` with the default memo, \`customize\`; no resolver, i.e.
  LLSD_READ_IMAGE_LABELS=false; silent logger) and against an Express app that only parses the
  body (\`express.json\`, 8 MB) and answers it back, both in the bench process on 127.0.0.1
  ephemeral ports; an unmeasured warm-up round each, then three alternating rounds each, two
  scenarios with the same bodies for both apps. **resync**: the request renamed for ${RESYNC_PARENTS} parents (names, uids), sent in turn —
  a cluster's steady state, where nothing changed since the last answer and the memo answers
  after the first round. **changed**: the one request with a new parent resourceVersion on
  every call, as if the parent changed each time — every call validates, generates, builds the
  children and the status and serializes (the memo's miss path).
- **burst** (\`bench/burst.ts\`): Debian \`docker-registry\` on 127.0.0.1:0 behind the tests'
  counting proxy (\`tests/oci/support/\`), one image whose labels carry the starter config; the
  real app with \`createBaseConfigResolver({insecureRegistries: [proxy]})\`; ${BURST} distinct
  parents naming that image, sent at once on ${BURST} connections. The app's overload guard is
  sized to the burst (its default, 64 in flight, answers the rest 429 with \`Retry-After: 1\`).
- **RSS** (\`bench/memory.ts\`): \`node ${deploymentArgs().join(" ")}\` — the hooks Deployment's
  command, read from \`metacontroller/base/deployment.yaml\` (\`${MAIN}\` built by the bench with
  \`npm run build\`; the V8 heap cap is the Deployment's) — with the sync memo at its default,
  live status off, registry as above with a few images; ${PARENTS.toLocaleString("en")} distinct
  parents, 32 at a time; RSS from \`/proc/<pid>/status\` one second after the last answer
  (VmRSS; the peak is VmHWM). The hooks Deployment requests 128 Mi and is limited to 256 Mi.
- **RSS after large parents** (\`bench/memory.ts\` \`benchLargeMemory\`): the same command with
  image labels and live status off; ${LARGE_PARENTS.toLocaleString("en")} distinct parents, each one large:
  a 1 MiB provider \`settings\` value, a 0.9 MiB \`overrideConfig\` ConfigMap or a 0.9 MiB
  CA-bundle ConfigMap in turn (\`tests/reliability/hostile-requests.ts\`, the hostile-size test's
  requests), 4 at a time; every answer checked; RSS after each answer and at the end.
${processFiguresMd()}`;
}

/** BENCHMARKS.md's profile section (bench/profile.ts) as it stands: a run keeps it. */
function keptProfileMd(): string {
  const path = join(ROOT, "BENCHMARKS.md");
  const section = existsSync(path) ? profileSection(readFileSync(path, "utf8")) : "";
  return section === "" ? "" : `\n${section.trimEnd()}\n`;
}

function benchmarksMd(header: readonly string[], table: readonly string[]): string {
  return `# Benchmarks

\`npm run bench\` measures the service on loopback (the last run's time is in its header); it is not
part of \`npm test\`. \`npm run bench -- --check\` exits 1 when a budget is missed. Every figure
runs beside a baseline in the same run (alternating rounds where the figure is a rate), so
the ratio holds on a noisy machine even when the absolute numbers move. This file and
\`bench/results.json\` are rewritten by each run.

## Budgets

Time budgets are ratios to the baseline measured in the same run, never absolute times: on a
shared machine both sides slow down together, so the ratio stays put while the milliseconds
move. \`--check\` passes on a quiet machine; on a busy one, read the ratios, not the times.

- one full sync in process: median ≤ ${BUDGET.syncRatio}× the JSON round trip
  (\`JSON.parse\` + \`JSON.stringify\`) of its own request;
- generate: median ≤ ${BUDGET.generateRatio}× a YAML parse + stringify of the starter base config;
- POST /sync, resync of unchanged parents (the memo answers): ≥ ${BUDGET.resyncRatio}× the
  requests per second of the parse-and-echo app;
- POST /sync, a changed parent (a full sync every call): ≥ ${BUDGET.changedRatio}× the same;
- burst: every answer 200, and one manifest and one config fetch from the registry;
- RSS after ${PARENTS.toLocaleString("en")} parents, and its peak over ${LARGE_PARENTS.toLocaleString("en")} large ones (every answer right),
  ≤ ${BUDGET.rssMb} MB (the Deployment's limit is 256 Mi), and
  startup to the first ready answer, median ≤ ${BUDGET.startupMs} ms: sizes and a start-up
  bound the Deployment depends on, not speeds;
- replay of the recorded traffic, process CPU per call, steady: /sync ≤ ${REPLAY_BUDGET.sync}×,
  /validate ≤ ${REPLAY_BUDGET.validate}×, /customize ≤ ${REPLAY_BUDGET.customize}× and /convert ≤ ${REPLAY_BUDGET.convert}× the echo app's, and every
  answer 2xx where the recording has 2xx (${REPLAY_BUDGET_BASIS}). Idle CPU and the memo's hit rate are reported only.

## Latest run

${header.join("  \n")}

${table.join("\n")}

${figuresMd()}
${keptProfileMd()}
## Cache bounds

Every cache is bounded in bytes, its share of the one budget \`LLSD_CACHE_MB\` (lib/caches.ts):

${CACHE_BOUNDS.map((b) => `- ${b}`).join("\n")}
`;
}

void main();

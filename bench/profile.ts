/**
 * Summarises V8 CPU profiles (`node --cpu-prof`, as `npm run bench -- --only replay --cpu-prof DIR`
 * writes them): the top frames by self time and by inclusive time, and self time per file.
 *
 *   npx tsx bench/profile.ts DIR/validate [--top 25] [--from 0.5]
 *
 * A directory stands for every .cpuprofile in it (one per replayed process, merged). `--from F`
 * keeps the samples taken after fraction F of each profile's duration: 0.5 drops the start-up
 * and the cold and warm passes, leaving about the steady ones. `--focus F` keeps the samples with
 * a frame whose `name file:line` contains F. Idle samples are left out; the percentages are of
 * the samples kept where the process was on a CPU.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

interface CallFrame {
  readonly functionName: string;
  readonly url: string;
  readonly lineNumber: number;
}
interface ProfileNode {
  readonly id: number;
  readonly callFrame: CallFrame;
  readonly children?: readonly number[];
}
interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** Counts per key, with the total of samples counted. */
export interface Tally {
  readonly samples: number;
  readonly self: Map<string, number>;
  readonly inclusive: Map<string, number>;
  readonly selfByFile: Map<string, number>;
}

const ROOT = join(__dirname, "..");

/** Where a frame's code is: the path under the project (dist/… or node_modules/<package>/…), or node's own. */
export function fileOf(url: string): string {
  if (url === "") return "(native)";
  const path = url.startsWith("file://") ? relative(ROOT, url.slice("file://".length)) : url;
  return path.startsWith("..") ? path.slice(path.lastIndexOf("node_modules/")) : path;
}

/** `name file:line` (1-based line), the key frames are counted under. */
export const frameOf = ({ functionName, url, lineNumber }: CallFrame): string =>
  url === "" ? functionName || "(anonymous)" : `${functionName || "(anonymous)"} ${fileOf(url)}:${lineNumber + 1}`;

const IDLE = "(idle)";

/**
 * Adds `profile`'s samples taken after fraction `from` of its duration to `tally`; with `focus`,
 * only the samples with a frame whose key contains it (what a function's time is made of).
 */
export function addProfile(tally: Tally, profile: CpuProfile, from = 0, focus?: string): Tally {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const times: number[] = [];
  let t = 0;
  for (const d of profile.timeDeltas) times.push((t += d));
  const since = (times.at(-1) ?? 0) * from;
  const bump = (m: Map<string, number>, k: string): void => void m.set(k, (m.get(k) ?? 0) + 1);
  let samples = tally.samples;
  profile.samples.forEach((id, i) => {
    const leaf = byId.get(id);
    if (leaf === undefined || (times[i] ?? 0) < since || leaf.callFrame.functionName === IDLE) return;
    const stack = new Set<string>(); // a recursive frame counts once per sample
    for (let node: ProfileNode | undefined = leaf; node; node = byId.get(parent.get(node.id) ?? -1))
      stack.add(frameOf(node.callFrame));
    if (focus !== undefined && ![...stack].some((key) => key.includes(focus))) return;
    samples += 1;
    bump(tally.self, frameOf(leaf.callFrame));
    bump(tally.selfByFile, fileOf(leaf.callFrame.url));
    for (const key of stack) bump(tally.inclusive, key);
  });
  return { ...tally, samples };
}

export const emptyTally = (): Tally => ({ samples: 0, self: new Map(), inclusive: new Map(), selfByFile: new Map() });

/** The `top` largest counts as markdown list lines with their share of `samples`. */
export function topLines(counts: ReadonlyMap<string, number>, samples: number, top: number): string[] {
  return [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, top)
    .map(([key, n]) => `${((100 * n) / samples).toFixed(1).padStart(5)} %  ${key}`);
}

/** A .cpuprofile as node writes it (checked only for the arrays this reads). */
function isProfile(value: unknown): value is CpuProfile {
  const has = (key: string): boolean =>
    typeof value === "object" && value !== null && Array.isArray(Reflect.get(value, key));
  return has("nodes") && has("samples") && has("timeDeltas");
}

function readProfile(file: string): CpuProfile {
  const value: unknown = JSON.parse(readFileSync(file, "utf8"));
  if (!isProfile(value)) throw new Error(`${file}: not a V8 CPU profile`);
  return value;
}

function profilesIn(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .filter((f) => f.endsWith(".cpuprofile"))
    .sort()
    .map((f) => join(path, f));
}

/** The heading of BENCHMARKS.md's section written from these summaries (by hand: a reading, not a figure). */
export const PROFILE_HEADING = "## Where the time goes";

/** That section of `markdown` (to the next `## ` heading), for a bench run to keep as it rewrites the file; "" when absent. */
export function profileSection(markdown: string): string {
  const start = markdown.indexOf(`\n${PROFILE_HEADING}\n`);
  if (start < 0) return "";
  const end = markdown.indexOf("\n## ", start + 1 + PROFILE_HEADING.length);
  return markdown.slice(start + 1, end < 0 ? undefined : end + 1);
}

function main(argv: readonly string[]): void {
  const flag = (name: string, fallback: number): number => {
    const i = argv.indexOf(name);
    return i < 0 ? fallback : Number(argv[i + 1]);
  };
  const [top, from] = [flag("--top", 25), flag("--from", 0)];
  const focus = argv[argv.indexOf("--focus") + 1];
  const valued = ["--top", "--from", "--focus"];
  const paths = argv.filter((a, i) => !a.startsWith("--") && !valued.includes(argv[i - 1] ?? ""));
  if (paths.length === 0)
    throw new Error("usage: tsx bench/profile.ts FILE.cpuprofile|DIR … [--top N] [--from F] [--focus FRAME]");
  const files = paths.flatMap(profilesIn);
  let tally = emptyTally();
  for (const file of files) {
    const profile = readProfile(file);
    tally = addProfile(tally, profile, from, argv.includes("--focus") ? focus : undefined);
  }
  const section = (title: string, counts: ReadonlyMap<string, number>): string[] => [
    `### ${title}`,
    "",
    "```",
    ...topLines(counts, tally.samples, top),
    "```",
    "",
  ];
  console.log(
    [
      `${files.length} profile(s), ${tally.samples} samples on a CPU${from > 0 ? ` after ${from} of each profile` : ""}${argv.includes("--focus") ? ` under ${focus}` : ""}`,
      "",
      ...section("Self time", tally.self),
      ...section("Inclusive time", tally.inclusive),
      ...section("Self time per file", tally.selfByFile),
    ].join("\n"),
  );
}

if (require.main === module) main(process.argv.slice(2));

/**
 * The releases kept in tests/upgrade/releases/<version>/: `children.json.gz`, the desired
 * children that release's code computed for every upgrade input (written by generate.ts from
 * that release's checkout), and `impact.md`, what upgrading to that release from the one before
 * changes (written by impact.test.ts with UPDATE_GOLDEN=1).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { isPlainObject, type JsonMap } from "../../lib/json";
import { storedPhase, type PhaseAndReason } from "./status";
import type { UpgradeInput } from "./tree";

export const RELEASES_DIR = join(__dirname, "releases");
export const CHILDREN_FILE = "children.json.gz";
export const IMPACT_FILE = "impact.md";

/** One parent of a release's goldens: its input (a sample's request, or where the recorded one is) and its children. */
export interface GoldenParent {
  readonly id: string;
  readonly request?: JsonMap;
  readonly traffic?: { readonly line: number; readonly sha256: string };
  readonly children: readonly unknown[];
  /** The release's own phase for the parent (goldens written since 0.3.0; older ones have none). */
  readonly status?: PhaseAndReason;
}

export interface ReleaseGoldens {
  readonly release: string;
  readonly clock: string;
  readonly parents: readonly GoldenParent[];
}

const VERSION = /^(\d+)\.(\d+)\.(\d+)$/;

/** Semantic versions (no pre-release part) in release order. */
export function compareVersions(a: string, b: string): number {
  const [pa, pb] = [VERSION.exec(a), VERSION.exec(b)];
  if (!pa || !pb) throw new Error(`not a release version: ${pa ? b : a} (want MAJOR.MINOR.PATCH)`);
  for (const i of [1, 2, 3]) {
    const d = Number(pa[i]) - Number(pb[i]);
    if (d !== 0) return d;
  }
  return 0;
}

/** The releases whose goldens are kept, oldest first. */
export function releasesWithGoldens(dir: string = RELEASES_DIR): string[] {
  return readdirSync(dir)
    .filter((v) => VERSION.test(v) && existsSync(join(dir, v, CHILDREN_FILE)))
    .sort(compareVersions);
}

/** The newest release with goldens before `version`: the one a user of `version` upgrades from. */
export function previousRelease(version: string, dir: string = RELEASES_DIR): string | undefined {
  return releasesWithGoldens(dir)
    .filter((v) => compareVersions(v, version) < 0)
    .at(-1);
}

/** The input as the goldens keep it: a recorded request by its place in the traffic file, a sample's request whole. */
export function goldenParent(input: UpgradeInput, children: readonly unknown[], status?: PhaseAndReason): GoldenParent {
  const parent = input.traffic
    ? { id: input.id, traffic: input.traffic, children }
    : { id: input.id, request: input.request, children };
  return status === undefined ? parent : { ...parent, status };
}

/** One parent per line, so `zcat … | diff` shows which parents changed; gzip's header carries no time. */
export function writeGoldens(dir: string, goldens: ReleaseGoldens): string {
  mkdirSync(dir, { recursive: true });
  const lines = goldens.parents.map((p) => JSON.stringify(p));
  const text = `{"release":${JSON.stringify(goldens.release)},"clock":${JSON.stringify(goldens.clock)},"parents":[\n${lines.join(",\n")}\n]}\n`;
  const file = join(dir, CHILDREN_FILE);
  writeFileSync(file, gzipSync(Buffer.from(text, "utf8"), { level: 9 }));
  return file;
}

function goldenParentOf(value: unknown, file: string): GoldenParent {
  if (!isPlainObject(value) || typeof value.id !== "string" || !Array.isArray(value.children))
    throw new Error(`${file}: a parent without id or children`);
  const { id, children, request, traffic } = value;
  const status = storedPhase(value.status);
  const withStatus = status === undefined ? {} : { status };
  if (isPlainObject(request)) return { id, request, children, ...withStatus };
  if (isPlainObject(traffic) && typeof traffic.line === "number" && typeof traffic.sha256 === "string")
    return { id, traffic: { line: traffic.line, sha256: traffic.sha256 }, children, ...withStatus };
  throw new Error(`${file}: parent ${id} has neither a request nor a traffic line`);
}

export function readGoldens(release: string, dir: string = RELEASES_DIR): ReleaseGoldens {
  const file = join(dir, release, CHILDREN_FILE);
  const value: unknown = JSON.parse(gunzipSync(readFileSync(file)).toString("utf8"));
  if (!isPlainObject(value) || typeof value.clock !== "string" || !Array.isArray(value.parents))
    throw new Error(`${file} is not a release's goldens`);
  if (value.release !== release)
    throw new Error(`${file} holds the goldens of ${String(value.release)}, not ${release}`);
  return { release, clock: value.clock, parents: value.parents.map((p) => goldenParentOf(p, file)) };
}

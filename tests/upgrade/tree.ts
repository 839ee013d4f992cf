/**
 * The desired children one checkout of the project computes for the upgrade inputs: the samples
 * (as that checkout's `llsd request sync` builds them) and the last recorded /sync request of
 * every parent in bench/traffic/sync.jsonl.gz. The checkout's code is loaded from its own
 * directory, through the few entry points every release has (`runCli`, `syncSettingsFromEnv`,
 * `syncDeps`, `syncWith`), so the same file computes the goldens of an old release and the
 * children of the current code. Registry reading is off (external providers' images are answered
 * by a stand-in: provider-images.ts), calls to running servers are off and the clock is pinned:
 * the answer depends on the request and the code only.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { isPlainObject, type JsonMap } from "../../lib/json";
import { upgradeResolver, type UpgradeResolver } from "./provider-images";

/** The clock every sync of an upgrade run reads. */
export const PINNED_CLOCK = "2026-01-01T00:00:00.000Z";

/** The service's settings for these runs: no registry, no running servers, no caches. */
const ENV = { LLSD_READ_IMAGE_LABELS: "false", LLSD_LIVE_STATUS: "false", LLSD_CACHE_MB: "0" };

export const TRAFFIC_FILE = "bench/traffic/sync.jsonl.gz";

/** One parent as the fleet has it: where it comes from, and the request Metacontroller sends for it. */
export interface UpgradeInput {
  /** `sample <file>` or `traffic <namespace>/<name>`. */
  readonly id: string;
  readonly request: JsonMap;
  /** For a recorded request: its line in the traffic file and the SHA-256 of its body. */
  readonly traffic?: { readonly line: number; readonly sha256: string };
}

type Cli = (
  argv: readonly string[],
  io: { stdout(t: string): void; stderr(t: string): void; readFile(p: string): string },
) => number;
type SyncWith = (request: unknown, deps: unknown, resolver: UpgradeResolver | undefined) => Promise<unknown>;

/** What the upgrade run calls in a checkout. */
export interface TreeCode {
  readonly runCli: Cli;
  readonly syncSettingsFromEnv: (env: { readonly [k: string]: string }) => unknown;
  readonly syncDeps: (settings: unknown) => unknown;
  readonly syncWith: SyncWith;
}

function exported<T>(module: unknown, name: string, file: string, guard: (v: unknown) => v is T): T {
  const value = isPlainObject(module) || typeof module === "function" ? Reflect.get(module, name) : undefined;
  if (!guard(value)) throw new Error(`${file} has no function ${name}: this checkout is not one the upgrade run knows`);
  return value;
}

const isFunction = <T>(v: unknown): v is T => typeof v === "function";

/** The entry points of the checkout at `root`. */
export async function loadTree(root: string): Promise<TreeCode> {
  const cliFile = join(root, "lib/cli/cli");
  const settingsFile = join(root, "hooks/sync-settings");
  const syncFile = join(root, "lib/sync");
  const [cli, settings, sync]: unknown[] = await Promise.all([import(cliFile), import(settingsFile), import(syncFile)]);
  return {
    runCli: exported(cli, "runCli", cliFile, isFunction<Cli>),
    syncSettingsFromEnv: exported(
      settings,
      "syncSettingsFromEnv",
      settingsFile,
      isFunction<TreeCode["syncSettingsFromEnv"]>,
    ),
    syncDeps: exported(sync, "syncDeps", syncFile, isFunction<TreeCode["syncDeps"]>),
    syncWith: exported(sync, "syncWith", syncFile, isFunction<SyncWith>),
  };
}

function parsedMap(text: string, what: string): JsonMap {
  const value: unknown = JSON.parse(text);
  if (!isPlainObject(value)) throw new Error(`${what} is not a JSON object`);
  return value;
}

/** Each sample's request, as `llsd request sync samples/<file>` of that checkout prints it. */
export function sampleInputs(root: string, tree: TreeCode): UpgradeInput[] {
  const files = readdirSync(join(root, "samples"))
    .filter((f) => f.endsWith(".yaml"))
    .sort();
  return files.map((file) => {
    let out = "";
    let err = "";
    const io = {
      stdout: (t: string) => void (out += t),
      stderr: (t: string) => void (err += t),
      readFile: (p: string) => readFileSync(p, "utf8"),
    };
    const exit = tree.runCli(["request", "sync", join(root, "samples", file)], io);
    if (exit !== 0) throw new Error(`llsd request sync samples/${file} exited ${exit}: ${err}`);
    return { id: `sample ${file}`, request: parsedMap(out, `the request of samples/${file}`) };
  });
}

export const sha256 = (text: string): string => createHash("sha256").update(text, "utf8").digest("hex");

/** The /sync records of the traffic file, each with its line number (1-based). */
export function trafficRecords(root: string): { line: number; body: string }[] {
  const lines = gunzipSync(readFileSync(join(root, TRAFFIC_FILE)))
    .toString("utf8")
    .split("\n");
  const records: { line: number; body: string }[] = [];
  lines.forEach((text, i) => {
    if (text === "") return;
    const record = parsedMap(text, `${TRAFFIC_FILE} line ${i + 1}`);
    if (record.path === "/sync" && typeof record.body === "string") records.push({ line: i + 1, body: record.body });
  });
  return records;
}

function parentId(request: JsonMap): string {
  const metadata =
    isPlainObject(request.parent) && isPlainObject(request.parent.metadata) ? request.parent.metadata : {};
  return `traffic ${String(metadata.namespace)}/${String(metadata.name)}`;
}

/** The last recorded request of every parent: the state the fleet is in when the hooks are upgraded. */
export function trafficInputs(root: string): UpgradeInput[] {
  const last = new Map<string, UpgradeInput>();
  for (const { line, body } of trafficRecords(root)) {
    const request = parsedMap(body, `${TRAFFIC_FILE} line ${line}'s body`);
    const id = parentId(request);
    last.delete(id); // re-inserted: the map keeps the order of each parent's last request
    last.set(id, { id, request, traffic: { line, sha256: sha256(body) } });
  }
  return [...last.values()];
}

/** What the checkout's /sync answers for one request (its children and status), with the service's settings and the pinned clock. */
export async function syncAnswer(tree: TreeCode, request: JsonMap): Promise<{ children: unknown[]; status: unknown }> {
  const deps = tree.syncDeps(tree.syncSettingsFromEnv(ENV));
  const pinned = isPlainObject(deps) ? { ...deps, now: () => new Date(PINNED_CLOCK) } : deps;
  const response = await tree.syncWith(request, pinned, upgradeResolver(request));
  const children: unknown = isPlainObject(response) ? response.children : undefined;
  if (!Array.isArray(children)) throw new Error(`the sync of ${parentId(request)} answered no children list`);
  const list: readonly unknown[] = children;
  return { children: [...list], status: isPlainObject(response) ? response.status : undefined };
}

/** The children the checkout's /sync answers for one request. */
export async function desiredChildren(tree: TreeCode, request: JsonMap): Promise<unknown[]> {
  return (await syncAnswer(tree, request)).children;
}

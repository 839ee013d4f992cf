/**
 * The recorded hook traffic in bench/traffic/ (its README.md): one gzipped JSONL file per
 * endpoint, each line a request as Metacontroller or the kube-apiserver sent it and the status
 * the hooks answered then. Read with checks (the files come from outside), and classified into
 * the kinds of request the replay must keep (bench/traffic/subset.ts, tests/bench/replay.test.ts).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { getPath, own } from "../lib/json";

export const ENDPOINTS = ["sync", "customize", "convert", "validate"] as const;
export type Endpoint = (typeof ENDPOINTS)[number];

export const TRAFFIC_DIR = join(__dirname, "traffic");

export interface TrafficRecord {
  readonly t: string;
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** The recorded answer's status; undefined when the call was cut (`response.error`). */
  readonly status: number | undefined;
  /** The record's line as read, for writing a subset unchanged. */
  readonly line: string;
}

const isText = (v: unknown): v is string => typeof v === "string";

function headersOf(value: unknown): Record<string, string> {
  if (typeof value !== "object" || value === null) throw new Error("headers is not an object");
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => isText(entry[1])));
}

/** One line of a traffic file, checked. */
export function parseRecord(line: string): TrafficRecord {
  const value: unknown = JSON.parse(line);
  const [t, method, path, body] = ["t", "method", "path", "body"].map((k) => own(value, k));
  if (!isText(t) || !isText(method) || !isText(path) || !isText(body))
    throw new Error(`not a traffic record: ${line.slice(0, 80)}`);
  const status = own(own(value, "response"), "status");
  return {
    t,
    method,
    path,
    headers: headersOf(own(value, "headers")),
    body,
    status: typeof status === "number" ? status : undefined,
    line,
  };
}

/** Every record of `<dir>/<endpoint>.jsonl.gz`, in recorded order. */
export function readTraffic(endpoint: Endpoint, dir = TRAFFIC_DIR): TrafficRecord[] {
  const text = gunzipSync(readFileSync(join(dir, `${endpoint}.jsonl.gz`))).toString("utf8");
  return text
    .split("\n")
    .filter((line) => line.length > 0)
    .map(parseRecord);
}

const keyCount = (value: unknown): number =>
  typeof value === "object" && value !== null ? Object.keys(value).length : 0;

/** Objects in a `children` map (kind → name → object). */
const childCount = (children: unknown): number =>
  typeof children === "object" && children !== null
    ? Object.values(children).reduce((n: number, byName: unknown) => n + keyCount(byName), 0)
    : 0;

/** The failing reasons a parent's status carries (conditions False or True with a failure reason). */
function statusReasons(parent: unknown): string[] {
  const conditions = getPath(parent, ["status", "conditions"]);
  if (!Array.isArray(conditions)) return [];
  const reasons = conditions.map((c) => own(c, "reason")).filter(isText);
  return reasons.filter((r) => /SecretNotFound|MissingConfigLabels|RegistryUnavailable/.test(r));
}

/** What a /sync request is: the facts its strata are made of (the traffic README). */
export interface SyncKind {
  readonly uid: string;
  /** The variant: the parent's name without its number. */
  readonly variant: string;
  /** No children observed yet. */
  readonly first: boolean;
  readonly generation: number;
  /** Annotated while the registry was down (the recording's `e2e-scale/touched`). */
  readonly annotated: boolean;
  /** The phase the parent carries from the previous answer (none on the very first sync). */
  readonly phase: string;
  readonly reasons: readonly string[];
}

export function syncKind(record: TrafficRecord): SyncKind {
  const request: unknown = JSON.parse(record.body);
  const parent = own(request, "parent");
  const [uid, name] = [getPath(parent, ["metadata", "uid"]), getPath(parent, ["metadata", "name"])];
  const generation = getPath(parent, ["metadata", "generation"]);
  const phase = getPath(parent, ["status", "phase"]);
  return {
    uid: isText(uid) ? uid : "",
    variant: isText(name) ? name.replace(/-\d+$/, "") : "",
    first: childCount(own(request, "children")) === 0,
    generation: typeof generation === "number" ? generation : 0,
    annotated: own(getPath(parent, ["metadata", "annotations"]), "e2e-scale/touched") !== undefined,
    phase: isText(phase) ? phase : "",
    reasons: statusReasons(parent),
  };
}

/** The stratum of a /sync record: every value of it must stay in a subset. */
export function syncStratum(record: TrafficRecord): string {
  const k = syncKind(record);
  const answer = record.status === undefined ? "cut" : String(record.status);
  return [
    k.variant,
    k.first ? "first" : "resync",
    `gen${k.generation}`,
    k.annotated ? "annotated" : "",
    k.phase,
    answer,
  ]
    .concat(k.reasons)
    .join(" ");
}

/** `/convert`: `<apiVersion of the objects> → <desired apiVersion>`. */
export function convertDirection(record: TrafficRecord): string {
  const request = own(JSON.parse(record.body), "request");
  const objects = own(request, "objects");
  const from = Array.isArray(objects) ? own(objects[0], "apiVersion") : undefined;
  return `${String(from)} → ${String(own(request, "desiredAPIVersion"))}`;
}

/** `/validate`: the AdmissionReview's operation (CREATE, UPDATE). */
export function validateOperation(record: TrafficRecord): string {
  return String(getPath(JSON.parse(record.body), ["request", "operation"]));
}

/** `/customize`: the parent's variant (every one asks which Secrets and ConfigMaps to watch). */
export function customizeKind(record: TrafficRecord): string {
  const name = getPath(JSON.parse(record.body), ["parent", "metadata", "name"]);
  return isText(name) ? name.replace(/-\d+$/, "") : "";
}

/** The kind of request a record is, per endpoint: what a subset must keep every value of. */
export function kindOf(endpoint: Endpoint, record: TrafficRecord): string {
  if (endpoint === "sync") return syncStratum(record);
  if (endpoint === "convert") return convertDirection(record);
  if (endpoint === "validate") return validateOperation(record);
  return customizeKind(record);
}

/**
 * The /sync records whose answer depends on the registry, which a replay with
 * `LLSD_READ_IMAGE_LABELS=false` answers otherwise: parents naming a `distribution.image`, and
 * every request sent while the registry was down (from the first to the last annotated parent).
 */
export function registryDependent(records: readonly TrafficRecord[]): Set<TrafficRecord> {
  const kinds = records.map(syncKind);
  const times = records.filter((_, i) => kinds[i]?.annotated).map((r) => r.t);
  const [from, to] = [times[0] ?? "~", times.at(-1) ?? ""];
  const image = (r: TrafficRecord): boolean =>
    getPath(JSON.parse(r.body), ["parent", "spec", "distribution", "image"]) !== undefined;
  return new Set(records.filter((r) => (r.t >= from && r.t <= to) || image(r)));
}

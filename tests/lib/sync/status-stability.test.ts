/**
 * No status change without a cause (issue 50 part 2): Metacontroller writes the parent whenever
 * the answered status differs from the one it holds, so a status that moves by itself (a
 * timestamp, a counter, a message) costs a write and a resync per parent, forever.
 *
 * Measured on the recorded traffic (bench/traffic), on the plain path (no cache, no memo):
 * - each record, then the same record with its answer's status written back an hour later: the
 *   same status (a resync that changes nothing answers what it answered);
 * - each parent's records in order, as if these hooks had answered every one of them (each
 *   request carries the previous answer's status): every change of status has a cause among the
 *   inputs (spec, metadata, observed children, related objects). The report, per parent, is the
 *   golden file tests/golden/status-changes.md.
 */
import { readTraffic } from "../../../bench/traffic";
import type { KubeObject, ObjectMap, SyncRequest, SyncResponse } from "../../../lib/wire/metacontroller";
import { expectGolden } from "../../golden";
import { plainSyncWith } from "../../plain-path";
import { deps } from "../../sync-builders";
import { differingPaths } from "../../upgrade/diff";

const T = new Date("2026-11-26T06:00:00Z");
const HOUR_LATER = new Date(T.getTime() + 3_600_000);

const requests = readTraffic("sync").map((r) => JSON.parse(r.body) as SyncRequest);

const answer = (request: SyncRequest, now: Date): Promise<SyncResponse> => plainSyncWith(request, deps(now), undefined);

function withStatus(request: SyncRequest, status: unknown): SyncRequest {
  return { ...request, parent: { ...request.parent, status } };
}

/** What Metacontroller and the apiserver change on every write, which no status may depend on. */
function withoutBookkeeping(object: KubeObject): unknown {
  const { resourceVersion: _v, managedFields: _m, ...metadata } = (object.metadata ?? {}) as Record<string, unknown>;
  return { ...object, metadata };
}

function mapWithoutBookkeeping(map: ObjectMap | undefined): unknown {
  return Object.fromEntries(
    Object.entries(map ?? {}).map(([kind, byName]) => [
      kind,
      Object.fromEntries(Object.entries(byName).map(([name, o]) => [name, withoutBookkeeping(o)])),
    ]),
  );
}

/** The inputs of a sync other than the parent's status, each as a comparable value. */
function inputs(request: SyncRequest): Record<string, unknown> {
  const { status: _s, metadata, ...parent } = request.parent as KubeObject & { status?: unknown };
  const { resourceVersion: _v, managedFields: _m, ...meta } = (metadata ?? {}) as Record<string, unknown>;
  return {
    parent: { ...parent, metadata: meta },
    children: mapWithoutBookkeeping(request.children),
    related: mapWithoutBookkeeping(request.related),
  };
}

/** A path's first two steps: `parent.spec`, `children["Deployment.apps/v1"]`. */
const HEAD = /^\w+(?:\.[A-Za-z_][\w-]*|\["(?:[^"\\]|\\.)*"\])?/;

/** Which inputs differ between two requests of one parent: `parent.spec`, `children["Deployment.apps/v1"]`, … */
function causes(before: SyncRequest, after: SyncRequest): string[] {
  const [a, b] = [inputs(before), inputs(after)];
  const heads = differingPaths(a, b).map((path) => HEAD.exec(path)?.[0] ?? path);
  return [...new Set(heads)];
}

describe("a resync that changes nothing answers the status it answered", () => {
  it("for every recorded sync, an hour later, with its own answer written back", async () => {
    const moved: string[] = [];
    for (const request of requests) {
      const first = await answer(request, T);
      const again = await answer(withStatus(request, first.status), HOUR_LATER);
      const paths = differingPaths(first.status, again.status);
      if (paths.length > 0) moved.push(`${request.parent.metadata.name}: ${paths.join(", ")}`);
    }
    expect(requests.length).toBeGreaterThan(100);
    expect(moved).toEqual([]);
  }, 300_000);
});

interface Change {
  readonly index: number;
  readonly causes: readonly string[];
  readonly statusPaths: readonly string[];
}

interface ParentRun {
  readonly name: string;
  readonly records: number;
  readonly distinct: number;
  readonly changes: readonly Change[];
}

/** The status fields a list of paths touches: `conditions`, `resolvedDistribution`, … */
function fieldsOf(paths: readonly string[]): string[] {
  return [...new Set(paths.map((path) => /^\w+/.exec(path)?.[0] ?? path))];
}

/** A cause as the report names it: `spec`, `metadata`, `Deployment`, `Secret (related)`. */
function causeName(cause: string): string {
  const kind = /^(children|related)\["([^".]+)/.exec(cause);
  if (kind) return kind[1] === "related" ? `${kind[2]} (related)` : kind[2]!;
  return cause.replace(/^parent\./, "");
}

/** One parent's records answered in order, each carrying the previous answer's status; the clock moves a minute a record. */
async function run(name: string, sequence: readonly SyncRequest[]): Promise<ParentRun> {
  const seen = new Set<string>();
  const changes: Change[] = [];
  let previous: { request: SyncRequest; status: unknown } | undefined;
  for (const [index, recorded] of sequence.entries()) {
    const request = previous ? withStatus(recorded, previous.status) : recorded;
    const { status } = await answer(request, new Date(T.getTime() + index * 60_000));
    seen.add(JSON.stringify(status));
    if (previous) {
      const statusPaths = differingPaths(previous.status, status);
      if (statusPaths.length > 0)
        changes.push({ index, causes: causes(previous.request, request), statusPaths: fieldsOf(statusPaths) });
    }
    previous = { request, status };
  }
  return { name, records: sequence.length, distinct: seen.size, changes };
}

function byParent(): Map<string, SyncRequest[]> {
  const parents = new Map<string, SyncRequest[]>();
  for (const request of requests) {
    const key = `${String(request.parent.metadata.namespace)}/${String(request.parent.metadata.name)}`;
    parents.set(key, [...(parents.get(key) ?? []), request]);
  }
  return parents;
}

function report(runs: readonly ParentRun[]): string {
  const changed = runs.filter((r) => r.changes.length > 0);
  const lines = [
    "# Status answers per parent on the recorded traffic",
    "",
    "Written by `tests/lib/sync/status-stability.test.ts` (`UPDATE_GOLDEN=1` rewrites it): each",
    "parent's recorded `/sync` requests of `bench/traffic/`, in order, answered by these hooks as",
    "if they had answered every one (each request carries the previous answer's status). A change",
    "of status lists the inputs that changed with it; a change with none would be a bug.",
    "",
    `Parents: ${runs.length}; records: ${runs.reduce((n, r) => n + r.records, 0)}; parents whose status changed: ${changed.length}.`,
    "",
    "| parent | records | distinct statuses | changes: record, causes → status fields |",
    "|---|---:|---:|---|",
  ];
  for (const r of runs) {
    const text = r.changes
      .map((c) => `#${c.index}: ${c.causes.map(causeName).join(", ")} → ${c.statusPaths.join(", ")}`)
      .join("<br>");
    lines.push(`| ${r.name} | ${r.records} | ${r.distinct} | ${text || "none"} |`);
  }
  return `${lines.join("\n")}\n`;
}

describe("each recorded parent in order", () => {
  it("changes status only with a cause among its inputs; the report is the golden file", async () => {
    const runs: ParentRun[] = [];
    for (const [name, sequence] of [...byParent().entries()].sort(([a], [b]) => a.localeCompare(b)))
      runs.push(await run(name, sequence));
    const uncaused = runs.flatMap((r) =>
      r.changes.filter((c) => c.causes.length === 0).map((c) => `${r.name}#${c.index}`),
    );
    expect(uncaused).toEqual([]);
    expect(runs.some((r) => r.changes.length > 0)).toBe(true);
    expectGolden("status-changes.md", report(runs));
  }, 300_000);
});

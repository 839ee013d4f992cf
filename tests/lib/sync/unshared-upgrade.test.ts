/**
 * The upgrade, for the parents of the previous release's goldens that this release refuses with
 * `UnsharedState` (more than one pod, state kept inside each). In a cluster that ran the previous
 * release, each child carries what that release desired as Metacontroller's last-applied
 * annotation; synced by this release, every such parent keeps exactly those children: no pod is
 * replaced, only the status changes. (tests/upgrade compares with the recorded requests, whose
 * children predate the previous release, so there the kept children read as changes.)
 */
import { join } from "node:path";
import { isPlainObject, type JsonMap } from "../../../lib/conversion/paths";
import { packageVersion } from "../../../lib/package-version";
import { sync } from "../../../lib/sync/sync";
import type { KubeObject, SyncRequest } from "../../../lib/wire/metacontroller";
import { previousRelease, readGoldens } from "../../upgrade/releases";
import { trafficRecords } from "../../upgrade/tree";
import { deps, objectMap, observedFrom } from "../../sync-builders";

const ROOT = join(__dirname, "../../..");
const PREVIOUS = previousRelease(packageVersion(ROOT) ?? "") ?? "";
const traffic = new Map(trafficRecords(ROOT).map((r) => [r.line, r.body]));

function requestOf(request: JsonMap | undefined, line: number | undefined): SyncRequest {
  const body: unknown = request ?? JSON.parse(traffic.get(line ?? 0) ?? "{}");
  if (!isPlainObject(body)) throw new Error("not a request");
  return body as unknown as SyncRequest;
}

const key = (c: KubeObject): string => `${c.kind}/${c.metadata.name}`;
const sorted = (children: readonly KubeObject[]): string[] =>
  [...children].sort((a, b) => key(a).localeCompare(key(b))).map((c) => JSON.stringify(c));

type Condition = { type: string; reason: string };

const parents = readGoldens(PREVIOUS)
  .parents.map((p) => ({
    id: p.id,
    request: requestOf(p.request, p.traffic?.line),
    children: p.children as KubeObject[],
  }))
  .filter((p) => p.children.some((c) => c.kind === "Deployment"));

/** The previous release's children, as a cluster that ran it observes them. */
const runningUnder = (p: (typeof parents)[number]): SyncRequest => ({
  ...p.request,
  children: objectMap(observedFrom(p.children)),
});

const refused = parents.filter((p) => {
  const conditions = (sync(runningUnder(p), deps()).status.conditions ?? []) as Condition[];
  return conditions.some((c) => c.type === "Stalled" && c.reason === "UnsharedState");
});

it("finds parents of the previous release that run several pods with unshared state", () => {
  expect(refused.length).toBeGreaterThan(0);
});

it.each(refused.map((p) => [p.id, p] as const))("%s keeps every child it ran, byte for byte", (_id, p) => {
  const answer = sync(runningUnder(p), deps());
  expect(sorted(answer.children)).toEqual(sorted(p.children));
  expect(answer.status.phase).toBe("Failed");
});

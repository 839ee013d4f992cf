/**
 * The upgrade, for the parents of the previous release's goldens that this release refuses with
 * `UnsharedState` (more than one pod, state kept inside each). In a cluster that ran the previous
 * release, each child carries what that release desired as Metacontroller's last-applied
 * annotation; synced by this release, every such parent keeps exactly those children: no pod is
 * replaced, only the status changes. tests/upgrade measures the same fleet (tests/upgrade/fleet.ts)
 * for every parent; this test shows that the refusal is really met there, and what it keeps.
 */
import { join } from "node:path";
import { isPlainObject, type JsonMap } from "../../../lib/json";
import { packageVersion } from "../../../lib/package-version";
import { sync } from "../../../lib/sync/sync";
import type { KubeObject, SyncRequest } from "../../../lib/wire/metacontroller";
import { previousRelease, readGoldens } from "../../upgrade/releases";
import { trafficRecords } from "../../upgrade/tree";
import { asApplied, fleetRequest } from "../../upgrade/fleet";
import { deps } from "../../sync-builders";

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
const runningUnder = (p: (typeof parents)[number]): SyncRequest =>
  fleetRequest(p.request as unknown as JsonMap, p.children) as unknown as SyncRequest;

const refused = parents.filter((p) => {
  const conditions = (sync(runningUnder(p), deps()).status.conditions ?? []) as Condition[];
  return conditions.some((c) => c.type === "Stalled" && c.reason === "UnsharedState");
});

it("finds parents of the previous release that run several pods with unshared state", () => {
  expect(refused.length).toBeGreaterThan(0);
});

it.each(refused.map((p) => [p.id, p] as const))("%s keeps every child it ran, byte for byte", (_id, p) => {
  const answer = sync(runningUnder(p), deps());
  // As Metacontroller applied them: with its controller-uid label, which the kept children carry.
  const applied = p.children.map((c) => asApplied(c, p.request.parent.metadata.uid ?? "") as KubeObject);
  expect(sorted(answer.children)).toEqual(sorted(applied));
  expect(answer.status.phase).toBe("Failed");
});

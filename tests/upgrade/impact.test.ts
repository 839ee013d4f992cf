/**
 * The upgrade from the previous release to this one, measured and declared: every parent of the
 * previous release's goldens (tests/upgrade/releases/<previous>/, written by that release's code)
 * is synced by the current code, and what changes — pods replaced and why, other children and
 * fields — must be what releases/<this version>/impact.md declares. An undeclared change fails,
 * and so does a declared one that no longer happens. `npm run upgrade-impact` rewrites the file
 * (review the diff; CHANGELOG.md's lines come from its summary). docs/releasing.md.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { isPlainObject, type JsonMap } from "../../lib/json";
import { packageVersion } from "../../lib/package-version";
import { expectGoldenFile } from "../golden";
import { parentImpact, type ParentImpact } from "./impact";
import { CHILDREN_FILE, IMPACT_FILE, previousRelease, readGoldens, RELEASES_DIR, type GoldenParent } from "./releases";
import { renderReport } from "./report";
import { asApplied, fleetRequest, parentOf, settled } from "./fleet";
import { phaseAndReason, statusChange } from "./status";
import { loadTree, sha256, syncAnswer, trafficRecords, TRAFFIC_FILE, type TreeCode } from "./tree";

/** The phase the cluster had for the parent when its request was recorded (none for a sample). */
const recordedPhase = (request: JsonMap) =>
  isPlainObject(request.parent) ? phaseAndReason(request.parent.status) : undefined;

const ROOT = join(__dirname, "../..");
const VERSION = packageVersion(ROOT) ?? "";
const PREVIOUS = previousRelease(VERSION);

/** The request the golden parent was computed from: kept whole (a sample), or its line of the recorded traffic. */
function requestOf(parent: GoldenParent, traffic: Map<number, string>): JsonMap {
  if (parent.request) return parent.request;
  const { line, sha256: expected } = parent.traffic ?? { line: 0, sha256: "" };
  const body = traffic.get(line);
  if (body === undefined || sha256(body) !== expected)
    throw new Error(
      `${TRAFFIC_FILE} line ${line} is not the request ${parent.id} was recorded with: the goldens need it unchanged`,
    );
  const request: unknown = JSON.parse(body);
  if (!isPlainObject(request)) throw new Error(`${TRAFFIC_FILE} line ${line}: the body is not a JSON object`);
  return request;
}

/**
 * Each parent of `release`'s goldens, synced by the current code as the fleet has it (fleet.ts:
 * observing the children `release` applied), compared with those children as Metacontroller
 * applied them.
 */
async function impactsSince(release: string, tree: TreeCode): Promise<ParentImpact[]> {
  const traffic = new Map(trafficRecords(ROOT).map((r) => [r.line, r.body]));
  const impacts: ParentImpact[] = [];
  for (const parent of readGoldens(release).parents) {
    const request = requestOf(parent, traffic);
    const { uid, name } = parentOf(request);
    const before = settled(parent.children, name);
    const after = await syncAnswer(tree, fleetRequest(request, before));
    const applied = (children: readonly unknown[]) => children.map((c) => asApplied(c, uid));
    const status = statusChange(parent.status ?? recordedPhase(request), after.status);
    impacts.push(parentImpact(parent.id, applied(before), applied(after.children), status));
  }
  return impacts;
}

describe(`upgrading to ${VERSION}`, () => {
  let tree: TreeCode;
  beforeAll(async () => {
    tree = await loadTree(ROOT);
  });

  it("has a previous release with goldens to upgrade from", () => {
    expect(PREVIOUS).toBeDefined();
  });

  // A sample the goldens hold without a Deployment would hide every change to its pods.
  it("has pods to compare for every sample", () => {
    const samples = readGoldens(PREVIOUS ?? "").parents.filter((p) => p.id.startsWith("sample "));
    const podless = samples.filter((p) => !p.children.some((c) => isPlainObject(c) && c.kind === "Deployment"));
    expect(samples.length).toBeGreaterThan(0);
    expect(podless.map((p) => p.id)).toEqual([]);
  });

  it(`changes exactly what releases/${VERSION}/${IMPACT_FILE} declares`, async () => {
    const from = PREVIOUS ?? "";
    const impacts = await impactsSince(from, tree);
    expectGoldenFile(join(RELEASES_DIR, VERSION, IMPACT_FILE), renderReport({ from, to: VERSION, impacts }));
  }, 120_000);

  // Once a release's goldens are cut, its code is frozen: a change of children starts the next version.
  const frozen = existsSync(join(RELEASES_DIR, VERSION, CHILDREN_FILE));
  (frozen ? it : it.skip)(
    `computes the children of ${VERSION}'s own goldens`,
    async () => {
      const changed = (await impactsSince(VERSION, tree)).filter((i) => i.changes.length > 0 || i.status !== undefined);
      expect(changed).toEqual([]);
    },
    120_000,
  );
});

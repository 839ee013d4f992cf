/**
 * The plain-path oracle: every sample and the whole recorded traffic (bench/traffic, all four
 * endpoints) sent to an app with every cache on and to one with `LLSD_CACHE_MB=0`
 * (oracle-apps.ts) give the same status and the same bytes.
 */
import { join } from "node:path";
import { readdirSync } from "node:fs";
import { ENDPOINTS, readTraffic } from "../../bench/traffic";
import type * as Caches from "../../lib/caches";
import type { SyncRequest, SyncResponse } from "../../lib/wire/metacontroller";
import { sampleRequest, stamped } from "../sync-builders";
import { twoApps } from "./oracle-apps";

const SAMPLES = join(__dirname, "..", "..", "samples");
const apps = twoApps();

describe("the two apps", () => {
  it("share no cache state: each has its own lib/caches, the plain one with every share at 0", () => {
    const [on, off] = [apps.on().caches, apps.off().caches];
    expect(off).not.toBe(on);
    for (const name of Object.keys(on.CACHE_SHARES) as Caches.CacheName[]) {
      expect([name, off.cacheBytes(name)]).toEqual([name, 0]);
      expect(on.cacheBytes(name)).toBeGreaterThan(0);
    }
  });
});

/** Each body sent to both apps in order; the calls whose status or bytes differ, and the plain answers. */
async function compared(path: string, bodies: readonly string[]): Promise<{ differing: number[]; plain: string[] }> {
  const differing: number[] = [];
  const plain: string[] = [];
  for (const [i, body] of bodies.entries()) {
    const [c, p] = await apps.both(path, body);
    if (c.status !== p.status || c.text !== p.text) differing.push(i);
    plain.push(p.text);
  }
  return { differing, plain };
}

/** The request once Metacontroller wrote the answer's status: the parent at a new resourceVersion. */
function fedBack(body: string, answer: string): string {
  const request = JSON.parse(body) as SyncRequest;
  const { status } = JSON.parse(answer) as SyncResponse;
  const version = `${String(request.parent.metadata.resourceVersion)}1`;
  return JSON.stringify({ ...request, parent: stamped({ ...request.parent, status }, version) });
}

describe("the recorded traffic, every record in order", () => {
  // Once each: none of these endpoints has a memo, and their records repeat what the caches hold.
  it.each(ENDPOINTS.filter((e) => e !== "sync"))(
    "/%s: the same status and bytes with every cache on as with none",
    async (endpoint) => {
      const bodies = readTraffic(endpoint).map((r) => r.body);
      expect((await compared(`/${endpoint}`, bodies)).differing).toEqual([]);
    },
    120_000,
  );

  // Every recorded answer reads the clock (the recorded statuses predate the Reconciling and
  // Stalled conditions), so the memo keeps none of them. Then each record again with its answer's
  // status written back, as Metacontroller writes it, sent twice in a row (a resync with nothing
  // changed): the memo keeps one answer per parent and answers the second.
  it("/sync, then each record with its answer written back, twice in a row: the same bytes, the memo answering", async () => {
    const recorded = readTraffic("sync").map((r) => r.body);
    const first = await compared("/sync", recorded);
    const settled = recorded.flatMap((body, i) => Array<string>(2).fill(fedBack(body, first.plain[i]!)));
    const reusedBefore = await apps.on().reused();
    const again = await compared("/sync", settled);
    expect([first.differing, again.differing]).toEqual([[], []]);
    expect((await apps.on().reused()) - reusedBefore).toBeGreaterThan(recorded.length / 2);
    expect(await apps.off().reused()).toBe(0);
  }, 180_000);
});

describe("every sample (llsd request sync)", () => {
  const samples = readdirSync(SAMPLES)
    .filter((f) => f.endsWith(".yaml"))
    .sort();

  it.each(samples)("%s: as built, then resynced to its steady state, the same bytes", async (file) => {
    const [cached, plain] = await apps.both("/sync", sampleRequest(join(SAMPLES, file)));
    expect(cached).toEqual(plain);
    const steady = await apps.steadySample(join(SAMPLES, file));
    const answers = [await apps.both("/sync", steady), await apps.both("/sync", steady)];
    for (const [c, p] of answers) expect(c).toEqual(p);
  });
});

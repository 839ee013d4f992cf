/**
 * The committed replay traffic (bench/traffic/, built by bench/traffic/subset.ts) keeps every
 * kind of request the full recording has: each /sync stratum, both /convert directions,
 * /validate CREATE and UPDATE. Reads the files only; no timing.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import {
  callOf,
  checkStatuses,
  medianOver,
  medianPair,
  PASSES,
  STEADY,
  WARM,
  type EndpointReplay,
} from "../../bench/replay";
import {
  convertDirection,
  ENDPOINTS,
  readTraffic,
  registryDependent,
  syncKind,
  TRAFFIC_DIR,
  validateOperation,
  type TrafficRecord,
} from "../../bench/traffic";

const traffic = Object.fromEntries(ENDPOINTS.map((e) => [e, readTraffic(e)])) as Record<
  (typeof ENDPOINTS)[number],
  TrafficRecord[]
>;
const sync = traffic.sync.map((r) => ({ record: r, kind: syncKind(r) }));
const count = <T>(xs: readonly T[], keep: (x: T) => boolean): number => xs.filter(keep).length;

describe("bench/traffic: the recorded requests the replay sends", () => {
  test("every endpoint's file, under 1.5 MB together", () => {
    expect(traffic.sync.length).toBeGreaterThanOrEqual(150);
    expect(traffic.customize).toHaveLength(303);
    expect(traffic.convert).toHaveLength(300);
    expect(traffic.validate).toHaveLength(200);
    const bytes = ENDPOINTS.reduce((n, e) => n + statSync(join(TRAFFIC_DIR, `${e}.jsonl.gz`)).size, 0);
    expect(bytes).toBeLessThan(1.5e6);
    for (const e of ENDPOINTS)
      for (const r of traffic[e]) expect([r.method, r.path.split("?")[0]]).toEqual(["POST", `/${e}`]);
  });

  test("/sync: first syncs Pending and Failed (SecretNotFound, MissingConfigLabels), resyncs of generation 1 and 2", () => {
    const first = sync.filter((s) => s.kind.first);
    expect(count(first, (s) => s.kind.phase === "")).toBeGreaterThan(0);
    expect(count(first, (s) => s.kind.reasons.includes("SecretNotFound"))).toBeGreaterThan(0);
    expect(count(first, (s) => s.kind.reasons.includes("MissingConfigLabels"))).toBeGreaterThan(0);
    expect(count(sync, (s) => !s.kind.first && s.kind.generation === 1 && !s.kind.annotated)).toBeGreaterThan(0);
    expect(count(sync, (s) => !s.kind.first && s.kind.generation === 2)).toBeGreaterThan(0);
  });

  test("/sync: the registry outage (RegistryUnavailable, annotated parents) and the call cut by the replica kill", () => {
    expect(count(sync, (s) => s.kind.reasons.includes("RegistryUnavailable"))).toBeGreaterThan(0);
    expect(count(sync, (s) => s.kind.annotated && !s.kind.first)).toBeGreaterThan(0);
    expect(count(traffic.sync, (r) => r.status === undefined)).toBe(1);
    expect(registryDependent(traffic.sync).size).toBeGreaterThan(0);
  });

  test("/sync: all 12 valid variants and the two invalid ones, each parent's resyncs kept together", () => {
    const variants = new Set(sync.map((s) => s.kind.variant));
    expect([...variants].sort()).toEqual(
      [
        ...["minimal", "vllm", "multi", "pg", "tls", "override", "prod", "complete", "external", "migr2", "migr1"],
        ...["image", "nosecret", "nolabels"],
      ].sort(),
    );
    const perParent = new Map<string, number>();
    for (const s of sync) perParent.set(s.kind.uid, (perParent.get(s.kind.uid) ?? 0) + 1);
    expect(Math.max(...perParent.values())).toBeGreaterThan(2);
  });

  test("/convert both directions, /validate CREATE and UPDATE", () => {
    const directions = new Set(traffic.convert.map(convertDirection));
    expect([...directions].sort()).toEqual([
      "llamastack.io/v1alpha1 → llamastack.io/v1alpha2",
      "llamastack.io/v1alpha2 → llamastack.io/v1alpha1",
    ]);
    expect(new Set(traffic.validate.map(validateOperation))).toEqual(new Set(["CREATE", "UPDATE"]));
  });

  test("a record is sent without host, with the body's byte length", () => {
    const call = callOf(traffic.customize[0]!);
    expect(call.headers).not.toHaveProperty("host");
    expect(call.headers["content-length"]).toBe(Buffer.byteLength(call.body));
  });

  test("answers are compared with the recorded status; a cut call is not a mismatch", () => {
    const records = traffic.sync.slice(0, 3);
    expect(checkStatuses(records, [200, 200, 200]).mismatches).toBe(0);
    expect(checkStatuses(records, [500, 200, 200]).mismatches).toBe(1);
  });
});

/** One pair's figures: only the ratios and the failed answers matter here. */
const aPair = (ratio: number, failed = 0, warmRatio = ratio + 0.2): EndpointReplay => ({
  endpoint: "convert",
  calls: 300,
  avgBodyBytes: 3600,
  coldMs: 1,
  warmMs: warmRatio,
  steadyMs: ratio,
  echoColdMs: 1,
  echoWarmMs: 1,
  echoSteadyMs: 1,
  ratio,
  warmRatio,
  budget: 1.5,
  pass: ratio <= 1.5 && failed === 0,
  coldReused: 0,
  mismatches: failed,
  registryMismatches: 0,
  cut: 0,
  failed,
  pairRatios: [ratio],
  pairWarmRatios: [warmRatio],
  passes: { service: [], echo: [] },
});

describe("medianPair: an endpoint's figure from its process pairs", () => {
  it.each([
    [[1.6, 1.4, 1.45], 1.45, true],
    [[1.4, 1.55, 1.6], 1.55, false],
    [[1.2, 1.7], 1.7, false],
    [[1.49], 1.49, true],
  ])("pairs with ratios %j read %d (pass %s)", (ratios, median, pass) => {
    const figure = medianPair(ratios.map((r) => aPair(r)));
    expect({
      ratio: figure.ratio,
      steadyMs: figure.steadyMs,
      pass: figure.pass,
      pairRatios: figure.pairRatios,
    }).toEqual({
      ratio: median,
      steadyMs: median,
      pass,
      pairRatios: ratios,
    });
  });

  it("fails when any pair answered wrongly, whatever the median pair's ratio", () => {
    const figure = medianPair([aPair(1.2), aPair(1.3, 2), aPair(1.25)]);
    expect({ ratio: figure.ratio, failed: figure.failed, pass: figure.pass }).toEqual({
      ratio: 1.25,
      failed: 2,
      pass: false,
    });
  });
});

describe("the steady figure: passes after the code has settled", () => {
  it("is the pair with the median steady ratio, whatever the warm ratios say, every pair's warm ratio beside it", () => {
    const figure = medianPair([aPair(1.3, 0, 2.0), aPair(1.2, 0, 1.4), aPair(1.4, 0, 1.1)]);
    expect({ ratio: figure.ratio, warmRatio: figure.warmRatio, pairWarmRatios: figure.pairWarmRatios }).toEqual({
      ratio: 1.3,
      warmRatio: 2.0,
      pairWarmRatios: [2.0, 1.4, 1.1],
    });
  });

  // Passes numbered from 1 (the cold one), each range inclusive: pass n costs n ms here.
  const numbered = Array.from({ length: PASSES }, (_, i) => i + 1);
  it.each([
    [{ from: 2, to: 8 }, 5],
    [{ from: 11, to: 20 }, 16],
    [{ from: 1, to: 1 }, 1],
    [{ from: 3, to: 4 }, 4],
  ])("the median over passes %j of passes costing 1, 2, 3 … ms is %d ms", (range, expected) => {
    expect(medianOver(numbered, range)).toBe(expected);
  });

  it("starts after the warm window ends and ends within the passes replayed", () => {
    expect(WARM.from).toBeGreaterThan(1);
    expect(STEADY.from).toBeGreaterThan(WARM.to);
    expect(STEADY.to).toBeLessThanOrEqual(PASSES);
  });
});

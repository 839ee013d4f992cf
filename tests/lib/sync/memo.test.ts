/**
 * The unchanged-parent memo (lib/sync/memo.ts) through `syncRemembered`: a reused answer is
 * byte for byte what a fresh sync of the same request and I/O answers gives, anything that
 * changed gets a fresh answer, and the memo stays within its bounds.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { reviewConversion } from "../../../lib/conversion/review";
import { bundledBaseConfig } from "../../../lib/distributions/bundled";
import { DEFAULT_DISTRIBUTIONS } from "../../../lib/distributions/table";
import type { LiveReport, LiveStatus } from "../../../lib/live/types";
import type { BaseConfigResolver } from "../../../lib/oci";
import { syncMemo, syncRemembered, syncWith } from "../../../lib/sync";
import { cacheBytesFromEnv } from "../../../hooks/sync-settings";
import { CACHE_SHARES } from "../../../lib/caches";
import { createSyncMemo, type SyncMemo } from "../../../lib/sync/memo";
import { plainSyncWith } from "../../plain-path";
import type { SyncDeps } from "../../../lib/sync/sync";
import type {
  KubeObject,
  ObjectMap,
  SerializedAnswer,
  SyncRequest,
  SyncResponse,
} from "../../../lib/wire/metacontroller";
import {
  afterApply,
  aParent,
  aRequest,
  aSecret,
  deps,
  NS,
  numberedParent,
  sampleRequest,
  stamped,
  steadyState,
  T0,
} from "../../sync-builders";

const SAMPLES = join(__dirname, "..", "..", "..", "samples");
const samples = readdirSync(SAMPLES)
  .filter((f) => f.endsWith(".yaml"))
  .sort();

const newMemo = (maxBytes = 64 * 2 ** 20, now: () => number = () => 0): SyncMemo =>
  createSyncMemo({ maxBytes, configBytes: 64 * 2 ** 20, idleMs: 60_000, now });

interface Io {
  readonly resolver?: BaseConfigResolver;
  readonly live?: LiveStatus;
}

/** The memo's answer (its bytes as text) and, for the same request, deps and I/O, a fresh one on the plain path (every cache off). */
async function both(
  request: SyncRequest,
  memo: SyncMemo,
  d: SyncDeps = deps(),
  io: Io = {},
): Promise<{ remembered: { body: string; summary: SerializedAnswer["summary"] }; fresh: string }> {
  const answer = await syncRemembered(request, d, { ...io, memo });
  const remembered = { body: answer.body.toString("utf8"), summary: answer.summary };
  const fresh = JSON.stringify(await plainSyncWith(request, d, io.resolver, io.live));
  return { remembered, fresh };
}

/** The request of a resync once everything settled, with these deps and I/O. */
const steady = (request: SyncRequest, d: SyncDeps = deps(), io: Io = {}): Promise<SyncRequest> =>
  steadyState(request, (r) => syncWith(r, d, io.resolver, io.live));

function withObject(map: ObjectMap | undefined, o: KubeObject): ObjectMap {
  const group = `${o.kind}.${o.apiVersion}`;
  return { ...map, [group]: { ...map?.[group], [`${o.metadata.namespace ?? NS}/${o.metadata.name}`]: o } };
}

function edited(map: ObjectMap | undefined, kind: string, edit: (o: KubeObject) => KubeObject): ObjectMap {
  return Object.fromEntries(
    Object.entries(map ?? {}).map(([group, objects]) => [
      group,
      Object.fromEntries(Object.entries(objects).map(([key, o]) => [key, o.kind === kind ? edit(o) : o])),
    ]),
  );
}

/** The parent as the apiserver serves it at v1alpha1: the same object, uid and resourceVersion. */
function atV1alpha1(parent: KubeObject): KubeObject {
  const review = reviewConversion({
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "ConversionReview",
    request: { uid: "u", desiredAPIVersion: "llamastack.io/v1alpha1", objects: [parent] },
  });
  const [converted] = review.response.response.convertedObjects as KubeObject[];
  if (converted?.apiVersion !== "llamastack.io/v1alpha1") throw new Error("the parent does not convert to v1alpha1");
  return converted;
}

const vllm = { provider: "vllm", endpoint: "http://vllm:8000", apiKey: { name: "creds", key: "token" } };
const SPEC = { distribution: { name: "starter" }, providers: { inference: vllm } };
const firstRequest = (): SyncRequest =>
  aRequest(stamped(aParent(SPEC)), [], [stamped(aSecret("creds", { token: "t0ken" }))]);

describe("syncRemembered on every sample", () => {
  it.each(samples)("%s: a resync of an unchanged parent is answered from the memo, byte for byte", async (file) => {
    const request = await steady(sampleRequest(join(SAMPLES, file)));
    const memo = newMemo();
    const first = await both(request, memo);
    const second = await both(request, memo);
    expect([first.remembered.summary.reused, second.remembered.summary.reused]).toEqual([0, 1]);
    expect(first.remembered.body).toBe(first.fresh);
    expect(second.remembered.body).toBe(second.fresh);
    expect(second.remembered.summary.children).toBe((JSON.parse(second.fresh) as SyncResponse).children.length);
  });
});

describe("what changed gets a fresh answer", () => {
  const report = (version: string): LiveReport => ({ url: "http://demo", version, providers: [], problems: [] });
  const liveAnswering = (answer: () => LiveReport): LiveStatus => ({ check: () => Promise.resolve(answer()) });
  const changes: [string, (r: SyncRequest) => SyncRequest, (d: SyncDeps) => SyncDeps][] = [
    [
      "the spec (a new parent resourceVersion)",
      (r) => ({ ...r, parent: stamped({ ...r.parent, spec: { ...SPEC, workload: { replicas: 2 } } }, "8") }),
      (d) => d,
    ],
    [
      "a child (the Deployment scaled down)",
      (r) => ({
        ...r,
        children: edited(r.children, "Deployment", (o) => stamped({ ...o, status: { readyReplicas: 0 } }, "43")),
      }),
      (d) => d,
    ],
    [
      "a related Secret (rotated)",
      (r) => ({
        ...r,
        related: edited(r.related, "Secret", (o) =>
          stamped({ ...aSecret("creds", { token: "n3w" }), metadata: o.metadata }, "8"),
        ),
      }),
      (d) => d,
    ],
    [
      "a related Secret edited under the same resourceVersion (an etcd restore hands versions out again)",
      (r) => ({
        ...r,
        related: edited(r.related, "Secret", (o) => ({
          ...aSecret("creds", { token: "r3stored" }),
          metadata: o.metadata,
        })),
      }),
      (d) => d,
    ],
    [
      "a related object added",
      (r) => ({ ...r, related: withObject(r.related, stamped(aSecret("other", { a: "b" }))) }),
      (d) => d,
    ],
    [
      "a child gone",
      (r) => ({
        ...r,
        children: Object.fromEntries(
          Object.entries(r.children ?? {}).filter(([group]) => !group.startsWith("Service.")),
        ),
      }),
      (d) => d,
    ],
    ["the parent being finalized", (r) => ({ ...r, finalizing: true }), (d) => d],
    [
      "the distribution table (the overrides file changed)",
      (r) => r,
      (d) => ({ ...d, distributions: DEFAULT_DISTRIBUTIONS.map((e) => ({ ...e })) }),
    ],
    [
      "an image-override problem",
      (r) => r,
      (d) => ({ ...d, imageOverrideProblems: ["DISTRIBUTION_IMAGES_FILE: not JSON"] }),
    ],
    ["the operator version", (r) => r, (d) => ({ ...d, operatorVersion: "9.9.9" })],
    ["the hooks' namespace (each NetworkPolicy admits it)", (r) => r, (d) => ({ ...d, hooksNamespace: "ops" })],
    ["how servers are exposed (Ingress or Route)", (r) => r, (d) => ({ ...d, exposeWith: "route" })],
    [
      "the default Gateway (LLSD_GATEWAY_PARENT)",
      (r) => r,
      (d) => ({ ...d, gatewayParent: { namespace: "gateways", name: "public" } }),
    ],
    [
      "ServiceMonitors turned on (the server-monitoring component)",
      (r) => r,
      (d) => ({ ...d, serverMonitoring: { serviceMonitors: true, scraperNamespace: "monitoring" } }),
    ],
    [
      "the scraper namespace",
      (r) => r,
      (d) => ({ ...d, serverMonitoring: { serviceMonitors: false, scraperNamespace: "prometheus" } }),
    ],
    [
      "the parent sent at v1alpha1 with the same uid and resourceVersion (its status is shaped by its version)",
      (r) => ({ ...r, parent: atV1alpha1(r.parent) }),
      (d) => d,
    ],
  ];

  it.each(changes)("%s", async (_, change, changeDeps) => {
    const request = await steady(firstRequest());
    const memo = newMemo();
    await both(request, memo);
    expect((await both(request, memo)).remembered.summary.reused).toBe(1);
    const next = await both(change(request), memo, changeDeps(deps()));
    expect(next.remembered.summary.reused).toBe(0);
    expect(next.remembered.body).toBe(next.fresh);
  });

  /** The same uid and resourceVersion under another name or namespace: a copy, or a recreated object in a request put together by hand. */
  const moved = (o: KubeObject, to: { readonly name?: string; readonly namespace?: string }): KubeObject => ({
    ...o,
    metadata: { ...o.metadata, ...to },
  });
  const sameVersionElsewhere: [string, (r: SyncRequest) => SyncRequest][] = [
    ["the parent under another name", (r) => ({ ...r, parent: moved(r.parent, { name: "other" }) })],
    ["the parent in another namespace", (r) => ({ ...r, parent: moved(r.parent, { namespace: "elsewhere" }) })],
    [
      "a child under another name",
      (r) => ({ ...r, children: edited(r.children, "Deployment", (o) => moved(o, { name: "other" })) }),
    ],
    [
      "a related Secret in another namespace",
      (r) => ({ ...r, related: edited(r.related, "Secret", (o) => moved(o, { namespace: "elsewhere" })) }),
    ],
  ];

  it.each(sameVersionElsewhere)(
    "%s, with the same uid and resourceVersion, does not share the answer",
    async (_, change) => {
      const request = await steady(firstRequest());
      const memo = newMemo();
      await both(request, memo);
      expect((await both(request, memo)).remembered.summary.reused).toBe(1);
      const next = await both(change(request), memo);
      expect(next.remembered.summary.reused).toBe(0);
      expect(next.remembered.body).toBe(next.fresh);
    },
  );

  it("a parent renamed with the same uid and resourceVersion gets its own children's names", async () => {
    const request = await steady(firstRequest());
    const memo = newMemo();
    const first = await both(request, memo);
    const renamed = await both({ ...request, parent: moved(request.parent, { name: "renamed" }) }, memo);
    expect(renamed.remembered.body).not.toBe(first.remembered.body);
    expect(renamed.remembered.body).toContain('"name":"renamed"');
  });

  it("the running server's answer (a new version)", async () => {
    let version = "0.7.1";
    const io = { live: liveAnswering(() => report(version)) };
    const request = await steady(firstRequest(), deps(), io);
    const memo = newMemo();
    await both(request, memo, deps(), io);
    expect((await both(request, memo, deps(), io)).remembered.summary.reused).toBe(1);
    version = "0.7.2";
    const next = await both(request, memo, deps(), io);
    expect(next.remembered.summary.reused).toBe(0);
    expect(next.remembered.body).toBe(next.fresh);
    expect(next.fresh).toContain("0.7.2");
  });

  it("the running server reporting a Secret value: the memo's keys hold neither it nor its base64, and a new report is still told apart", async () => {
    const SECRET = "t0ken-canary-5e1d";
    let config = { api_token: SECRET };
    const health = { status: "OK", message: "" };
    const provider = () => ({ api: "inference", provider_id: "vllm", provider_type: "remote::vllm", config, health });
    const io = { live: liveAnswering(() => ({ ...report("0.7.1"), providers: [provider()] })) };
    const request = await steady(
      aRequest(stamped(aParent(SPEC)), [], [stamped(aSecret("creds", { token: SECRET }))]),
      deps(),
      io,
    );
    const memo = newMemo();
    await both(request, memo, deps(), io);
    expect((await both(request, memo, deps(), io)).remembered.summary.reused).toBe(1);
    const entry = memo.get(request.parent.metadata.uid!);
    const keys = `${entry?.parentKey}\n${entry?.answer?.key}`;
    expect(entry?.answer?.key).toContain('"Secret.v1"'); // the key holds the related Secret (by name, uid, version, fingerprint)
    for (const form of [SECRET, Buffer.from(SECRET).toString("base64")]) expect(keys).not.toContain(form);
    config = { api_token: "another-reported-value" };
    const next = await both(request, memo, deps(), io);
    expect(next.remembered.summary.reused).toBe(0);
    expect(next.remembered.body).toBe(next.fresh);
  });

  it("the image's base config (the tag moved to another digest)", async () => {
    let digest = `sha256:${"a".repeat(64)}`;
    // The image's own line (1.3, the starter's): a base of another line is refused (lib/config/base-line.ts).
    const config = bundledBaseConfig("starter", "1.3")!;
    const resolver: BaseConfigResolver = {
      resolve: () => Promise.resolve({ kind: "found", config, digest, source: "oci-label", labelKind: "base64" }),
    };
    const request = await steady(firstRequest(), deps(), { resolver });
    const memo = newMemo();
    await both(request, memo, deps(), { resolver });
    expect((await both(request, memo, deps(), { resolver })).remembered.summary.reused).toBe(1);
    digest = `sha256:${"b".repeat(64)}`;
    const next = await both(request, memo, deps(), { resolver });
    expect(next.remembered.summary.reused).toBe(0);
    expect(next.remembered.body).toBe(next.fresh);
    expect(next.fresh).toContain(digest);
  });
});

describe("what is never reused", () => {
  const unstamped: [string, (r: SyncRequest) => SyncRequest][] = [
    [
      "a parent without resourceVersion (curl, llsd request)",
      (r) => ({ ...r, parent: { ...r.parent, metadata: { ...r.parent.metadata, resourceVersion: undefined } } }),
    ],
    [
      "a related object without uid",
      (r) => ({
        ...r,
        related: edited(r.related, "Secret", (o) => ({ ...o, metadata: { ...o.metadata, uid: undefined } })),
      }),
    ],
    [
      "a child without resourceVersion",
      (r) => ({
        ...r,
        children: edited(r.children, "Deployment", (o) => ({ ...o, metadata: { ...o.metadata, resourceVersion: "" } })),
      }),
    ],
  ];

  it.each(unstamped)("%s", async (_, strip) => {
    const request = strip(await steady(firstRequest()));
    const memo = newMemo();
    const answers = [await both(request, memo), await both(request, memo)];
    expect(answers.map((a) => a.remembered.summary.reused)).toEqual([0, 0]);
    expect(answers.map((a) => a.remembered.body === a.fresh)).toEqual([true, true]);
    expect(memo.stats().entries).toBe(0);
  });

  it("an answer that read the clock (a condition flipped): the next call reads it again", async () => {
    const request = afterApply(firstRequest(), await syncWith(firstRequest(), deps(), undefined)); // status from before the Deployment was ready
    const memo = newMemo();
    const at = (iso: string): SyncDeps => deps(new Date(iso));
    const first = await both(request, memo, at("2026-11-22T10:00:00Z"));
    const second = await both(request, memo, at("2026-11-22T10:05:00Z"));
    expect([first.remembered.summary.reused, second.remembered.summary.reused]).toEqual([0, 0]);
    expect(second.remembered.body).toBe(second.fresh);
    expect(second.fresh).toContain("2026-11-22T10:05:00Z");
  });
});

describe("bounds", () => {
  /**
   * Parent number `i` at its steady state (only an answer that read no clock is kept): names
   * and uids of one width, so every entry has the same size.
   */
  const uidOf = (i: number): Promise<SyncRequest> =>
    numberedParent(i, SPEC, (request) => syncWith(request, deps(), undefined));
  /** The bytes one parent's entry takes (never 0: a loop sized by it must end). */
  const entryBytes = async (): Promise<number> => {
    const probe = newMemo();
    await syncRemembered(await uidOf(0), deps(), { memo: probe });
    expect(probe.stats().bytes).toBeGreaterThan(0);
    return probe.stats().bytes;
  };

  it("holds at most maxBytes, dropping the least recently used parent", async () => {
    const one = await entryBytes();
    const memo = newMemo(one * 40);
    for (let i = 0; i < 45; i++) await syncRemembered(await uidOf(i), deps(), { memo });
    expect(memo.stats()).toEqual({ entries: 40, bytes: expect.any(Number) });
    expect(memo.stats().bytes).toBeLessThanOrEqual(one * 40);
    expect(memo.get("uid-0044")).toBeDefined();
    expect(memo.get("uid-0000")).toBeUndefined();
  });

  it("drops an entry unused for idleMs (a deleted parent)", async () => {
    let now = 0;
    const memo = createSyncMemo({ maxBytes: 2 ** 30, idleMs: 60_000, now: () => now });
    await syncRemembered(await uidOf(1), deps(), { memo });
    now = 60_001;
    await syncRemembered(await uidOf(2), deps(), { memo });
    expect([memo.get("uid-0001"), memo.get("uid-0002")].map(Boolean)).toEqual([false, true]);
  });

  it("keeps one entry per parent however often it changes", async () => {
    const memo = newMemo();
    let request = await uidOf(1);
    for (let v = 10; v < 20; v++) {
      request = { ...request, parent: stamped(request.parent, String(v)) };
      await syncRemembered(request, deps(), { memo });
    }
    expect(memo.stats().entries).toBe(1);
  });

  it("keeps a parent's validated spec only once it comes back at the same version", async () => {
    const memo = newMemo();
    const steady = await uidOf(3);
    const entry = () => memo.get("uid-0003");
    const sights = [];
    for (let i = 0; i < 3; i++) {
      const answer = await syncRemembered(steady, deps(), { memo });
      sights.push({ reused: answer.summary.reused, checked: entry()?.checked, bytes: memo.stats().bytes });
    }
    expect(sights.map((s) => [s.reused, s.checked !== undefined])).toEqual([
      [0, false],
      [1, true],
      [1, true],
    ]);
    expect(sights[1]!.bytes).toBeGreaterThan(sights[0]!.bytes);
    expect(Object.isFrozen(sights[1]!.checked)).toBe(true);
    expect(sights[2]!.checked).toBe(sights[1]!.checked); // the third call did not validate again
    const next = { ...steady, parent: stamped(steady.parent, "99") };
    await syncRemembered(next, deps(), { memo });
    expect(entry()?.checked).toBeUndefined();
    expect(memo.stats().entries).toBe(1);
  });

  it("keeps no entry larger than 1/32 of it (a huge spec is synced every time instead)", async () => {
    const memo = newMemo((await entryBytes()) * 32 - 32);
    const steady = await uidOf(0);
    const answers = [await syncRemembered(steady, deps(), { memo }), await syncRemembered(steady, deps(), { memo })];
    expect(answers.map((a) => a.summary.reused)).toEqual([0, 0]);
    expect(memo.stats()).toEqual({ entries: 0, bytes: 0 });
  });

  /** The memo's bytes under LLSD_CACHE_MB=`mb`: its share of the one budget. */
  const memoBytes = (mb: string): number => cacheBytesFromEnv({ LLSD_CACHE_MB: mb }) * CACHE_SHARES["sync memo"];

  it.each([
    ["2", "2"],
    ["4", "4"],
  ])("LLSD_CACHE_MB=%s bounds the memo by its share", async (_, value) => {
    const maxBytes = memoBytes(value);
    const fits = Math.floor(maxBytes / (await entryBytes()));
    const memo = syncMemo(maxBytes)!;
    for (let i = 0; i < fits + 3; i++) await syncRemembered(await uidOf(i), deps(), { memo });
    expect(memo.stats().entries).toBe(fits);
  });

  it.each([
    ["0", undefined],
    ["-1", /LLSD_CACHE_MB must be a number of MiB/],
    ["lots", /LLSD_CACHE_MB must be a number of MiB/],
  ])("LLSD_CACHE_MB=%s", (value, error) => {
    if (error) expect(() => memoBytes(value)).toThrow(error);
    else expect(syncMemo(memoBytes(value))).toBeUndefined();
  });
});

describe("property: whatever happens in the cluster, the memo answers as a fresh sync does", () => {
  type Step = "resync" | "apply" | "scaleDown" | "editSpec" | "rotateSecret" | "tick";
  const step = fc.constantFrom<Step>("resync", "apply", "scaleDown", "editSpec", "rotateSecret", "tick");

  it("for any sequence of events", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        const memo = newMemo();
        let now = T0.getTime();
        let version = 100;
        let request = firstRequest();
        for (const s of steps) {
          const d = deps(new Date(now));
          const { remembered, fresh } = await both(request, memo, d);
          expect(remembered.body).toBe(fresh);
          const v = String(++version);
          if (s === "apply") request = afterApply(request, JSON.parse(fresh) as SyncResponse, v);
          if (s === "scaleDown")
            request = {
              ...request,
              children: edited(request.children, "Deployment", (o) =>
                stamped({ ...o, status: { readyReplicas: 0 } }, v),
              ),
            };
          if (s === "editSpec")
            request = {
              ...request,
              parent: stamped({ ...request.parent, spec: { ...SPEC, workload: { replicas: (version % 3) + 1 } } }, v),
            };
          if (s === "rotateSecret")
            request = {
              ...request,
              related: edited(request.related, "Secret", (o) =>
                stamped({ ...o, data: { token: Buffer.from(v).toString("base64") } }, v),
              ),
            };
          if (s === "tick") now += 60_000;
        }
      }),
      { numRuns: 40 },
    );
  });
});

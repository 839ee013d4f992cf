/**
 * The plain-path oracle: every sample and the whole recorded traffic (bench/traffic, all four
 * endpoints) sent through the app twice — every cache on, and `LLSD_CACHE_MB=0` — give the same
 * status and the same bytes; so do related ConfigMaps (override config, CA bundle) edited under
 * the same resourceVersion, or copied with their uid into another namespace. Each app is built
 * in a module registry of its own, so the plain one shares no cache state with the cached one.
 * Image reading and live status are off (no network); the clock is pinned.
 */
import { Agent, createServer, type Server } from "node:http";
import { join } from "node:path";
import { readdirSync } from "node:fs";
import request from "supertest";
import { ENDPOINTS, readTraffic } from "../../bench/traffic";
import { portOf } from "../../hooks/service";
import type * as Caches from "../../lib/caches";
import type { KubeObject, ObjectMap, SyncRequest, SyncResponse } from "../../lib/wire/metacontroller";
import { isolated } from "../plain-path";
import { sampleRequest, stamped, stampedMap, steadyState } from "../sync-builders";
import { bodyOf, ODH_CA, RSA_CA } from "../lib/sync/certificates";

const SETTINGS = { LLSD_READ_IMAGE_LABELS: "false", LLSD_LIVE_STATUS: "false" };
const SAMPLES = join(__dirname, "..", "..", "samples");

interface Side {
  readonly server: Server;
  /** Keep-alive, as Metacontroller and the apiserver call. */
  readonly agent: Agent;
  readonly caches: typeof Caches;
  readonly reused: () => Promise<number>;
}

/** The service's app and handlers as hooks/main.ts builds them from `env`, in a registry of its own. */
function sideWith(env: NodeJS.ProcessEnv): Promise<Side> {
  return isolated(async () => {
    const caches = await import("../../lib/caches");
    const { createApp } = await import("../../hooks/app");
    const { productionHandlers } = await import("../../hooks/handlers");
    const { createLogger } = await import("../../hooks/logger");
    const { createMetrics } = await import("../../hooks/metrics");
    const logger = createLogger({ level: "silent" });
    const metrics = createMetrics();
    const app = createApp({ handlers: productionHandlers(logger, env), logger, metrics, isReady: () => true });
    const reused = async () => {
      const text = await metrics.registry.metrics();
      return Number(/^llsd_hook_reused_total\{hook="sync"\} (\d+)$/m.exec(text)?.[1] ?? 0);
    };
    const server = createServer(app);
    await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
    return { server, agent: new Agent({ keepAlive: true, maxSockets: 1 }), caches, reused };
  });
}

let on: Side;
let off: Side;

beforeAll(async () => {
  // Only Date is faked: the clock stands still, timers and I/O run as they do.
  jest.useFakeTimers({
    now: new Date("2026-11-27T12:00:00Z"),
    doNotFake: [
      "hrtime",
      "nextTick",
      "performance",
      "queueMicrotask",
      "setImmediate",
      "clearImmediate",
      "setInterval",
      "clearInterval",
      "setTimeout",
      "clearTimeout",
    ],
  });
  on = await sideWith(SETTINGS);
  off = await sideWith({ ...SETTINGS, LLSD_CACHE_MB: "0" });
});

afterAll(() => {
  jest.useRealTimers();
  for (const side of [on, off]) {
    side.agent.destroy();
    side.server.close();
  }
});

interface Answer {
  readonly status: number;
  readonly text: string;
}

async function post(side: Side, path: string, body: string | object): Promise<Answer> {
  const port = portOf(side.server);
  const text = typeof body === "string" ? body : JSON.stringify(body);
  const answer = await request(`http://127.0.0.1:${port}`)
    .post(path)
    .agent(side.agent)
    .set("content-type", "application/json")
    .send(text);
  return { status: answer.status, text: answer.text };
}

/** The cached app's answer and the plain app's, in that order (the cached one sees every call first). */
async function both(path: string, body: string | object): Promise<[Answer, Answer]> {
  const cached = await post(on, path, body);
  return [cached, await post(off, path, body)];
}

describe("the two apps", () => {
  it("share no cache state: each has its own lib/caches, the plain one with every share at 0", () => {
    expect(off.caches).not.toBe(on.caches);
    for (const name of Object.keys(on.caches.CACHE_SHARES) as Caches.CacheName[]) {
      expect([name, off.caches.cacheBytes(name)]).toEqual([name, 0]);
      expect(on.caches.cacheBytes(name)).toBeGreaterThan(0);
    }
  });
});

/** Each body sent to both apps in order; the calls whose status or bytes differ, and the plain answers. */
async function compared(path: string, bodies: readonly string[]): Promise<{ differing: number[]; plain: string[] }> {
  const differing: number[] = [];
  const plain: string[] = [];
  for (const [i, body] of bodies.entries()) {
    const [c, p] = await both(path, body);
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
    const reusedBefore = await on.reused();
    const again = await compared("/sync", settled);
    expect([first.differing, again.differing]).toEqual([[], []]);
    expect((await on.reused()) - reusedBefore).toBeGreaterThan(recorded.length / 2);
    expect(await off.reused()).toBe(0);
  }, 180_000);
});

const samples = readdirSync(SAMPLES)
  .filter((f) => f.endsWith(".yaml"))
  .sort();

/** A request's related objects rewritten by `edit` (kind, data) → data. */
function relatedEdited(r: SyncRequest, edit: (o: KubeObject) => KubeObject): SyncRequest {
  const related: ObjectMap = Object.fromEntries(
    Object.entries(r.related ?? {}).map(([group, objects]) => [
      group,
      Object.fromEntries(Object.entries(objects).map(([key, o]) => [key, edit(o)])),
    ]),
  );
  return { ...r, related };
}

describe("every sample (llsd request sync)", () => {
  it.each(samples)("%s: as built, then resynced to its steady state, the same bytes", async (file) => {
    const built = sampleRequest(join(SAMPLES, file));
    const [cached, plain] = await both("/sync", built);
    expect(cached).toEqual(plain);
    const first = { ...built, parent: stamped(built.parent), related: stampedMap(built.related) };
    const steady = await steadyState(first, async (r) => JSON.parse((await both("/sync", r))[1].text) as SyncResponse);
    const answers = [await both("/sync", steady), await both("/sync", steady)];
    for (const [c, p] of answers) expect(c).toEqual(p);
  });
});

/** A CA certificate that `pem` does not hold. */
const anotherCa = (pem: string): string => (pem.includes(bodyOf(RSA_CA).slice(0, 64)) ? ODH_CA : RSA_CA);

/** A ConfigMap's content edited: each certificate key holds another CA, an override config another token limit. */
function contentEdited(o: KubeObject): KubeObject {
  if (o.kind !== "ConfigMap") return o;
  const data = Object.entries((o.data ?? {}) as Record<string, string>).map(([key, text]) => [
    key,
    text.includes("BEGIN CERTIFICATE") ? anotherCa(text) : text.replace("max_tokens: 4096", "max_tokens: 2048"),
  ]);
  return { ...o, data: Object.fromEntries(data) };
}

/** The same request in namespace team-b, for another parent: every object keeps its uid and resourceVersion. */
function inTeamB(r: SyncRequest): SyncRequest {
  const move = (o: KubeObject): KubeObject => ({ ...o, metadata: { ...o.metadata, namespace: "team-b" } });
  const moved = (map: ObjectMap | undefined): ObjectMap =>
    Object.fromEntries(
      Object.entries(map ?? {}).map(([group, objects]) => [
        group,
        Object.fromEntries(Object.values(objects).map((o) => [`team-b/${o.metadata.name}`, move(o)])),
      ]),
    );
  const parent = move(r.parent);
  return {
    ...r,
    parent: { ...parent, metadata: { ...parent.metadata, uid: "uid-team-b" } },
    children: moved(r.children),
    related: moved(r.related),
  };
}

const withConfigMaps = samples.filter(
  (file) => Object.keys(sampleRequest(join(SAMPLES, file)).related?.["ConfigMap.v1"] ?? {}).length > 0,
);

describe("related ConfigMaps edited under the same resourceVersion, or copied with their uid", () => {
  const shown = new Set<string>();
  it("the samples with ConfigMaps include an override config and a CA bundle", () => {
    expect(withConfigMaps).toEqual(expect.arrayContaining(["networking-tls.yaml", "override-config.yaml"]));
  });

  it.each(withConfigMaps)("%s: the cached app answers each as the plain app does", async (file) => {
    const built = sampleRequest(join(SAMPLES, file));
    const first = { ...built, parent: stamped(built.parent), related: stampedMap(built.related) };
    const steady = await steadyState(first, async (r) => JSON.parse((await both("/sync", r))[1].text) as SyncResponse);
    const kept = await both("/sync", steady); // now in every cache of the cached app
    const edited = relatedEdited(steady, contentEdited);
    const sequence: [string, SyncRequest][] = [
      ["copied into team-b with the same uids and versions, edited there", inTeamB(edited)],
      ["edited under the same versions (the memo's key)", edited],
      [
        "edited, the parent at a new version (the parsed-ConfigMap caches' key)",
        { ...edited, parent: stamped(edited.parent, "8") },
      ],
    ];
    for (const [what, r] of sequence) {
      const [cached, plain] = await both("/sync", r);
      expect([what, cached]).toEqual([what, plain]);
      if (plain.text !== kept[1].text) shown.add(file); // the edit shows in the answer
    }
  });

  // A parent that fails before reading its ConfigMaps (complete.yaml: its external provider needs image reading) shows no edit.
  it("the edits show in the answers of the override config and CA bundle samples", () => {
    expect([...shown]).toEqual(expect.arrayContaining(["networking-tls.yaml", "override-config.yaml"]));
  });
});

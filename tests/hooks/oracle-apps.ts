/**
 * Two apps for the plain-path oracle (caches-oracle*.test.ts), built as hooks/main.ts builds the
 * service: one with every cache on, one with `LLSD_CACHE_MB=0`, each in a module registry of
 * its own so the plain one shares no cache state with the cached one. Image reading and live
 * status are off (no network); only Date is faked, so the clock stands still.
 */
import { Agent, createServer, type Server } from "node:http";
import request from "supertest";
import { portOf } from "../../hooks/service";
import type * as Caches from "../../lib/caches";
import type { SyncRequest, SyncResponse } from "../../lib/wire/metacontroller";
import { isolated } from "../plain-path";
import { sampleRequest, stamped, stampedMap, steadyState } from "../sync-builders";

const SETTINGS = { LLSD_READ_IMAGE_LABELS: "false", LLSD_LIVE_STATUS: "false" };

export interface Side {
  readonly server: Server;
  /** Keep-alive, as Metacontroller and the apiserver call. */
  readonly agent: Agent;
  readonly caches: typeof Caches;
  /** `/sync` calls the memo answered so far. */
  readonly reused: () => Promise<number>;
}

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

export interface Answer {
  readonly status: number;
  readonly text: string;
}

async function post(side: Side, path: string, body: string | object): Promise<Answer> {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  const answer = await request(`http://127.0.0.1:${portOf(side.server)}`)
    .post(path)
    .agent(side.agent)
    .set("content-type", "application/json")
    .send(text);
  return { status: answer.status, text: answer.text };
}

export interface TwoApps {
  readonly on: () => Side;
  readonly off: () => Side;
  /** The cached app's answer and the plain app's, in that order (the cached one sees every call first). */
  both(path: string, body: string | object): Promise<[Answer, Answer]>;
  /** A sample's request stamped and resynced (through both apps) until its status settles. */
  steadySample(file: string): Promise<SyncRequest>;
}

const ONLY_DATE = ["hrtime", "nextTick", "performance", "queueMicrotask", "setImmediate", "clearImmediate"] as const;
const TIMERS = ["setInterval", "clearInterval", "setTimeout", "clearTimeout"] as const;

/** Both apps, started before the file's tests and stopped after them. */
export function twoApps(): TwoApps {
  const sides: Side[] = [];
  beforeAll(async () => {
    jest.useFakeTimers({ now: new Date("2026-11-27T12:00:00Z"), doNotFake: [...ONLY_DATE, ...TIMERS] });
    sides.push(await sideWith(SETTINGS), await sideWith({ ...SETTINGS, LLSD_CACHE_MB: "0" }));
  });
  afterAll(() => {
    jest.useRealTimers();
    for (const side of sides) {
      side.agent.destroy();
      side.server.close();
    }
  });
  const side = (i: number): Side => {
    const started = sides[i];
    if (!started) throw new Error("the apps start in beforeAll");
    return started;
  };
  const both = async (path: string, body: string | object): Promise<[Answer, Answer]> => {
    const cached = await post(side(0), path, body);
    return [cached, await post(side(1), path, body)];
  };
  const steadySample = (file: string): Promise<SyncRequest> => {
    const built = sampleRequest(file);
    const first = { ...built, parent: stamped(built.parent), related: stampedMap(built.related) };
    return steadyState(first, async (r) => JSON.parse((await both("/sync", r))[1].text) as SyncResponse);
  };
  return { on: () => side(0), off: () => side(1), both, steadySample };
}

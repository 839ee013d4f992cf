/**
 * Shared by the reliability tests: the hook app behind a real HTTP listener with a keep-alive
 * client (tens of thousands of requests in seconds; supertest opens a connection per request),
 * a captured logger, and builders for the objects a sync request refers to.
 */
import { Agent, createServer, request, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createApp, type AppDeps, type HookHandlers } from "../../hooks/app";
import { createLogger } from "../../hooks/logger";
import { createMetrics } from "../../hooks/metrics";
import { customize } from "../../lib/sync/customize";
import { sync } from "../../lib/sync/sync";
import type { KubeObject } from "../../lib/wire/metacontroller";
import { fixtureFound } from "../external-fixtures";
import { deps, NS } from "../sync-builders";

export interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
  readonly ms: number;
}

/** Plain functions over one agent (no `this`): they may be passed around on their own. */
export interface Client {
  readonly send: (
    method: string,
    path: string,
    body?: string | Buffer,
    headers?: Record<string, string>,
  ) => Promise<Answer>;
  readonly post: (path: string, body: unknown, headers?: Record<string, string>) => Promise<Answer>;
  readonly close: () => void;
}

/**
 * A keep-alive HTTP client for 127.0.0.1:`port`. A request that takes longer than `timeoutMs`
 * rejects ("hung"), so a stuck handler fails the test instead of timing out jest.
 */
export function httpClient(port: number, options: { timeoutMs?: number; maxSockets?: number } = {}): Client {
  const agent = new Agent({ keepAlive: true, maxSockets: options.maxSockets ?? 8 });
  const timeoutMs = options.timeoutMs ?? 10_000;
  function send(
    method: string,
    path: string,
    body?: string | Buffer,
    headers: Record<string, string> = {},
  ): Promise<Answer> {
    const started = performance.now();
    return new Promise<Answer>((resolve, reject) => {
      const outgoing = {
        ...headers,
        ...(body === undefined ? {} : { "content-length": String(Buffer.byteLength(body)) }),
      };
      const req = request({ host: "127.0.0.1", port, path, method, agent, headers: outgoing }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString("utf8"),
            ms: performance.now() - started,
          }),
        );
        res.on("error", reject);
      });
      req.setTimeout(timeoutMs, () =>
        req.destroy(new Error(`${method} ${path} hung: no answer within ${timeoutMs} ms`)),
      );
      req.on("error", reject);
      req.end(body);
    });
  }
  return {
    send,
    post: (path, body, headers = {}) =>
      send("POST", path, typeof body === "string" ? body : JSON.stringify(body), {
        "content-type": "application/json",
        ...headers,
      }),
    close: () => agent.destroy(),
  };
}

/** A client whose `close` also stops the listener, hence asynchronous. */
export interface Harness extends Omit<Client, "close"> {
  readonly port: number;
  /** Every log line so far, raw. */
  readonly logText: () => string;
  readonly clearLogs: () => void;
  close(): Promise<void>;
}

/** The pure hooks (no registry): what the app serves when image labels are off. */
export const PURE_HANDLERS: HookHandlers = {
  // External providers' metadata stands in for what the I/O step reads from their images.
  sync: (r) => Promise.resolve(sync(r, deps(), fixtureFound((r.parent as { spec?: unknown }).spec))),
  customize: (r) => Promise.resolve(customize(r)),
};

/** `createApp(...)` in this process, on 127.0.0.1:0, with a captured logger and a keep-alive client. */
export async function startHarness(
  options: {
    handlers?: HookHandlers;
    logLevel?: string;
    requestTimeoutMs?: number;
    maxSockets?: number;
    app?: Partial<AppDeps>;
  } = {},
): Promise<Harness> {
  let raw: string[] = [];
  const logger = createLogger({
    level: options.logLevel ?? "info",
    destination: { write: (line: string) => void raw.push(line) },
  });
  const app = createApp({
    handlers: options.handlers ?? PURE_HANDLERS,
    logger,
    metrics: createMetrics(),
    isReady: () => true,
    ...options.app,
  });
  const server: Server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const client = httpClient(port, {
    timeoutMs: options.requestTimeoutMs ?? 10_000,
    maxSockets: options.maxSockets ?? 8,
  });
  return {
    port,
    logText: () => raw.join(""),
    clearLogs: () => void (raw = []),
    send: client.send,
    post: client.post,
    async close() {
      client.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Runs `work` over `items` with `concurrency` workers, in order of the items. */
export async function inParallel<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const index = next++;
        await work(items[index]!, index);
      }
    }),
  );
}

/** A Secret as the apiserver stores it (values base64 in `data`). */
export function secretOf(name: string, values: Record<string, string>, extra: Partial<KubeObject> = {}): KubeObject {
  const data = Object.fromEntries(
    Object.entries(values).map(([k, v]) => [k, Buffer.from(v, "utf8").toString("base64")]),
  );
  return { apiVersion: "v1", kind: "Secret", metadata: { name, namespace: NS }, type: "Opaque", data, ...extra };
}

/**
 * Every `{name, key}` / `{secretKeyRef: {name, key}}` in `spec`, with the field path it sits
 * at (a connection string needs a DSN as its value).
 */
export function secretRefsIn(spec: unknown, path = "spec"): { name: string; key: string; path: string }[] {
  if (Array.isArray(spec)) return spec.flatMap((item, i) => secretRefsIn(item, `${path}[${i}]`));
  if (typeof spec !== "object" || spec === null) return [];
  const o = spec as Record<string, unknown>;
  const flat = (v: Record<string, unknown>): boolean =>
    typeof v.name === "string" && typeof v.key === "string" && Object.keys(v).length === 2;
  if (flat(o) && !path.includes("caBundle")) return [{ name: o.name as string, key: o.key as string, path }];
  if (
    typeof o.secretKeyRef === "object" &&
    o.secretKeyRef !== null &&
    flat(o.secretKeyRef as Record<string, unknown>)
  ) {
    const r = o.secretKeyRef as { name: string; key: string };
    return [{ name: r.name, key: r.key, path }];
  }
  return Object.entries(o).flatMap(([k, v]) => secretRefsIn(v, `${path}.${k}`));
}

/** A value fit for the field at `path`, carrying `secret` (a DSN for connection strings). */
export function valueFor(path: string, secret: string): string {
  return path.includes("connectionString")
    ? `postgresql://llama:${encodeURIComponent(secret)}@postgres.db.svc:5432/llamastack`
    : secret;
}

/** The Secrets every reference in `spec` needs, each value made by `value(name, key, path)`. */
export function secretsFor(spec: unknown, value: (name: string, key: string, path: string) => string): KubeObject[] {
  const byName = new Map<string, Record<string, string>>();
  for (const ref of secretRefsIn(spec))
    byName.set(ref.name, { ...byName.get(ref.name), [ref.key]: value(ref.name, ref.key, ref.path) });
  return [...byName].map(([name, values]) => secretOf(name, values));
}

/**
 * A counting, fault-injecting HTTP proxy in front of a test registry. Counts prove what the
 * cache saves; faults (status codes, delays, corrupted or oversized bodies) prove the client's
 * bounds without a misbehaving registry build.
 */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type RequestKind = "manifest" | "blob" | "other";

export interface Seen {
  readonly method: string;
  readonly path: string;
  readonly kind: RequestKind;
}

/** What to do with one request; undefined = forward unchanged. */
export type Fault =
  | { readonly respond: { status: number; headers?: Record<string, string>; body?: string | Buffer } }
  | { readonly delayMs: number }
  | { readonly corrupt: true }
  /** Headers and a few bytes of a longer body, then silence: only a timeout ends the read. */
  | { readonly stallBody: true };

export interface Proxy {
  readonly host: string;
  readonly seen: Seen[];
  count(kind: RequestKind): number;
  /** Requests of `kind` answered in full (a delayed one whose client gave up is not). */
  answered(kind: RequestKind): number;
  reset(): void;
  fault: ((seen: Seen, index: number) => Fault | undefined) | undefined;
  close(): Promise<void>;
}

export function kindOf(path: string): RequestKind {
  if (/^\/v2\/.+\/manifests\//.test(path)) return "manifest";
  if (/^\/v2\/.+\/blobs\/sha256:/.test(path)) return "blob";
  return "other";
}

function forward(upstream: string, req: IncomingMessage, res: ServerResponse, corrupt: boolean): void {
  const target = new URL(req.url ?? "/", `http://${upstream}`);
  const out = request(target, { method: req.method, headers: { ...req.headers, host: upstream } }, (answer) => {
    if (!corrupt) {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
      return;
    }
    const chunks: Buffer[] = [];
    answer.on("data", (c: Buffer) => chunks.push(c));
    answer.on("end", () => {
      const body = Buffer.concat(chunks);
      if (body.length > 0) body[body.length - 1] = (body[body.length - 1] ?? 0) ^ 0xff; // same size, different bytes
      res.writeHead(answer.statusCode ?? 502, answer.headers).end(body);
    });
  });
  out.on("error", () => res.destroy());
  req.pipe(out);
}

export async function startProxy(upstream: string): Promise<Proxy> {
  const seen: Seen[] = [];
  const done: Seen[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://proxy").pathname;
    const entry: Seen = { method: req.method ?? "GET", path, kind: kindOf(path) };
    seen.push(entry);
    res.on("finish", () => done.push(entry));
    const fault = proxy.fault?.(entry, seen.length - 1);
    if (fault !== undefined && "respond" in fault) {
      res.writeHead(fault.respond.status, fault.respond.headers ?? {}).end(fault.respond.body ?? "");
    } else if (fault !== undefined && "stallBody" in fault) {
      res
        .writeHead(200, { "content-type": "application/vnd.oci.image.manifest.v1+json", "content-length": "1000" })
        .write('{"schemaVersion":');
    } else if (fault !== undefined && "delayMs" in fault) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!res.destroyed) forward(upstream, req, res, false);
      }, fault.delayMs);
      timers.add(timer);
    } else {
      forward(upstream, req, res, fault !== undefined);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const proxy: Proxy = {
    host: `127.0.0.1:${port}`,
    seen,
    count: (kind) => seen.filter((s) => s.kind === kind).length,
    answered: (kind) => done.filter((s) => s.kind === kind).length,
    reset: () => {
      seen.splice(0);
      done.splice(0);
    },
    fault: undefined,
    close: () => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
  return proxy;
}

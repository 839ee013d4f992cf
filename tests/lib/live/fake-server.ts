/**
 * A small HTTP server on loopback that answers like a Llama Stack server's inspect API:
 * `GET /v1/version` → `{version}`, `GET /v1/providers` →
 * `{data: [...]}`. Each route can be slowed down, broken or replaced; requests are counted.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type Route = "/v1/version" | "/v1/providers";
export type Behaviour =
  | { kind: "answer"; body: unknown; delayMs?: number }
  | { kind: "status"; status: number }
  | { kind: "raw"; text: string }
  | { kind: "hang" };

export const PROVIDERS = [
  {
    api: "inference",
    provider_id: "vllm",
    provider_type: "remote::vllm",
    config: { base_url: "http://vllm:8000/v1", api_token: "********", max_tokens: 4096 },
    health: { status: "OK" },
  },
  {
    api: "agents",
    provider_id: "meta-reference",
    provider_type: "inline::meta-reference",
    config: {},
    health: { status: "Not Implemented", message: "Provider does not implement health check" },
  },
  {
    api: "vector_io",
    provider_id: "faiss",
    provider_type: "inline::faiss",
    config: { persistence: { namespace: "vector_io::faiss", backend: "kv_default" } },
    health: { status: "OK" },
  },
];

export interface FakeServer {
  readonly url: string;
  readonly port: number;
  /** Requests seen per path. */
  count(path: Route): number;
  set(path: Route, behaviour: Behaviour): void;
  reset(): void;
  close(): Promise<void>;
}

const DEFAULTS = (): Record<Route, Behaviour> => ({
  "/v1/version": { kind: "answer", body: { version: "0.7.1" } },
  "/v1/providers": { kind: "answer", body: { data: PROVIDERS } },
});

export async function startFakeServer(): Promise<FakeServer> {
  let behaviours = DEFAULTS();
  const counts = new Map<string, number>();
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "").split("?")[0] as Route;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    const behaviour = behaviours[path];
    if (!behaviour) {
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ detail: "Not Found" }));
      return;
    }
    switch (behaviour.kind) {
      case "answer": {
        const send = () =>
          res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(behaviour.body));
        if (behaviour.delayMs) {
          hanging.add(res);
          setTimeout(() => {
            hanging.delete(res);
            if (!res.destroyed) send();
          }, behaviour.delayMs);
        } else send();
        return;
      }
      case "status":
        res
          .writeHead(behaviour.status, { "content-type": "application/json" })
          .end(JSON.stringify({ error: { message: "nope" } }));
        return;
      case "raw":
        res.writeHead(200, { "content-type": "application/json" }).end(behaviour.text);
        return;
      case "hang":
        hanging.add(res);
        return;
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    count: (path) => counts.get(path) ?? 0,
    set: (path, behaviour) => {
      behaviours[path] = behaviour;
    },
    reset: () => {
      behaviours = DEFAULTS();
      counts.clear();
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

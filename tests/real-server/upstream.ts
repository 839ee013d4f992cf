/**
 * Everything the server calls out to, on one loopback port: an OpenAI-compatible inference
 * upstream (models, chat plain and streamed, embeddings), an OIDC provider's JWKS, and the one
 * Kubernetes apiserver call the 1.3 server makes to check a token (a SelfSubjectReview: POST
 * /apis/authentication.k8s.io/v1/selfsubjectreviews with the caller's bearer token, 201 with
 * status.userInfo; 401 for a token it does not know; auth_providers.py, KubernetesAuthProvider).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

export const FAKE_REPLY = "Hello from the fake upstream";

/** What the upstream answers for the case at hand; set before each server starts. */
export interface UpstreamState {
  models: readonly string[];
  jwks?: { readonly path: string; readonly body: object };
  /** Bearer token → the userInfo a SelfSubjectReview returns for it. */
  kubeUsers: ReadonlyMap<string, object>;
  /** An OAuth2 introspection endpoint (RFC 7662): token → the claims it answers for an active token. */
  introspection?: { readonly path: string; readonly claims: ReadonlyMap<string, object> };
  /** Paths asked, in order (for the failure lines). */
  readonly seen: string[];
}

export interface Upstream {
  readonly url: string;
  readonly state: UpstreamState;
  readonly close: () => Promise<void>;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

function chat(res: ServerResponse, body: { model?: unknown; stream?: unknown }): void {
  const base = { id: "chatcmpl-fake", created: 1, model: typeof body.model === "string" ? body.model : "fake" };
  if (body.stream !== true) {
    const message = { role: "assistant", content: FAKE_REPLY };
    const usage = { prompt_tokens: 1, completion_tokens: 5, total_tokens: 6 };
    json(res, 200, {
      ...base,
      object: "chat.completion",
      choices: [{ index: 0, message, finish_reason: "stop" }],
      usage,
    });
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream" });
  const chunk = (delta: object, finish: string | null): string =>
    `data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  for (const word of FAKE_REPLY.split(/(?= )/)) res.write(chunk({ role: "assistant", content: word }, null));
  res.end(`${chunk({}, "stop")}data: [DONE]\n\n`);
}

function embeddings(res: ServerResponse, body: { input?: unknown; model?: unknown }): void {
  const inputs = Array.isArray(body.input) ? body.input : [body.input];
  const data = inputs.map((_, index) => ({ object: "embedding", index, embedding: [0.1, 0.2, 0.3, 0.4] }));
  json(res, 200, { object: "list", data, model: body.model, usage: { prompt_tokens: 1, total_tokens: 1 } });
}

function selfSubjectReview(req: IncomingMessage, res: ServerResponse, state: UpstreamState): void {
  const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? "";
  const userInfo = state.kubeUsers.get(token);
  if (userInfo === undefined) return json(res, 401, { kind: "Status", status: "Failure", code: 401 });
  json(res, 201, { apiVersion: "authentication.k8s.io/v1", kind: "SelfSubjectReview", status: { userInfo } });
}

function introspect(res: ServerResponse, body: string, claims: ReadonlyMap<string, object>): void {
  const known = claims.get(new URLSearchParams(body).get("token") ?? "");
  json(res, 200, known === undefined ? { active: false } : { active: true, ...known });
}

function route(req: IncomingMessage, res: ServerResponse, state: UpstreamState, body: string): void {
  const path = (req.url ?? "/").split("?")[0]!;
  state.seen.push(`${req.method} ${path}`);
  if (req.method === "POST" && state.introspection?.path === path)
    return introspect(res, body, state.introspection.claims);
  const parsed: { [k: string]: unknown } = body ? (JSON.parse(body) as { [k: string]: unknown }) : {};
  if (req.method === "GET" && state.jwks?.path === path) return json(res, 200, state.jwks.body);
  if (req.method === "POST" && path === "/apis/authentication.k8s.io/v1/selfsubjectreviews")
    return selfSubjectReview(req, res, state);
  if (req.method === "GET" && path.endsWith("/models")) {
    const data = state.models.map((id) => ({ id, object: "model", created: 1, owned_by: "fake" }));
    return json(res, 200, { object: "list", data });
  }
  if (req.method === "POST" && path.endsWith("/chat/completions")) return chat(res, parsed);
  if (req.method === "POST" && path.endsWith("/embeddings")) return embeddings(res, parsed);
  json(res, 404, { error: { message: `the fake upstream has no ${req.method} ${path}` } });
}

export async function startUpstream(port: number): Promise<Upstream> {
  const state: UpstreamState = { models: [], kubeUsers: new Map(), seen: [] };
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      try {
        route(req, res, state, body);
      } catch (error) {
        json(res, 400, { error: { message: String(error) } });
      }
    });
  });
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(port, "127.0.0.1", resolve));
  const close = (): Promise<void> => new Promise((resolve) => server.close(() => resolve()));
  return { url: `http://127.0.0.1:${port}`, state, close };
}

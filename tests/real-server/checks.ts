/**
 * The checks on a server that answered /v1/health: auth (a call without a token and each bad
 * token get 401; a caller the spec admits gets 200), the models config.yaml registers are listed,
 * and a chat completion on the first of them goes through the fake upstream, plain and streamed.
 */
import type { AuthPlan, Headers } from "./auth";
import type { ExpectedModel } from "./expect";
import { call, type Target } from "./http";
import { FAKE_REPLY } from "./upstream";

export interface Outcome {
  readonly said: string[];
  readonly failed: string[];
}

async function checkAuth(target: Target, plan: AuthPlan, out: Outcome): Promise<void> {
  const refused = [{ what: "no token", headers: {} }, ...plan.refused];
  for (const r of refused) {
    const a = await call(target, "GET", "/v1/models", { headers: r.headers });
    if (a.status !== 401) out.failed.push(`${plan.type}: ${r.what} got ${a.status}, not 401`);
  }
  const admitted = await call(target, "GET", "/v1/models", { headers: plan.admitted });
  if (admitted.status !== 200)
    out.failed.push(`${plan.type}: the caller the spec admits got ${admitted.status}: ${admitted.body.slice(0, 160)}`);
  else out.said.push(`auth ${plan.type}: ${refused.map((r) => r.what).join(", ")} → 401; admitted → 200`);
}

async function checkModels(
  target: Target,
  headers: Headers,
  expected: readonly ExpectedModel[],
  out: Outcome,
): Promise<void> {
  const a = await call(target, "GET", "/v1/models", { headers });
  if (a.status !== 200) return void out.failed.push(`/v1/models answered ${a.status}: ${a.body.slice(0, 160)}`);
  const parsed = JSON.parse(a.body) as { data?: { id?: unknown }[] };
  const listed = new Set((parsed.data ?? []).map((m) => String(m.id)));
  const missing = expected.filter((m) => !listed.has(m.id)).map((m) => m.id);
  if (missing.length > 0) out.failed.push(`/v1/models does not list ${missing.join(", ")}`);
  else if (expected.length === 0) out.said.push("/v1/models answers (config.yaml registers no model on a provider)");
  else out.said.push(`${expected.length} registered model(s) listed`);
}

async function checkChat(target: Target, headers: Headers, model: string, out: Outcome): Promise<void> {
  const messages = [{ role: "user", content: "hi" }];
  const plain = await call(target, "POST", "/v1/chat/completions", { headers, body: { model, messages } });
  if (plain.status !== 200 || !plain.body.includes(FAKE_REPLY))
    return void out.failed.push(`chat on ${model} answered ${plain.status}: ${plain.body.slice(0, 160)}`);
  const streamed = await call(target, "POST", "/v1/chat/completions", {
    headers,
    body: { model, messages, stream: true },
  });
  const text = [...streamed.body.matchAll(/"content":\s*"([^"]*)"/g)].map((m) => m[1]).join("");
  if (streamed.status !== 200 || text !== FAKE_REPLY)
    return void out.failed.push(
      `streamed chat on ${model} answered ${streamed.status}: ${streamed.body.slice(0, 160)}`,
    );
  out.said.push(`chat on ${model} plain and streamed`);
}

export interface CheckInput {
  readonly target: Target;
  readonly plan?: AuthPlan;
  readonly expected: readonly ExpectedModel[];
  /** The model to chat with, when one is served by the fake upstream and the admitted caller may chat. */
  readonly chatModel?: string;
}

export async function runChecks(c: CheckInput): Promise<Outcome> {
  const out: Outcome = { said: [], failed: [] };
  if (c.plan) await checkAuth(c.target, c.plan, out);
  const headers = c.plan?.admitted ?? {};
  await checkModels(c.target, headers, c.expected, out);
  if (c.chatModel !== undefined) await checkChat(c.target, headers, c.chatModel, out);
  return out;
}

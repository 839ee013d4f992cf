/**
 * What every Metacontroller hook endpoint does, in order: require JSON → parse → check the
 * wire shape → call the handler → send its answer untouched. Then one log line and the metrics.
 * A hook answers its own errors, so each call is counted and logged exactly once.
 */
import express, { Router, type Request, type Response } from "express";
import type pino from "pino";
import type { KubeObject, ObjectMap } from "../lib/wire/metacontroller";
import { httpErrorOf, INTERNAL_ERROR, methodNotAllowed, sendError, type HttpError } from "./errors";
import type { HookMetrics, Outcome } from "./metrics";
import type { Shape } from "./request-shape";

/**
 * The default limit (100 kB) rejects real Metacontroller requests: a sync request carries the
 * full parent, every observed child (Deployments with managedFields) and every related Secret
 * and ConfigMap. 8 MB is well above that and still bounds a request's memory.
 * `strict: false` lets `42` or `"x"` through to the shape check, which says what is wrong.
 */
const parseJson = express.json({ limit: "8mb", strict: false, type: "application/json" });

interface HookRequest {
  readonly parent: KubeObject;
  readonly children?: ObjectMap;
  readonly related?: ObjectMap;
}

export interface HookRoute<Req extends HookRequest, Res> {
  /** The hook's name: its path (`/<hook>`) and its `hook` label in logs and metrics. */
  readonly hook: string;
  readonly shape: (body: unknown) => Shape<Req>;
  readonly handle: (request: Req) => Promise<Res>;
  /** Counts for the log line (never contents). Throws when the response must not be sent. */
  readonly summarize: (response: Res) => { readonly [count: string]: number };
}

export interface HookDeps {
  readonly logger: pino.Logger;
  readonly metrics: HookMetrics;
}

/** What one call is logged with: who it was about and, once answered, how it went. */
interface Call {
  hook: string;
  namespace?: string;
  name?: string;
  [count: string]: unknown;
}

type Answer = HttpError | { readonly status: 200; readonly json: string };

export function hookRouter<Req extends HookRequest, Res>(route: HookRoute<Req, Res>, deps: HookDeps): Router {
  const router = Router();
  router
    .route(`/${route.hook}`)
    .post(async (req, res) => {
      const started = process.hrtime.bigint();
      const call: Call = { hook: route.hook };
      const answer = await answerCall(route, req, res, call, deps.logger);
      if ("json" in answer) res.status(200).type("application/json").send(answer.json);
      else sendError(res, answer);
      record(call, answer, Number(process.hrtime.bigint() - started) / 1e9, deps);
    })
    .all(methodNotAllowed(["POST"]));
  return router;
}

async function answerCall<Req extends HookRequest, Res>(
  route: HookRoute<Req, Res>,
  req: Request,
  res: Response,
  call: Call,
  logger: pino.Logger,
): Promise<Answer> {
  if (req.is("application/json") === false) return { status: 415, message: "content-type must be application/json" };
  try {
    await new Promise<void>((resolve, reject) => parseJson(req, res, (err?: unknown) => (err ? reject(err) : resolve())));
  } catch (err) {
    const answer = httpErrorOf(err);
    if (answer.status >= 500) call.err = err;
    return answer;
  }
  Object.assign(call, parentOf(req.body));
  const shape = route.shape(req.body);
  if (!shape.ok) return { status: 400, message: shape.error };
  const { children, related } = shape.request;
  logger.debug({ ...call, observed: countObjects(children), related: countObjects(related) }, "Received hook call");
  try {
    const response = await route.handle(shape.request);
    Object.assign(call, route.summarize(response));
    // Sent exactly as returned: a v2 hook response is parsed strictly, extra keys fail the sync.
    return { status: 200, json: JSON.stringify(response) };
  } catch (err) {
    call.err = err;
    return INTERNAL_ERROR;
  }
}

/** One line per call: info when answered, warn when the request was malformed, error (with the stack) on our bug. */
function record(call: Call, answer: Answer, seconds: number, { logger, metrics }: HookDeps): void {
  const outcome: Outcome = answer.status === 200 ? "ok" : answer.status < 500 ? "client_error" : "error";
  metrics.observe(call.hook, outcome, seconds);
  const line = { ...call, outcome, status: answer.status, durationMs: Math.round(seconds * 1e6) / 1e3 };
  if ("json" in answer) logger.info(line, "Answered hook call");
  else if (outcome === "client_error") logger.warn({ ...line, reason: answer.message }, "Rejected hook call");
  else logger.error(line, "Hook call failed");
}

/** The parent's namespace and name when the body has them, so even a rejected call says whose it was. */
function parentOf(body: unknown): { namespace?: string; name?: string } {
  type Loose = { parent?: { metadata?: { namespace?: unknown; name?: unknown } } } | null | undefined;
  const metadata = (body as Loose)?.parent?.metadata;
  const pick = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
  return { namespace: pick(metadata?.namespace), name: pick(metadata?.name) };
}

function countObjects(map: ObjectMap | undefined): number | undefined {
  return map && Object.values(map).reduce((sum, objects) => sum + Object.keys(objects).length, 0);
}

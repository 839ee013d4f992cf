/**
 * What every Metacontroller hook endpoint does, in order: require JSON → parse → check the
 * wire shape → call the handler → send its answer untouched. Then one log line and the metrics.
 * A hook answers its own errors, so each call is counted and logged exactly once.
 */
import type { Request, RequestHandler, Response } from "express";
import type pino from "pino";
import { own } from "../lib/json";
import { SerializedAnswer, type KubeObject, type ObjectMap } from "../lib/wire/metacontroller";
import { INTERNAL_ERROR, postOnly, readJsonBody, sendError, type HttpError } from "./errors";
import type { HookMetrics, Outcome } from "./metrics";
import { forLog, scrubError, secretValuesOf } from "./redact";
import type { Shape } from "./request-shape";

interface HookRequest {
  readonly parent: KubeObject;
  readonly children?: ObjectMap;
  readonly related?: ObjectMap;
}

export interface HookRoute<Req extends HookRequest, Res> {
  /** The hook's name: its path (`/<hook>`) and its `hook` label in logs and metrics. */
  readonly hook: string;
  readonly shape: (body: unknown) => Shape<Req>;
  /** A `SerializedAnswer` is sent as is, with its own summary. */
  readonly handle: (request: Req) => Promise<Res | SerializedAnswer>;
  /** Counts for the log line (never contents). Throws when the response must not be sent. */
  readonly summarize: (response: Res) => { readonly [count: string]: number };
  /**
   * The answer when `handle` (or `summarize`) threw on a request of the right shape: the sync
   * hook answers Failed/InternalError and keeps the children instead of a 500. Still counted
   * as an error (metric and log line). Without it, or when it throws too: 500.
   */
  readonly recover?: (request: Req, err: unknown) => Res;
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

type Answer = HttpError | { readonly status: 200; readonly json: string | Buffer };

export function hookRoute<Req extends HookRequest, Res>(route: HookRoute<Req, Res>, deps: HookDeps): RequestHandler {
  return postOnly(async (req, res) => {
    const started = process.hrtime.bigint();
    const call: Call = { hook: route.hook };
    const answer = await answerCall(route, { req, res, call, logger: deps.logger });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    // The time limit (overload.ts) answered already: this answer is too late to send.
    if (res.headersSent) return void lateAnswer(call, answer, seconds, deps.logger);
    if ("json" in answer) res.status(200).type("application/json").send(answer.json);
    else sendError(res, answer);
    record(call, answer, seconds, deps);
  });
}

/** One call in flight: the express pair, its log fields (filled in as it goes) and the logger. */
interface Exchange {
  readonly req: Request;
  readonly res: Response;
  readonly call: Call;
  readonly logger: pino.Logger;
}

async function answerCall<Req extends HookRequest, Res>(route: HookRoute<Req, Res>, ex: Exchange): Promise<Answer> {
  const { req, res, call, logger } = ex;
  const unread = await readJsonBody(req, res);
  if (unread) {
    if (unread.answer.status >= 500) call.err = unread.err;
    return unread.answer;
  }
  Object.assign(call, parentOf(req.body));
  const shape = route.shape(req.body);
  if (!shape.ok) return { status: 400, message: shape.error };
  const { children, related } = shape.request;
  // Bodies only at debug (and trace), and only with every Secret's values replaced (hooks/README.md, "Logs and metrics").
  if (logger.isLevelEnabled("debug")) {
    logger.debug({ ...call, observed: countObjects(children), related: countObjects(related) }, "Received hook call");
    logger.debug({ ...call, redactedRequest: forLog(req.body) }, "Hook request body");
  }
  try {
    return await handled(route, shape.request, ex);
  } catch (err) {
    // An error message may quote what it failed on: no Secret value of this request reaches the log.
    call.err = scrubError(err, secretValuesOf(req.body));
    return recovered(route, shape.request, err, call);
  }
}

/** The handler's answer, summarized into the call's log fields; sent exactly as returned. */
async function handled<Req extends HookRequest, Res>(
  route: HookRoute<Req, Res>,
  request: Req,
  { req, call, logger }: Exchange,
): Promise<Answer> {
  const response = await route.handle(request);
  if (response instanceof SerializedAnswer) {
    Object.assign(call, response.summary);
    if (logger.isLevelEnabled("debug")) logResponse(logger, call, JSON.parse(response.body.toString("utf8")), req.body);
    return { status: 200, json: response.body };
  }
  Object.assign(call, route.summarize(response));
  if (logger.isLevelEnabled("debug")) logResponse(logger, call, response, req.body);
  // A v2 hook response is parsed strictly: extra keys fail the sync.
  return { status: 200, json: JSON.stringify(response) };
}

/** The response body at debug, with every Secret value of the request replaced. */
function logResponse(logger: pino.Logger, call: Call, response: unknown, requestBody: unknown): void {
  logger.debug({ ...call, redactedResponse: forLog(response, requestBody) }, "Hook response body");
}

/** The route's own answer for an exception (children kept), or 500 when it has none or it fails too. */
function recovered<Req extends HookRequest, Res>(
  route: HookRoute<Req, Res>,
  request: Req,
  err: unknown,
  call: Call,
): Answer {
  if (!route.recover) return INTERNAL_ERROR;
  try {
    const response = route.recover(request, err);
    Object.assign(call, route.summarize(response), { recovered: 1 });
    return { status: 200, json: JSON.stringify(response) };
  } catch {
    return INTERNAL_ERROR;
  }
}

/** The handler finished after the time limit had answered 503: say so (the metrics counted the timeout). */
function lateAnswer(call: Call, answer: Answer, seconds: number, logger: pino.Logger): void {
  const durationMs = Math.round(seconds * 1e6) / 1e3;
  logger.warn(
    { ...call, outcome: "timeout", status: 503, handlerStatus: answer.status, durationMs },
    "Hook call finished after its time limit; its answer was dropped",
  );
}

/** One line per call: debug when answered, warn when the request was malformed, error (with the stack) on our bug, answered or not. */
function record(call: Call, answer: Answer, seconds: number, { logger, metrics }: HookDeps): void {
  const outcome: Outcome =
    call.recovered === 1 ? "error" : answer.status === 200 ? "ok" : answer.status < 500 ? "client_error" : "error";
  metrics.observe(call.hook, outcome, seconds);
  if (call.reused === 1) metrics.reused(call.hook);
  // An answered call costs no log write unless debug is on: the metrics count it (logs are for what needs a look).
  if (outcome === "ok" && !logger.isLevelEnabled("debug")) return;
  const line = { ...call, outcome, status: answer.status, durationMs: Math.round(seconds * 1e6) / 1e3 };
  if (call.recovered === 1)
    logger.error(line, "Hook call failed; answered Failed (InternalError) with the observed children kept");
  else if ("json" in answer) logger.debug(line, "Answered hook call");
  else if (outcome === "client_error") logger.warn({ ...line, reason: answer.message }, "Rejected hook call");
  else logger.error(line, "Hook call failed");
}

/** The parent's namespace and name when the body has them, so even a rejected call says whose it was. */
function parentOf(body: unknown): { namespace?: string; name?: string } {
  const metadata = own(own(body, "parent"), "metadata");
  const pick = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
  return { namespace: pick(own(metadata, "namespace")), name: pick(own(metadata, "name")) };
}

function countObjects(map: ObjectMap | undefined): number | undefined {
  return map && Object.values(map).reduce((sum, objects) => sum + Object.keys(objects).length, 0);
}

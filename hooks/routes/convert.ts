/**
 * `POST /convert`: the CRD conversion webhook (docs/hook-api.md). The apiserver reads only a 200
 * answer, so a review that cannot be converted is answered 200 with `result.status: Failure`
 * and a message it shows to the user; only a body that is not a JSON object at all gets a 4xx.
 * One log line and one metrics observation per call.
 */
import type { Request, RequestHandler, Response } from "express";
import type pino from "pino";
import { reviewConversion, type ReviewOutcome } from "../../lib/conversion/review";
import { warmUpConversion } from "../../lib/conversion/v1alpha1";
import { postOnly, readJsonBody, sendError, type HttpError } from "../errors";
import type { HookMetrics, Outcome } from "../metrics";
import { isPlainObject } from "../../lib/json";
import { forLog, scrubError, secretValuesOf } from "../redact";

export interface ConvertDeps {
  readonly logger: pino.Logger;
  readonly metrics: HookMetrics;
}

type Answer = (HttpError & { readonly err?: unknown }) | ReviewOutcome;

export function convertRoute(deps: ConvertDeps): RequestHandler {
  // The first review would otherwise pay for compiling the schemas the conversion consults.
  warmUpConversion();
  return postOnly(async (req, res) => {
    const started = process.hrtime.bigint();
    const answer = await answerCall(req, res, deps.logger);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (res.headersSent) {
      // The time limit (overload.ts) answered already; the metrics counted it.
      deps.logger.warn(
        { hook: "convert", outcome: "timeout", status: 503, durationMs: Math.round(seconds * 1e6) / 1e3 },
        "Conversion call finished after its time limit; its answer was dropped",
      );
      return;
    }
    if ("response" in answer) res.status(200).json(answer.response);
    else sendError(res, answer);
    record(answer, seconds, deps);
  });
}

async function answerCall(req: Request, res: Response, logger: pino.Logger): Promise<Answer> {
  const unread = await readJsonBody(req, res);
  if (unread) return { ...unread.answer, ...(unread.err ? { err: unread.err } : {}) };
  const body: unknown = req.body;
  // The JSON parser turns an empty body into `{}`, which is no review at all.
  if (body === undefined || req.headers["content-length"] === "0")
    return { status: 400, message: "request body is required: a ConversionReview JSON object" };
  if (!isPlainObject(body))
    return { status: 400, message: `request body must be a ConversionReview JSON object, got ${kindOf(body)}` };
  if (logger.isLevelEnabled("debug"))
    logger.debug({ hook: "convert", redactedRequest: forLog(body) }, "Conversion request body");
  // The body was parsed for this call alone: the conversion may reuse its parts. It adds
  // fields to them, never removes any, so every Secret value the body held is still there.
  const outcome = reviewConversion(body, { consume: true });
  return outcome.error === undefined ? outcome : { ...outcome, error: scrubError(outcome.error, secretValuesOf(body)) };
}

function kindOf(body: unknown): string {
  if (body === null) return "null";
  return Array.isArray(body) ? "a list" : `a ${typeof body}`;
}

/** debug when converted, warn when the review or an object was refused, error on our own bug. */
function record(answer: Answer, seconds: number, { logger, metrics }: ConvertDeps): void {
  const durationMs = Math.round(seconds * 1e6) / 1e3;
  if (!("response" in answer)) {
    const outcome: Outcome = answer.status < 500 ? "client_error" : "error";
    metrics.observe("convert", outcome, seconds);
    const line = { hook: "convert", outcome, status: answer.status, durationMs, reason: answer.message };
    if (outcome === "error") logger.error({ ...line, err: answer.err }, "Conversion call failed");
    else logger.warn(line, "Rejected conversion call");
    return;
  }
  const { response, uid, desiredAPIVersion, objects, failure, error } = answer;
  const outcome: Outcome = failure === undefined ? "ok" : failure === "request" ? "client_error" : "error";
  metrics.observe("convert", outcome, seconds);
  if (outcome === "ok" && !logger.isLevelEnabled("debug")) return; // converted: counted, logged at debug only
  const result = response.response.result;
  const line = {
    hook: "convert",
    uid,
    objects,
    desiredAPIVersion,
    outcome,
    result: result.status,
    status: 200,
    durationMs,
  };
  if (result.status === "Success") logger.debug(line, "Answered conversion review");
  else if (outcome === "client_error") logger.warn({ ...line, reason: result.message }, "Refused conversion review");
  else logger.error({ ...line, reason: result.message, err: error }, "Conversion review failed");
}

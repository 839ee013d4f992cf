/**
 * `POST /validate`: the validating admission webhook the kube-apiserver calls (over TLS) for
 * every CREATE and UPDATE of a v1alpha2 LlamaStackDistribution. The decision is
 * `lib/admission/review.ts`; this file parses, answers and records.
 *
 * 200 with an AdmissionReview whenever the review is well-formed, whatever the decision; 400
 * JSON for a malformed review, 415 for a body that is not JSON, 500 on our bug (with
 * `failurePolicy: Fail` the apiserver then refuses the write, which is the safe side).
 * One log line per call (namespace, name, operation, allowed, error count; never the object):
 * debug when admitted, info when denied.
 */
import type { Request, RequestHandler, Response } from "express";
import type pino from "pino";
import {
  admissionReviewShape,
  problemsOf,
  review,
  reviewResponse,
  type AdmissionResponse,
} from "../../lib/admission/review";
import type { ValidateContext } from "../../lib/api/validate";
import { INTERNAL_ERROR, postOnly, readJsonBody, sendError, type HttpError } from "../errors";
import type { HookDeps } from "../hook-route";
import type { Outcome } from "../metrics";
import { forLog, scrubError, secretValuesOf } from "../redact";

export interface ValidateDeps extends HookDeps {
  /** The distribution table and friends; the bundled defaults when absent (as `/sync` uses). */
  readonly context?: ValidateContext;
}

interface Call {
  hook: "validate";
  uid?: string;
  namespace?: string;
  name?: string;
  operation?: string;
  allowed?: boolean;
  errors?: number;
  warnings?: number;
  err?: unknown;
}

/** Compiles the schemas now: the first review would otherwise take a second (the apiserver waits 10 s). */
function warmUp(context: ValidateContext | undefined): void {
  problemsOf(
    {
      apiVersion: "llamastack.io/v1alpha2",
      kind: "LlamaStackDistribution",
      metadata: { name: "warm-up" },
      spec: { distribution: { name: "starter" } },
    },
    context,
  );
}

export function validateRoute(deps: ValidateDeps): RequestHandler {
  warmUp(deps.context);
  return postOnly(async (req, res) => {
    const started = process.hrtime.bigint();
    const call: Call = { hook: "validate" };
    const answer = await answerReview({ req, res, call }, deps.context, deps.logger);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (res.headersSent) {
      // The time limit (overload.ts) answered already; the metrics counted it.
      deps.logger.warn(
        { ...call, outcome: "timeout", status: 503, durationMs: Math.round(seconds * 1e6) / 1e3 },
        "Admission review finished after its time limit; its answer was dropped",
      );
      return;
    }
    if ("review" in answer) res.status(200).json(reviewResponse(answer.review));
    else sendError(res, answer);
    record(call, answer, seconds, deps);
  });
}

type Answer = HttpError | { readonly status: 200; readonly review: AdmissionResponse };

async function answerReview(
  { req, res, call }: { req: Request; res: Response; call: Call },
  context: ValidateContext | undefined,
  logger: pino.Logger,
): Promise<Answer> {
  const unread = await readJsonBody(req, res);
  if (unread) {
    if (unread.answer.status >= 500) call.err = unread.err;
    return unread.answer;
  }
  const shape = admissionReviewShape(req.body);
  if (!shape.ok) return { status: 400, message: shape.error };
  const { request } = shape;
  Object.assign(call, {
    uid: request.uid,
    namespace: request.namespace,
    name: request.name,
    operation: request.operation,
  });
  if (logger.isLevelEnabled("debug"))
    logger.debug({ ...call, redactedRequest: forLog(req.body) }, "Admission review body");
  try {
    const decision = review(request, context);
    call.allowed = decision.allowed;
    call.errors = decision.status?.details.causes.length ?? 0;
    call.warnings = decision.warnings?.length ?? 0;
    return { status: 200, review: decision };
  } catch (err) {
    call.err = scrubError(err, secretValuesOf(req.body));
    return INTERNAL_ERROR;
  }
}

function record(call: Call, answer: Answer, seconds: number, { logger, metrics }: HookDeps): void {
  const outcome: Outcome = answer.status === 200 ? "ok" : answer.status < 500 ? "client_error" : "error";
  metrics.observe(call.hook, outcome, seconds);
  // Admitted: counted, logged at debug only; a denial is worth a line (someone's apply failed).
  if (call.allowed === true && !logger.isLevelEnabled("debug")) return;
  const entry = { ...call, outcome, status: answer.status, durationMs: Math.round(seconds * 1e6) / 1e3 };
  if ("review" in answer) logger[call.allowed ? "debug" : "info"](entry, call.allowed ? "Admitted" : "Denied");
  else if (outcome === "client_error") logger.warn({ ...entry, reason: answer.message }, "Rejected admission review");
  else logger.error(entry, "Admission review failed");
}

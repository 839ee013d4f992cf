/**
 * `POST /validate`: the validating admission webhook the kube-apiserver calls (over TLS) for
 * every CREATE and UPDATE of a v1alpha2 LlamaStackDistribution. The decision is
 * `lib/admission/review.ts`; this file parses, answers and records.
 *
 * 200 with an AdmissionReview whenever the review is well-formed, whatever the decision; 400
 * JSON for a malformed review, 415 for a body that is not JSON, 500 on our bug (with
 * `failurePolicy: Fail` the apiserver then refuses the write, which is the safe side).
 * One log line per call (namespace, name, operation, allowed, error count; never the object).
 */
import express, { Router, type Request, type Response } from "express";
import { admissionReviewShape, problemsOf, review, reviewResponse, type AdmissionResponse } from "../../lib/admission/review";
import type { ValidateContext } from "../../lib/api/validate";
import { httpErrorOf, INTERNAL_ERROR, methodNotAllowed, sendError, type HttpError } from "../errors";
import type { HookDeps } from "../hook-route";
import type { Outcome } from "../metrics";

/** An AdmissionReview carries the whole object (and the old one on UPDATE): same bound as the hooks. */
const parseJson = express.json({ limit: "8mb", strict: false, type: "application/json" });

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
  problemsOf({ apiVersion: "llamastack.io/v1alpha2", kind: "LlamaStackDistribution", metadata: { name: "warm-up" }, spec: { distribution: { name: "starter" } } }, context);
}

export function validateRouter(deps: ValidateDeps): Router {
  warmUp(deps.context);
  const router = Router();
  router
    .route("/validate")
    .post(async (req, res) => {
      const started = process.hrtime.bigint();
      const call: Call = { hook: "validate" };
      const answer = await answerReview(req, res, call, deps.context);
      if ("review" in answer) res.status(200).json(reviewResponse(answer.review));
      else sendError(res, answer);
      record(call, answer, Number(process.hrtime.bigint() - started) / 1e9, deps);
    })
    .all(methodNotAllowed(["POST"]));
  return router;
}

type Answer = HttpError | { readonly status: 200; readonly review: AdmissionResponse };

async function answerReview(req: Request, res: Response, call: Call, context: ValidateContext | undefined): Promise<Answer> {
  if (req.is("application/json") === false) return { status: 415, message: "content-type must be application/json" };
  try {
    await new Promise<void>((resolve, reject) => parseJson(req, res, (err?: unknown) => (err ? reject(err) : resolve())));
  } catch (err) {
    const answer = httpErrorOf(err);
    if (answer.status >= 500) call.err = err;
    return answer;
  }
  const shape = admissionReviewShape(req.body);
  if (!shape.ok) return { status: 400, message: shape.error };
  const { request } = shape;
  Object.assign(call, { uid: request.uid, namespace: request.namespace, name: request.name, operation: request.operation });
  try {
    const decision = review(request, context);
    call.allowed = decision.allowed;
    call.errors = decision.status?.details.causes.length ?? 0;
    call.warnings = decision.warnings?.length ?? 0;
    return { status: 200, review: decision };
  } catch (err) {
    call.err = err;
    return INTERNAL_ERROR;
  }
}

function record(call: Call, answer: Answer, seconds: number, { logger, metrics }: HookDeps): void {
  const outcome: Outcome = answer.status === 200 ? "ok" : answer.status < 500 ? "client_error" : "error";
  metrics.observe(call.hook, outcome, seconds);
  const entry = { ...call, outcome, status: answer.status, durationMs: Math.round(seconds * 1e6) / 1e3 };
  if ("review" in answer) logger.info(entry, call.allowed ? "Admitted" : "Denied");
  else if (outcome === "client_error") logger.warn({ ...entry, reason: answer.message }, "Rejected admission review");
  else logger.error(entry, "Admission review failed");
}

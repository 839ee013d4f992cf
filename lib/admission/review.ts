/**
 * The validating admission webhook as a pure function: an AdmissionReview
 * (`admission.k8s.io/v1`) in, the review to answer out. A v1alpha2 LlamaStackDistribution that
 * is created or updated goes through `checkObject` (lib/config/check-object.ts), the same check
 * `llsd validate`, `llsd render` and `/sync` apply: the schema, the rules the CRD's structural
 * schema and CEL cannot express, the provider types, and what generating config.yaml against the
 * distribution's bundled base config would refuse. Every problem is reported at once, with its
 * field path; warnings and notes become admission warnings (kubectl prints them), as many as
 * the apiserver shows (lib/admission/warnings.ts).
 *
 * Allowed without a check: DELETE and CONNECT, other kinds and versions (the
 * ValidatingWebhookConfiguration asks for v1alpha2 with `matchPolicy: Equivalent`, so v1alpha1
 * writes arrive converted), subresources (Metacontroller's status writes), objects being
 * deleted, and an update that changes nothing the check reads (a label, a finalizer, another
 * annotation: lib/admission/ratchet.ts). Any other update that leaves `spec` unchanged (an
 * annotation the check reads) is checked but denied only for an annotation it sets or changes
 * (lib/admission/unchanged.ts): a CR written before the webhook or under an older version has
 * problems it was never told of, and they come back as warnings.
 */
import type { ValidateContext } from "../api/validate";
import { checkObject } from "../config/check-object";
import { specHasRedisPassword } from "../api/validate-redis-password";
import { lineOfSpec } from "./line";
import type { CanonicalSpec } from "../api/canonical";
import type { Release } from "../distributions/table";
import type { FieldError } from "../errors";
import { isPlainObject, own } from "../json";
import { ADMISSION_API_VERSION, type AdmissionRequest, type GroupVersionKind } from "./request";
import { ratchets } from "./ratchet";
import { keptBy, specUnchanged } from "./unchanged";
import { admissionWarnings, oneLine } from "./warnings";

export {
  ADMISSION_API_VERSION,
  admissionReviewShape,
  type AdmissionRequest,
  type GroupVersionKind,
  type Operation,
  type ReviewShape,
} from "./request";

const GROUP = "llamastack.io";
const KIND = "LlamaStackDistribution";
const VERSION = "v1alpha2";

/** metav1.Status, as the apiserver turns it into the error kubectl prints. */
export interface DenyStatus {
  readonly status: "Failure";
  readonly code: 422;
  readonly reason: "Invalid";
  readonly message: string;
  readonly details: {
    readonly group: string;
    readonly kind: string;
    readonly name?: string;
    readonly causes: readonly {
      readonly type: "FieldValueInvalid";
      readonly field: string;
      readonly message: string;
    }[];
  };
}

export interface AdmissionResponse {
  readonly uid: string;
  readonly allowed: boolean;
  readonly status?: DenyStatus;
  readonly warnings?: readonly string[];
}

export interface AdmissionReviewResponse {
  readonly apiVersion: typeof ADMISSION_API_VERSION;
  readonly kind: "AdmissionReview";
  readonly response: AdmissionResponse;
}

function isLlsdV1alpha2(kind: GroupVersionKind): boolean {
  return kind.group === GROUP && kind.kind === KIND && kind.version === VERSION;
}

/** One line, as the apiserver wants warnings (kubectl prints each after "Warning: "). */
function line(error: FieldError): string {
  return oneLine(`${error.path}: ${error.message}`);
}

/**
 * Every problem of a v1alpha2 object, exactly as `llsd validate` reports them
 * (lib/config/check-object.ts), on the server line the sync hook will pick: a CR that already
 * runs (the old object's status says which image, for the same distribution name) keeps its
 * server; a new one gets the current default.
 */
export function problemsOf(
  object: unknown,
  ctx: ValidateContext = {},
  oldObject?: { readonly [k: string]: unknown },
): { errors: readonly FieldError[]; warnings: readonly FieldError[]; notes: readonly string[] } {
  // Only v1alpha2 is checked here (the apiserver converts first), so the object is as stored.
  const lineOf = (spec: CanonicalSpec): Release | undefined =>
    isPlainObject(object) ? lineOfSpec(object, spec, ctx, oldObject?.status) : undefined;
  // An UPDATE of a CR stored with a Redis password keeps it (lib/api/validate-redis-password.ts); a CREATE is refused.
  const keepsRedisPassword = oldObject !== undefined && specHasRedisPassword(oldObject.spec);
  const { errors, warnings, notes } = checkObject(object, {
    ...ctx,
    lineOf,
    apiVersions: [`${GROUP}/${VERSION}`],
    keepsRedisPassword,
  });
  return { errors, warnings, notes: notes ?? [] };
}

function allow(uid: string, said: readonly string[] = []): AdmissionResponse {
  const warnings = admissionWarnings(said);
  return { uid, allowed: true, ...(warnings.length > 0 ? { warnings } : {}) };
}

function deny(request: AdmissionRequest, errors: readonly FieldError[], said: readonly string[]): AdmissionResponse {
  const warnings = admissionWarnings(said);
  const given = own(request.object?.metadata, "name");
  const name = typeof given === "string" && given !== "" ? given : request.name;
  return {
    uid: request.uid,
    allowed: false,
    status: {
      status: "Failure",
      code: 422,
      reason: "Invalid",
      message: errors.map(line).join("; "),
      details: {
        group: GROUP,
        kind: KIND,
        ...(name ? { name } : {}),
        causes: errors.map((e) => ({ type: "FieldValueInvalid", field: e.path, message: e.message })),
      },
    },
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}

/** The admission decision for one request. */
export function review(request: AdmissionRequest, ctx: ValidateContext = {}): AdmissionResponse {
  return ratchets(request) ? allow(request.uid) : judge(request, ctx);
}

/** The decision without ratcheting: every write is checked (the oracle of the ratcheted one). */
export function judge(request: AdmissionRequest, ctx: ValidateContext = {}): AdmissionResponse {
  const { uid, object } = request;
  if (object === undefined || !isJudged(request)) return allow(uid);
  const problems = problemsOf(object, ctx, request.oldObject);
  const { errors } = problems;
  // The rules' warnings, then what generation decided on the user's behalf (its notes).
  const notes = [...problems.warnings.map(line), ...problems.notes];
  if (errors.length === 0) return allow(uid, notes);
  // The spec compared once, not once per problem.
  if (specUnchanged(request) && errors.every((e) => keptBy(request, e.path))) {
    const why = (e: FieldError): string => (e.path.startsWith("metadata.annotations[") ? "annotation" : "spec");
    return allow(uid, [...errors.map((e) => `${line(e)} (${why(e)} unchanged, so this update is allowed)`), ...notes]);
  }
  return deny(request, errors, notes);
}

/** A write of a v1alpha2 LlamaStackDistribution itself (not a subresource), not being deleted. */
function isJudged(request: AdmissionRequest): boolean {
  if (request.operation !== "CREATE" && request.operation !== "UPDATE") return false;
  if (!isLlsdV1alpha2(request.kind) || (request.subResource ?? "") !== "") return false;
  const deletion = own(request.object?.metadata, "deletionTimestamp");
  return deletion === undefined || deletion === null;
}

/** The AdmissionReview to answer with. */
export function reviewResponse(response: AdmissionResponse): AdmissionReviewResponse {
  return { apiVersion: ADMISSION_API_VERSION, kind: "AdmissionReview", response };
}

/**
 * The validating admission webhook as a pure function: an AdmissionReview
 * (`admission.k8s.io/v1`) in, the review to answer out. A v1alpha2 LlamaStackDistribution that
 * is created or updated goes through `checkObject` (lib/config/check-object.ts), the same check
 * `llsd validate`, `llsd render` and `/sync` apply: the schema, the rules the CRD's structural
 * schema and CEL cannot express, the provider types, and what generating config.yaml against the
 * distribution's bundled base config would refuse. Every problem is reported at once, with its
 * field path; warnings become admission warnings (kubectl prints them).
 *
 * Allowed without a check: DELETE and CONNECT, other kinds and versions (the
 * ValidatingWebhookConfiguration asks for v1alpha2 with `matchPolicy: Equivalent`, so v1alpha1
 * writes arrive converted), subresources (Metacontroller's status writes), objects being
 * deleted, and updates that leave `spec` unchanged — a metadata edit (labels, finalizers) is
 * never blocked by a spec that was accepted when it was written; its problems come back as
 * warnings instead.
 */
import type { ValidateContext } from "../api/validate";
import { checkObject } from "../config/check-object";
import { lineOfAdmitted } from "./line";
import type { FieldError } from "../errors";

export const ADMISSION_API_VERSION = "admission.k8s.io/v1";
const GROUP = "llamastack.io";
const KIND = "LlamaStackDistribution";
const VERSION = "v1alpha2";

export type Operation = "CREATE" | "UPDATE" | "DELETE" | "CONNECT";
const OPERATIONS: readonly Operation[] = ["CREATE", "UPDATE", "DELETE", "CONNECT"];

export interface GroupVersionKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

/** The fields of an AdmissionRequest this webhook reads. */
export interface AdmissionRequest {
  readonly uid: string;
  readonly kind: GroupVersionKind;
  readonly operation: Operation;
  readonly name?: string;
  readonly namespace?: string;
  readonly subResource?: string;
  readonly object?: { readonly [k: string]: unknown };
  readonly oldObject?: { readonly [k: string]: unknown };
}

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

export type ReviewShape =
  { readonly ok: true; readonly request: AdmissionRequest } | { readonly ok: false; readonly error: string };

type JsonObject = { readonly [k: string]: unknown };

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function typeOf(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
}

/** The wire shape of an AdmissionReview request; the first problem as one sentence, or the request. */
export function admissionReviewShape(body: unknown): ReviewShape {
  const fail = (error: string): ReviewShape => ({ ok: false, error });
  if (!isObject(body))
    return fail(
      body === undefined
        ? "request body is required: an AdmissionReview"
        : `request body must be an AdmissionReview object, got ${typeOf(body)}`,
    );
  if (body.apiVersion !== ADMISSION_API_VERSION)
    return fail(`apiVersion must be ${ADMISSION_API_VERSION}, got ${JSON.stringify(body.apiVersion)}`);
  if (body.kind !== "AdmissionReview") return fail(`kind must be AdmissionReview, got ${JSON.stringify(body.kind)}`);
  const request = body.request;
  if (!isObject(request))
    return fail(request === undefined ? "request is required" : `request must be an object, got ${typeOf(request)}`);
  if (typeof request.uid !== "string" || request.uid === "") return fail("request.uid is required: a non-empty string");
  const kind = request.kind;
  if (
    !isObject(kind) ||
    typeof kind.group !== "string" ||
    typeof kind.version !== "string" ||
    typeof kind.kind !== "string"
  ) {
    return fail("request.kind must be {group, version, kind} with string values");
  }
  if (!OPERATIONS.includes(request.operation as Operation))
    return fail(`request.operation must be one of ${OPERATIONS.join(", ")}, got ${JSON.stringify(request.operation)}`);
  const writes = request.operation === "CREATE" || request.operation === "UPDATE";
  if (writes && !isObject(request.object))
    return fail(`request.object must be an object for ${String(request.operation)}, got ${typeOf(request.object)}`);
  for (const key of ["oldObject"] as const) {
    if (request[key] !== undefined && request[key] !== null && !isObject(request[key]))
      return fail(`request.${key} must be an object, got ${typeOf(request[key])}`);
  }
  for (const key of ["name", "namespace", "subResource"] as const) {
    if (request[key] !== undefined && typeof request[key] !== "string")
      return fail(`request.${key} must be a string, got ${typeOf(request[key])}`);
  }
  return { ok: true, request: request as unknown as AdmissionRequest };
}

function isLlsdV1alpha2(kind: GroupVersionKind): boolean {
  return kind.group === GROUP && kind.kind === KIND && kind.version === VERSION;
}

/** Order-insensitive JSON equality (the apiserver may re-encode maps in another order). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  }
  if (!isObject(a) || !isObject(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && sameJson(a[k], b[k]));
}

/** One line, as the apiserver wants warnings (kubectl prints each after "Warning: "). */
function line(error: FieldError): string {
  return `${error.path}: ${error.message}`.replace(/\s+/g, " ").trim();
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
): { errors: readonly FieldError[]; warnings: readonly FieldError[] } {
  const release = ctx.release ?? lineOfAdmitted(object, ctx, oldObject?.status);
  const { errors, warnings } = checkObject(object, {
    ...ctx,
    ...(release ? { release } : {}),
    apiVersions: [`${GROUP}/${VERSION}`],
  });
  return { errors, warnings };
}

function allow(uid: string, warnings: readonly string[] = []): AdmissionResponse {
  return { uid, allowed: true, ...(warnings.length > 0 ? { warnings } : {}) };
}

function deny(
  request: AdmissionRequest,
  errors: readonly FieldError[],
  warnings: readonly string[],
): AdmissionResponse {
  const metadata = request.object?.metadata as { name?: unknown } | undefined;
  const name = typeof metadata?.name === "string" && metadata.name !== "" ? metadata.name : request.name;
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
  const { uid, operation, object } = request;
  if (operation !== "CREATE" && operation !== "UPDATE") return allow(uid);
  if (!isLlsdV1alpha2(request.kind) || (request.subResource ?? "") !== "" || object === undefined) return allow(uid);
  const metadata = object.metadata as { deletionTimestamp?: unknown } | undefined;
  if (metadata?.deletionTimestamp !== undefined && metadata.deletionTimestamp !== null) return allow(uid);
  const { errors, warnings } = problemsOf(object, ctx, request.oldObject);
  const notes = warnings.map(line);
  if (errors.length === 0) return allow(uid, notes);
  if (operation === "UPDATE" && request.oldObject && sameJson(request.oldObject.spec, object.spec)) {
    return allow(uid, [...errors.map((e) => `${line(e)} (spec unchanged, so this update is allowed)`), ...notes]);
  }
  return deny(request, errors, notes);
}

/** The AdmissionReview to answer with. */
export function reviewResponse(response: AdmissionResponse): AdmissionReviewResponse {
  return { apiVersion: ADMISSION_API_VERSION, kind: "AdmissionReview", response };
}

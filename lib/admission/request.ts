/**
 * The wire shape of an AdmissionReview (`admission.k8s.io/v1`) as the apiserver sends it to
 * `/validate`: parsed, never assumed. `admissionReviewShape` names the first thing wrong in one
 * sentence (the hook answers 400 with it), or returns the fields the webhook reads.
 */
import { shortJson } from "../conversion/envelope";
import { isPlainObject, type JsonMap } from "../json";

export const ADMISSION_API_VERSION = "admission.k8s.io/v1";
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

export type ReviewShape =
  { readonly ok: true; readonly request: AdmissionRequest } | { readonly ok: false; readonly error: string };

/** What a field holds, for messages: "nothing" when it is missing (as /convert says it). */
function typeOf(value: unknown): string {
  if (value === undefined) return "nothing";
  return value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
}

const fail = (error: string): ReviewShape => ({ ok: false, error });

const isOperation = (value: unknown): value is Operation => OPERATIONS.some((op) => op === value);

function isGroupVersionKind(value: unknown): value is GroupVersionKind {
  return (
    isPlainObject(value) &&
    typeof value.group === "string" &&
    typeof value.version === "string" &&
    typeof value.kind === "string"
  );
}

/** The wire shape of an AdmissionReview request; the first problem as one sentence, or the request. */
export function admissionReviewShape(body: unknown): ReviewShape {
  if (!isPlainObject(body))
    return fail(
      body === undefined
        ? "request body is required: an AdmissionReview"
        : `request body must be an AdmissionReview object, got ${typeOf(body)}`,
    );
  if (body.apiVersion === undefined)
    return fail(`apiVersion is missing: an AdmissionReview has apiVersion ${ADMISSION_API_VERSION}, kind and request`);
  if (body.apiVersion !== ADMISSION_API_VERSION)
    return fail(`apiVersion must be ${ADMISSION_API_VERSION}, got ${shortJson(body.apiVersion)}`);
  if (body.kind !== "AdmissionReview") return fail(`kind must be AdmissionReview, got ${shortJson(body.kind)}`);
  return requestShape(body.request);
}

function requestShape(request: unknown): ReviewShape {
  if (!isPlainObject(request))
    return fail(
      request === undefined
        ? "request is required: the AdmissionRequest {uid, kind, operation, object}"
        : `request must be an object, got ${typeOf(request)}`,
    );
  const { uid, kind, operation } = request;
  if (typeof uid !== "string" || uid === "") return fail("request.uid is required: a non-empty string");
  if (!isGroupVersionKind(kind)) return fail("request.kind must be {group, version, kind} with string values");
  if (!isOperation(operation))
    return fail(`request.operation must be one of ${OPERATIONS.join(", ")}, got ${shortJson(operation)}`);
  const problem = objectsProblem(request, operation) ?? stringsProblem(request);
  if (problem !== undefined) return fail(problem);
  return { ok: true, request: admissionRequest(request, { uid, kind, operation }) };
}

function objectsProblem(request: JsonMap, operation: Operation): string | undefined {
  const { object, oldObject } = request;
  if ((operation === "CREATE" || operation === "UPDATE") && !isPlainObject(object))
    return `request.object must be an object for ${operation}, got ${typeOf(object)}`;
  if (oldObject !== undefined && oldObject !== null && !isPlainObject(oldObject))
    return `request.oldObject must be an object, got ${typeOf(oldObject)}`;
  return undefined;
}

function stringsProblem(request: JsonMap): string | undefined {
  for (const key of ["name", "namespace", "subResource"] as const) {
    if (request[key] !== undefined && typeof request[key] !== "string")
      return `request.${key} must be a string, got ${typeOf(request[key])}`;
  }
  return undefined;
}

/** The fields this webhook reads, from a request whose shape was checked. */
function admissionRequest(
  request: JsonMap,
  head: Pick<AdmissionRequest, "uid" | "kind" | "operation">,
): AdmissionRequest {
  const { name, namespace, subResource, object, oldObject } = request;
  return {
    ...head,
    ...(typeof name === "string" ? { name } : {}),
    ...(typeof namespace === "string" ? { namespace } : {}),
    ...(typeof subResource === "string" ? { subResource } : {}),
    ...(isPlainObject(object) ? { object } : {}),
    ...(isPlainObject(oldObject) ? { oldObject } : {}),
  };
}

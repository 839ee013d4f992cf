/**
 * The CRD conversion webhook's one job (docs/hook-api.md, "/convert"): a ConversionReview in,
 * a ConversionReview out with the same `uid`, every object at `desiredAPIVersion`, in order.
 * Objects may arrive in mixed versions; one already at the desired version passes through
 * untouched. Any failure fails the whole review (the apiserver wants all objects or none),
 * with a message naming each object and what is wrong. Never throws.
 */
import type { FieldError } from "../errors";
import { V1ALPHA1 } from "../api/v1alpha1";
import { KIND, V1ALPHA2 } from "../api/v1alpha2";
import { isPlainObject, own } from "../json";
import { shortJson, typeName } from "./envelope";
import { fromHub, toHub, type Conversion, type ConvertOptions } from "./v1alpha1";

export const REVIEW_KIND = "ConversionReview";
/** v1beta1 reviews have the same shape; the answer carries the apiVersion of the question. */
export const REVIEW_API_VERSIONS: readonly string[] = ["apiextensions.k8s.io/v1", "apiextensions.k8s.io/v1beta1"];
export const VERSIONS: readonly string[] = [V1ALPHA1, V1ALPHA2];

export type ConversionResult =
  { readonly status: "Success" } | { readonly status: "Failure"; readonly message: string };

export interface ConversionReviewResponse {
  readonly apiVersion: string;
  readonly kind: typeof REVIEW_KIND;
  readonly response: {
    readonly uid: string;
    readonly result: ConversionResult;
    /** Empty on failure: never a partial result. */
    readonly convertedObjects: readonly unknown[];
  };
}

/** The response and what a log line needs to know about the call. */
export interface ReviewOutcome {
  readonly response: ConversionReviewResponse;
  readonly uid: string;
  readonly desiredAPIVersion?: string;
  readonly objects?: number;
  /** Why it failed: the review or its objects (`request`), or a bug here (`internal`). */
  readonly failure?: "request" | "internal";
  /** The error behind an `internal` failure, for the log (never sent: it may hold anything). */
  readonly error?: unknown;
}

/** Objects a failure message names before it says "and N more". */
const NAMED_FAILURES = 5;

/** A review whose shape is right: what the conversion needs of it. */
interface ConversionRequest {
  readonly desired: string;
  readonly objects: readonly unknown[];
}

type Parsed =
  { readonly ok: true; readonly request: ConversionRequest } | { readonly ok: false; readonly problem: string };

type Answer = (result: ConversionResult, convertedObjects: readonly unknown[]) => ConversionReviewResponse;

/** With `consume`, the review's objects are handed over (v1alpha1.ts `ConvertOptions`). */
export function reviewConversion(review: unknown, options: ConvertOptions = {}): ReviewOutcome {
  const request = own(review, "request");
  const uid = own(request, "uid");
  const echoed = typeof uid === "string" ? uid : "";
  const apiVersion = own(review, "apiVersion");
  const answerVersion = isReviewVersion(apiVersion) ? apiVersion : REVIEW_API_VERSIONS[0]!;
  const answer: Answer = (result, convertedObjects) => ({
    apiVersion: answerVersion,
    kind: REVIEW_KIND,
    response: { uid: echoed, result, convertedObjects },
  });
  const desired = own(request, "desiredAPIVersion");
  const objects = own(request, "objects");
  const facts = {
    uid: echoed,
    ...(typeof desired === "string" ? { desiredAPIVersion: desired } : {}),
    ...(Array.isArray(objects) ? { objects: objects.length } : {}),
  };
  try {
    const parsed = parseReview(review);
    if (!parsed.ok)
      return { ...facts, response: answer({ status: "Failure", message: parsed.problem }, []), failure: "request" };
    return { ...facts, ...convertAll(parsed.request, answer, options) };
  } catch (err) {
    // A bug here must still answer: a thrown error would leave the apiserver with no reason at all.
    const message = `internal error in the conversion webhook (${err instanceof Error ? err.name : typeName(err)}); see its logs`;
    return { ...facts, response: answer({ status: "Failure", message }, []), failure: "internal", error: err };
  }
}

const isReviewVersion = (value: unknown): value is string =>
  typeof value === "string" && REVIEW_API_VERSIONS.includes(value);

/** Every object converted, or the failure naming each one that could not be. */
function convertAll(
  request: ConversionRequest,
  answer: Answer,
  options: ConvertOptions,
): Pick<ReviewOutcome, "response" | "failure"> {
  const { desired, objects } = request;
  const results = objects.map((object) => convertOne(object, desired, options));
  const failed = results.flatMap((result, index) =>
    result.ok ? [] : [`${describeObject(objects, index)}: ${joined(result.errors)}`],
  );
  if (failed.length > 0) {
    const more = failed.length > NAMED_FAILURES ? `; and ${failed.length - NAMED_FAILURES} more` : "";
    const message = `cannot convert ${failed.length} of ${results.length} object(s) to ${desired}: ${failed.slice(0, NAMED_FAILURES).join("; ")}${more}`;
    return { response: answer({ status: "Failure", message }, []), failure: "request" };
  }
  const converted = results.map((result) => (result.ok ? result.object : undefined));
  return { response: answer({ status: "Success" }, converted) };
}

/** The review's request, or the first thing wrong with the review, as one sentence. */
function parseReview(review: unknown): Parsed {
  if (!isPlainObject(review)) return fail(`the ConversionReview must be a JSON object, got ${typeName(review)}`);
  const kind = own(review, "kind");
  if (kind !== REVIEW_KIND) return fail(`kind must be "${REVIEW_KIND}", got ${shortJson(kind)}`);
  const apiVersion = own(review, "apiVersion");
  if (!isReviewVersion(apiVersion)) {
    return fail(
      `apiVersion must be one of ${REVIEW_API_VERSIONS.map((v) => `"${v}"`).join(", ")}, got ${shortJson(apiVersion)}`,
    );
  }
  return parseRequest(own(review, "request"));
}

function parseRequest(request: unknown): Parsed {
  if (!isPlainObject(request))
    return fail(`request is required: an object {uid, desiredAPIVersion, objects}, got ${typeName(request)}`);
  const uid = own(request, "uid");
  if (typeof uid !== "string" || uid === "")
    return fail(`request.uid must be a non-empty string, got ${shortJson(uid)}`);
  const desired = own(request, "desiredAPIVersion");
  if (typeof desired !== "string" || !VERSIONS.includes(desired)) {
    return fail(
      `request.desiredAPIVersion must be one of ${VERSIONS.map((v) => `"${v}"`).join(", ")}, got ${shortJson(desired)}`,
    );
  }
  const objects = own(request, "objects");
  if (!Array.isArray(objects))
    return fail(`request.objects must be a list of ${KIND} objects, got ${typeName(objects)}`);
  return { ok: true, request: { desired, objects } };
}

const fail = (problem: string): Parsed => ({ ok: false, problem });

function convertOne(object: unknown, desired: string, options: ConvertOptions): Conversion<unknown> {
  const kind = own(object, "kind");
  const apiVersion = own(object, "apiVersion");
  if (!isPlainObject(object)) return failure("(root)", `must be a ${KIND} object, got ${typeName(object)}`);
  if (kind !== KIND)
    return failure("kind", `must be "${KIND}" (this webhook converts nothing else), got ${shortJson(kind)}`);
  if (typeof apiVersion !== "string" || !VERSIONS.includes(apiVersion)) {
    return failure(
      "apiVersion",
      `must be one of ${VERSIONS.map((v) => `"${v}"`).join(", ")}, got ${shortJson(apiVersion)}`,
    );
  }
  // Already there: untouched, not even re-serialized through a conversion.
  if (apiVersion === desired) return { ok: true, object };
  return desired === V1ALPHA2 ? toHub(object, options) : fromHub(object, options);
}

function failure(path: string, message: string): Conversion<unknown> {
  return { ok: false, errors: [{ path, message }] };
}

/** `objects[2] (team-a/my-llsd)`: where it is in the request and which resource it is. */
function describeObject(objects: readonly unknown[], index: number): string {
  const metadata = own(objects[index], "metadata");
  const name = own(metadata, "name");
  const namespace = own(metadata, "namespace");
  const who = typeof name !== "string" ? "unnamed" : typeof namespace === "string" ? `${namespace}/${name}` : name;
  return `objects[${index}] (${who})`;
}

function joined(errors: readonly FieldError[]): string {
  return errors.map((e) => `${e.path}: ${e.message}`).join(", ");
}

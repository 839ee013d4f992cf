/**
 * Does an UPDATE leave everything the admission check reads as it was? The check reads the
 * spec, the status (the server line a running CR keeps) and annotations of this project's
 * group, `llamastack.io/…` (which line it follows; whether it is a v1alpha1 CR, from the
 * conversion's annotations); the name cannot change. Such an update — a label, an unrelated
 * annotation, a finalizer — gets the verdict its spec got when it was written, so it is
 * allowed without checking again: a metadata edit is never blocked, and the spec's problems,
 * if any, are where the sync hook reports them, in the CR's status conditions.
 */
import { isPlainObject, own } from "../conversion/paths";
import type { AdmissionRequest } from "./request";

/**
 * The annotations that may change a verdict: the group's own. Today the check reads
 * `llamastack.io/follow-default-image` (lib/sync/target.ts) and the conversion's
 * `llamastack.io/v1alpha1-fields` and `llamastack.io/v1alpha2-fields` (lib/sync/legacy.ts);
 * the prefix keeps one the check reads later from being missed here.
 */
const GROUP_PREFIX = "llamastack.io/";

/** Order-insensitive JSON equality (the apiserver may re-encode maps in another order). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  }
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && sameJson(a[k], b[k]));
}

/** An UPDATE whose spec is the old object's (the check's problems then never block it). */
export function specUnchanged(request: AdmissionRequest): boolean {
  const old = request.oldObject;
  return request.operation === "UPDATE" && old !== undefined && sameJson(old.spec, request.object?.spec);
}

/** An UPDATE that changes nothing the check reads (see the file comment). */
export function checkInputsUnchanged(request: AdmissionRequest): boolean {
  if (!specUnchanged(request)) return false;
  const [before, after] = [request.oldObject, request.object];
  if (!sameJson(before?.status, after?.status)) return false;
  return sameJson(groupAnnotations(before), groupAnnotations(after));
}

function groupAnnotations(object: { readonly [k: string]: unknown } | undefined): { [key: string]: unknown } {
  const annotations = own(own(object, "metadata"), "annotations");
  const ours: { [key: string]: unknown } = {};
  if (!isPlainObject(annotations)) return ours;
  for (const [key, value] of Object.entries(annotations)) if (key.startsWith(GROUP_PREFIX)) ours[key] = value;
  return ours;
}

/**
 * Does an UPDATE leave everything the admission check reads as it was? The check reads the
 * spec, the status (the server line a running CR keeps) and two annotations (which line it
 * follows, and whether it is a v1alpha1 CR); the name cannot change. Such an update — a label,
 * an unrelated annotation, a finalizer — gets the verdict its spec got when it was written, so
 * it is allowed without checking again: a metadata edit is never blocked, and the spec's
 * problems, if any, are where the sync hook reports them, in the CR's status conditions.
 */
import { V1ALPHA1_FIELDS } from "../conversion/annotations";
import { isPlainObject, own } from "../conversion/paths";
import { FOLLOW_DEFAULT_ANNOTATION } from "../sync/target";
import type { AdmissionRequest } from "./request";

/** The annotations the check reads (lib/sync/target.ts, lib/sync/legacy.ts). */
const READ_ANNOTATIONS = [FOLLOW_DEFAULT_ANNOTATION, V1ALPHA1_FIELDS] as const;

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
  const [was, is] = [own(before?.metadata, "annotations"), own(after?.metadata, "annotations")];
  return READ_ANNOTATIONS.every((key) => own(was, key) === own(is, key));
}

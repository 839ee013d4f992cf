/**
 * Does an UPDATE keep what a problem is about? Such an update — a label, an annotation, a
 * finalizer — is checked like any other write, but never denied for problems it did not bring:
 * they come back as warnings, so `kubectl label` shows them and a metadata edit is never
 * blocked. A problem of an annotation is about that annotation; any other, about the spec.
 */
import { isPlainObject, own } from "../json";
import type { AdmissionRequest } from "./request";

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

/** Of an UPDATE that keeps the spec: does it keep the field of a problem at `path`? */
export function keptBy(request: AdmissionRequest, path: string): boolean {
  const quoted = /^metadata\.annotations\[(".*")\]$/.exec(path)?.[1];
  if (quoted === undefined) return true;
  const key: unknown = JSON.parse(quoted); // the path's own quoting (annotationPath)
  const annotation = (object: unknown): unknown => own(own(own(object, "metadata"), "annotations"), String(key));
  return sameJson(annotation(request.oldObject), annotation(request.object));
}

/**
 * Validation ratcheting, as Kubernetes does it for CRDs (CRDValidationRatcheting): an UPDATE
 * that changes nothing the check reads is admitted without running it. Such an update — a
 * label, a finalizer, an annotation the check does not read, a managedFields entry — can never
 * be denied (lib/admission/unchanged.ts: its problems are about a spec and annotations it keeps),
 * so checking it only produced warnings about the stored object, at the cost of a full check
 * per metadata write. `llsd validate` and the CR's status still say what is wrong with it.
 *
 * What the check reads (lib/admission/review.ts `problemsOf`, lib/admission/line.ts): the
 * object's apiVersion, kind, name, spec and annotations, the old object's spec and status. Of
 * the annotations: the conversion's two (the check parses one, the server line converts the CR
 * back through both) and `llamastack.io/follow-default-image` (the line); a CR that carries the
 * conversion's `llamastack.io/v1alpha1-fields` is converted back whole, and the conversion
 * weighs every annotation (their total size), so then all of them are read. Annotations that are
 * not all strings are read as none, and none as an empty map.
 */
import { V1ALPHA1_FIELDS, V1ALPHA2_FIELDS } from "../conversion/annotations";
import { isPlainObject, isStringMap, own } from "../json";
import { FOLLOW_DEFAULT_ANNOTATION } from "../sync/target";
import type { AdmissionRequest } from "./request";
import { sameJson } from "./unchanged";

/** The annotations whose values the check reads, when the CR has no `v1alpha1-fields`. */
export const READ_ANNOTATIONS: readonly string[] = [V1ALPHA1_FIELDS, V1ALPHA2_FIELDS, FOLLOW_DEFAULT_ANNOTATION];

/** The parts of the object's top level the check reads (metadata apart). */
const READ_FIELDS = ["apiVersion", "kind", "spec", "status"] as const;

/** What the check reads of the annotations (see the file comment); a marker when they are not all strings. */
function readAnnotations(object: unknown): unknown {
  const annotations = own(own(object, "metadata"), "annotations") ?? {};
  if (!isStringMap(annotations)) return { notAllStrings: true };
  if (annotations[V1ALPHA1_FIELDS] !== undefined) return annotations;
  return Object.fromEntries(
    READ_ANNOTATIONS.flatMap((key) => (Object.hasOwn(annotations, key) ? [[key, annotations[key]]] : [])),
  );
}

/**
 * An UPDATE whose object and old object agree on everything the check reads: the old object's
 * status stands for the new one's (the status subresource keeps it), and a new name is
 * compared too, though the apiserver never changes one.
 */
export function ratchets(request: AdmissionRequest): boolean {
  const { object, oldObject } = request;
  if (request.operation !== "UPDATE" || !isPlainObject(object) || !isPlainObject(oldObject)) return false;
  if (!READ_FIELDS.every((field) => sameJson(object[field], oldObject[field]))) return false;
  const name = (o: unknown): unknown => own(own(o, "metadata"), "name");
  return name(object) === name(oldObject) && sameJson(readAnnotations(object), readAnnotations(oldObject));
}

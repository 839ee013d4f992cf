/**
 * The hooks compute in v1alpha2, the stored version. A parent in v1alpha1 (a Metacontroller
 * configured for v1alpha1, `llsd request sync` on a v1alpha1 file) is converted first, exactly
 * as POST /convert would convert it, and its status is answered back in v1alpha1: Metacontroller
 * writes the status to the version it reads, and that version's schema prunes the rest.
 */
import { V1ALPHA1 } from "../api/v1alpha1";
import { fieldError, type FieldError } from "../errors";
import { fromHub, toHub } from "../conversion/v1alpha1";
import { isKubeObject, type KubeObject } from "../wire/metacontroller";

export type HubParent =
  | { readonly ok: true; readonly parent: KubeObject; readonly spoke: boolean }
  | { readonly ok: false; readonly errors: readonly FieldError[] };

/** The parent in v1alpha2; `spoke` when it came in v1alpha1. Any other apiVersion passes as is. */
export function hubParent(parent: KubeObject): HubParent {
  if (parent.apiVersion !== V1ALPHA1) return { ok: true, parent, spoke: false };
  const converted = toHub(parent);
  if (!converted.ok)
    return {
      ok: false,
      errors: converted.errors.map((e) => ({
        ...e,
        message: `${e.message} (the v1alpha1 parent could not be converted to v1alpha2)`,
      })),
    };
  const hub = converted.object;
  // The conversion keeps the envelope it was given; a parent that came as a KubeObject stays one.
  if (!isKubeObject(hub))
    return { ok: false, errors: [fieldError("metadata", "the converted parent lost its metadata")] };
  return { ok: true, parent: hub, spoke: true };
}

/** The parent's spec in v1alpha2 (for validation before the sync), or the spec as sent. */
export function hubSpec(parent: KubeObject): unknown {
  const hub = hubParent(parent);
  return (hub.ok ? hub.parent : parent).spec;
}

/** A v1alpha2 status as the v1alpha1 parent holds it (fields v1alpha1 has no words for are left out). */
export function spokeStatus(
  hub: KubeObject,
  status: { readonly [k: string]: unknown },
): { readonly [k: string]: unknown } {
  const back = fromHub({
    apiVersion: hub.apiVersion,
    kind: hub.kind,
    metadata: { name: hub.metadata.name },
    spec: hub.spec,
    status,
  });
  return back.ok && back.object.status ? back.object.status : status;
}

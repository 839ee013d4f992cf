/** The CR as the apiserver hands it to the hooks, for the one-voice and one-verdict tests. */
import { LLSD_KIND } from "../../lib/config/check-object";
import { isPlainObject, own } from "../../lib/json";
import { toHub } from "../../lib/conversion/v1alpha1";
import type { KubeObject } from "../../lib/wire/metacontroller";
import type { Json } from "./bad-crs";

/** Stored as v1alpha2 (a v1alpha1 CR converted), in namespace `namespace`, at generation 1. */
export function asStored(cr: Json, namespace: string): KubeObject {
  const converted = cr.apiVersion === "llamastack.io/v1alpha1" ? toHub(cr) : { ok: true as const, object: cr };
  if (!converted.ok) throw new Error("the v1alpha1 CR does not convert");
  const { metadata } = converted.object;
  return {
    ...converted.object,
    apiVersion: String(converted.object.apiVersion),
    kind: LLSD_KIND,
    metadata: {
      ...(isPlainObject(metadata) ? metadata : {}),
      name: String(own(metadata, "name")),
      namespace,
      uid: "uid-1",
      generation: 1,
    },
  };
}

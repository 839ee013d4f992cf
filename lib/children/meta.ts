/**
 * Metadata shared by every child: its name, the parent's namespace (children never leave it)
 * and the common labels. One place, so no builder can forget a label.
 */
import type { V1ObjectMeta } from "@kubernetes/client-node";
import { commonLabels } from "../names";
import type { ChildContext } from "./context";

/** `V1ObjectMeta` with the fields every child must carry made required. */
export type ChildMeta = V1ObjectMeta & { name: string; namespace: string; labels: { [k: string]: string } };

export function childMeta(ctx: ChildContext, name: string, annotations?: { readonly [k: string]: string }): ChildMeta {
  return {
    name,
    namespace: ctx.namespace,
    // A fresh copy per child: no two children share a mutable labels object.
    labels: { ...commonLabels(ctx.name) },
    ...(annotations ? { annotations: { ...annotations } } : {}),
  };
}

/** A fresh, mutable copy of a label map (selectors must not alias the shared constants). */
export function labelsOf(labels: { readonly [k: string]: string }): { [k: string]: string } {
  return { ...labels };
}

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
  // commonLabels gives a fresh object per call: no two children share a mutable labels object.
  const labels = commonLabels(ctx.name);
  return annotations
    ? { name, namespace: ctx.namespace, labels, annotations: { ...annotations } }
    : { name, namespace: ctx.namespace, labels };
}

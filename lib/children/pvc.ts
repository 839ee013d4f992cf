/**
 * The server's state volume `<name>-pvc` when `workload.storage` is set. ReadWriteOnce, hence
 * the Deployment's Recreate strategy. Storage class: the cluster default.
 */
import type { V1PersistentVolumeClaim } from "@kubernetes/client-node";
import { DEFAULT_STORAGE_SIZE } from "../defaults";
import { names } from "../names";
import type { ChildContext } from "./context";
import { childMeta } from "./meta";

export function buildPvc(ctx: ChildContext): V1PersistentVolumeClaim | undefined {
  const storage = ctx.spec.workload.storage;
  if (!storage) return undefined;
  return {
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    metadata: childMeta(ctx, names.pvc(ctx.name)),
    spec: {
      accessModes: ["ReadWriteOnce"],
      resources: { requests: { storage: String(storage.size ?? DEFAULT_STORAGE_SIZE) } },
    },
  };
}

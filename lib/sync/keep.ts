/**
 * The rule that protects running servers (docs/failure-policy.md): on a spec or environment error the
 * answer still lists every observed child, re-emitted from what was last desired for it, so
 * Metacontroller neither deletes nor changes anything.
 */
import { names, RELEASE_STORAGE_ANNOTATION } from "../names";
import { isKubeObject, objectsOf, SERVER_METADATA, type KubeObject, type ObjectMap } from "../wire/metacontroller";
import type { Observed } from "../status/observed";

/** Metacontroller's dynamic apply records the last desired object here. */
export const LAST_APPLIED = "metacontroller.k8s.io/last-applied-configuration";

/** What Metacontroller last applied for `observed`, when the annotation holds that object. */
function lastDesired(observed: KubeObject): KubeObject | undefined {
  const lastApplied = observed.metadata.annotations?.[LAST_APPLIED];
  if (!lastApplied) return undefined;
  let desired: unknown;
  try {
    desired = JSON.parse(lastApplied);
  } catch {
    return undefined; // A damaged annotation falls through to the observed object.
  }
  if (!isKubeObject(desired) || desired.kind !== observed.kind) return undefined;
  return desired.metadata.name === observed.metadata.name ? desired : undefined;
}

export function reemit(observed: KubeObject): KubeObject {
  const desired = lastDesired(observed);
  if (desired) return desired;
  const { status: _status, metadata, ...rest } = observed;
  const kept = { ...metadata };
  for (const key of SERVER_METADATA) delete kept[key];
  if (metadata.annotations?.[LAST_APPLIED] !== undefined) {
    const { [LAST_APPLIED]: _dropped, ...annotations } = metadata.annotations;
    kept.annotations = annotations;
  }
  return { ...rest, metadata: kept };
}

/** Every observed child, re-emitted, in a deterministic order. */
export function keptChildren(children: ObjectMap | undefined): KubeObject[] {
  return Object.keys(children ?? {})
    .sort()
    .flatMap((key) => objectsOf(children, key).map(reemit));
}

/**
 * An edit never deletes data: a PVC the spec no longer asks for (`workload.storage` removed)
 * is re-emitted as observed, unmounted, until the CR carries `llamastack.io/release-storage:
 * "true"`. Then it is left out, and Metacontroller deletes it.
 */
export function retainedStorage(
  parent: KubeObject,
  observed: Observed,
  desired: readonly KubeObject[],
): { children: KubeObject[]; notes: string[] } {
  const pvcName = names.pvc(parent.metadata.name);
  const pvc = observed.pvc;
  if (!pvc || desired.some((c) => c.kind === "PersistentVolumeClaim" && c.metadata.name === pvcName))
    return { children: [], notes: [] };
  if (parent.metadata.annotations?.[RELEASE_STORAGE_ANNOTATION] === "true") {
    return {
      children: [],
      notes: [
        `workload.storage: PVC ${pvcName} is released (${RELEASE_STORAGE_ANNOTATION}: "true") and is being deleted with its data`,
      ],
    };
  }
  return {
    children: [reemit(pvc)],
    notes: [
      `workload.storage: removed from the spec, but PVC ${pvcName} and its data are kept (no longer mounted). To delete it, annotate the CR ${RELEASE_STORAGE_ANNOTATION}="true"; to use it again, set workload.storage back`,
    ],
  };
}

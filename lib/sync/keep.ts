/**
 * The rule that protects running servers (DESIGN §9): on a spec or environment error the
 * answer still lists every observed child, re-emitted from what was last desired for it, so
 * Metacontroller neither deletes nor changes anything.
 */
import { names, RELEASE_STORAGE_ANNOTATION } from "../names";
import { KEYS, lookup, objectsOf, type KubeObject, type ObjectMap, type SyncRequest } from "../wire/metacontroller";

/** Metacontroller's dynamic apply records the last desired object here. */
export const LAST_APPLIED = "metacontroller.k8s.io/last-applied-configuration";

/** Server-owned metadata that a desired object never carries. */
const SERVER_METADATA = [
  "uid",
  "resourceVersion",
  "generation",
  "creationTimestamp",
  "deletionTimestamp",
  "deletionGracePeriodSeconds",
  "managedFields",
  "selfLink",
  "ownerReferences",
  "finalizers",
];

export function reemit(observed: KubeObject): KubeObject {
  const lastApplied = observed.metadata.annotations?.[LAST_APPLIED];
  if (lastApplied) {
    try {
      const desired = JSON.parse(lastApplied) as KubeObject;
      if (desired.kind === observed.kind && desired.metadata?.name === observed.metadata.name) return desired;
    } catch {
      // A damaged annotation falls through to the observed object.
    }
  }
  const { status: _status, metadata, ...rest } = observed;
  const kept: { [k: string]: unknown } = { ...metadata };
  for (const key of SERVER_METADATA) delete kept[key];
  if (metadata.annotations?.[LAST_APPLIED] !== undefined) {
    const { [LAST_APPLIED]: _dropped, ...annotations } = metadata.annotations;
    kept.annotations = annotations;
  }
  return { ...rest, metadata: kept as KubeObject["metadata"] };
}

/** Every observed child, re-emitted, in a deterministic order. */
export function keptChildren(children: ObjectMap | undefined): KubeObject[] {
  return Object.keys(children ?? {})
    .sort()
    .flatMap((key) => objectsOf(children, key).map(reemit));
}

/** The ConfigMap the observed Deployment mounts, if it is one of our observed children. */
export function configMapInUse(
  children: ObjectMap | undefined,
  name: string,
  namespace: string,
): KubeObject | undefined {
  const deployment = lookup(children, KEYS.deployment, namespace, names.deployment(name));
  const volumes =
    (deployment?.spec as { template?: { spec?: { volumes?: { configMap?: { name?: string } }[] } } } | undefined)
      ?.template?.spec?.volumes ?? [];
  const prefix = names.config(name, "");
  const mounted = volumes.map((v) => v.configMap?.name).find((n) => n?.startsWith(prefix));
  return mounted ? lookup(children, KEYS.configMap, namespace, mounted) : undefined;
}

/**
 * An edit never deletes data: a PVC the spec no longer asks for (`workload.storage` removed)
 * is re-emitted as observed, unmounted, until the CR carries `llamastack.io/release-storage:
 * "true"`. Then it is left out, and Metacontroller deletes it.
 */
export function retainedStorage(
  request: SyncRequest,
  name: string,
  namespace: string,
  desired: readonly KubeObject[],
): { children: KubeObject[]; notes: string[] } {
  const pvcName = names.pvc(name);
  const observed = lookup(request.children, KEYS.pvc, namespace, pvcName);
  if (!observed || desired.some((c) => c.kind === "PersistentVolumeClaim" && c.metadata.name === pvcName))
    return { children: [], notes: [] };
  if (request.parent.metadata.annotations?.[RELEASE_STORAGE_ANNOTATION] === "true") {
    return {
      children: [],
      notes: [
        `workload.storage: PVC ${pvcName} is released (${RELEASE_STORAGE_ANNOTATION}: "true") and is being deleted with its data`,
      ],
    };
  }
  return {
    children: [reemit(observed)],
    notes: [
      `workload.storage: removed from the spec, but PVC ${pvcName} and its data are kept (no longer mounted). To delete it, annotate the CR ${RELEASE_STORAGE_ANNOTATION}="true"; to use it again, set workload.storage back`,
    ],
  };
}

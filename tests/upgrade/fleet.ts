/**
 * The fleet an upgrade meets: every parent has run the previous release, so what Metacontroller
 * observes for it are that release's desired children, as Metacontroller applied them (its
 * `controller-uid` label added, the applied object recorded in the last-applied annotation).
 * The upgrade is measured on that state, not on the children recorded when the traffic was
 * captured (older code's), so a parent the new code keeps as it is (Stalled, held) shows no
 * change, as in a real fleet. Its rollouts have ended: a generated ConfigMap that the previous
 * release kept only for pods mid-rollout (its Deployment no longer mounts it) is gone, as that
 * release's next sync would have removed it.
 */
import { isPlainObject, type JsonMap } from "../../lib/json";
import { LAST_APPLIED } from "../../lib/sync/keep";
import { names } from "../../lib/names";

/** Metacontroller adds this label (the parent's uid) to every desired child and selects on it. */
const CONTROLLER_UID = "controller-uid";

const mapOf = (value: unknown): JsonMap => (isPlainObject(value) ? value : {});
const text = (value: unknown): string => (typeof value === "string" ? value : "");

/** The parent's name, namespace and uid ("" where the request lacks one). */
export function parentOf(request: JsonMap): { name: string; namespace: string; uid: string } {
  const metadata = mapOf(mapOf(request.parent).metadata);
  return { name: text(metadata.name), namespace: text(metadata.namespace), uid: text(metadata.uid) };
}

/** The child as Metacontroller applies it for the parent with `uid`. */
export function asApplied(child: unknown, uid: string): unknown {
  if (!isPlainObject(child)) return child;
  const metadata = mapOf(child.metadata);
  return { ...child, metadata: { ...metadata, labels: { ...mapOf(metadata.labels), [CONTROLLER_UID]: uid } } };
}

/** Metacontroller's key of a child group (`Deployment.apps/v1`) and of a child (`<namespace>/<name>`). */
function keysOf(child: JsonMap, namespace: string): [string, string] {
  const metadata = mapOf(child.metadata);
  return [
    `${text(child.kind)}.${text(child.apiVersion)}`,
    `${text(metadata.namespace) || namespace}/${text(metadata.name)}`,
  ];
}

/**
 * The object Metacontroller observes after applying `desired`: the recorded object of the same
 * key lends what the cluster adds (status, uid, resourceVersion…), when there is one.
 */
function observedAfterApply(desired: JsonMap, recorded: unknown, namespace: string): JsonMap {
  const applied = mapOf(desired);
  const metadata = mapOf(applied.metadata);
  const cluster = mapOf(recorded);
  const clusterMeta = mapOf(cluster.metadata);
  const { uid, resourceVersion, creationTimestamp, generation } = clusterMeta;
  const annotations = { ...mapOf(metadata.annotations), [LAST_APPLIED]: JSON.stringify(applied) };
  const serverMeta = Object.fromEntries(
    Object.entries({ uid, resourceVersion, creationTimestamp, generation }).filter(([, v]) => v !== undefined),
  );
  const observed = { ...applied, metadata: { namespace, ...metadata, ...serverMeta, annotations } };
  return cluster.status === undefined ? observed : { ...observed, status: cluster.status };
}

/** The request Metacontroller sends for `request`'s parent once it has run with `children` applied. */
export function fleetRequest(request: JsonMap, children: readonly unknown[]): JsonMap {
  const { namespace, uid } = parentOf(request);
  const recorded = mapOf(request.children);
  const observed: { [group: string]: JsonMap } = {};
  for (const child of children) {
    const applied = asApplied(child, uid);
    if (!isPlainObject(applied)) continue;
    const [group, key] = keysOf(applied, namespace);
    const before = mapOf(recorded[group])[key];
    observed[group] = { ...observed[group], [key]: observedAfterApply(applied, before, namespace) };
  }
  return { ...request, children: observed };
}

function mountedConfigMaps(deployment: unknown): string[] {
  const spec = mapOf(mapOf(mapOf(mapOf(deployment).spec).template).spec);
  const volumes: unknown = spec.volumes;
  return Array.isArray(volumes) ? volumes.map((v) => text(mapOf(mapOf(v).configMap).name)) : [];
}

/** `children` once their rollout has ended: generated ConfigMaps the Deployment does not mount are gone. */
export function settled(children: readonly unknown[], parentName: string): unknown[] {
  const deployment = children.find((c) => isPlainObject(c) && c.kind === "Deployment");
  if (deployment === undefined) return [...children];
  const mounted = new Set(mountedConfigMaps(deployment));
  const prefix = names.config(parentName, "");
  const stale = (c: unknown): boolean => {
    const name = text(mapOf(mapOf(c).metadata).name);
    return mapOf(c).kind === "ConfigMap" && name.startsWith(prefix) && !mounted.has(name);
  };
  return children.filter((c) => !stale(c));
}

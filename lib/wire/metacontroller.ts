/**
 * Metacontroller's hook wire format (docs/hook-api.md), hand-written and readonly. Children and
 * related objects are keyed `<Kind>.<apiVersion>` → (`name` for hook version v1, `namespace/name`
 * for v2); both keyings are accepted.
 */
import { define, isPlainObject, isStringMap } from "../json";

/** Any Kubernetes object as it travels over the wire. */
export interface KubeObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: {
    readonly name: string;
    readonly namespace?: string;
    readonly uid?: string;
    readonly generation?: number;
    readonly labels?: { readonly [k: string]: string };
    readonly annotations?: { readonly [k: string]: string };
    readonly [k: string]: unknown;
  };
  readonly [k: string]: unknown;
}

const isString = (value: unknown): value is string => typeof value === "string";
const absentOr = (value: unknown, check: (value: unknown) => boolean): boolean => value === undefined || check(value);

function isMetadata(value: unknown): value is KubeObject["metadata"] {
  if (!isPlainObject(value) || !isString(value.name)) return false;
  const { namespace, uid, generation, labels, annotations } = value;
  return (
    absentOr(namespace, isString) &&
    absentOr(uid, isString) &&
    absentOr(generation, (g) => typeof g === "number") &&
    absentOr(labels, isStringMap) &&
    absentOr(annotations, isStringMap)
  );
}

/** The string entries of a map (labels, annotations, a ConfigMap's or Secret's data); anything else reads as absent. */
export function stringEntries(value: unknown): { readonly [key: string]: string } {
  const out: { [key: string]: string } = {};
  if (!isPlainObject(value)) return out;
  // A loop rather than entries → filter → fromEntries: labels and annotations are read on every sync.
  for (const key of Object.keys(value)) {
    const entry = value[key];
    if (typeof entry === "string") define(out, key, entry);
  }
  return out;
}

/** A value of the shape `KubeObject` declares (e.g. one parsed from an annotation). */
export function isKubeObject(value: unknown): value is KubeObject {
  return isPlainObject(value) && isString(value.apiVersion) && isString(value.kind) && isMetadata(value.metadata);
}

/** `"Deployment.apps/v1"` → (`"name"` | `"ns/name"`) → object. */
export type ObjectMap = { readonly [kindDotVersion: string]: { readonly [key: string]: KubeObject } };

export interface SyncRequest {
  readonly controller?: unknown;
  readonly parent: KubeObject;
  readonly children?: ObjectMap;
  readonly related?: ObjectMap;
  readonly finalizing?: boolean;
}

/** v2 hooks are parsed strictly: no other top-level keys may appear. */
export interface SyncResponse {
  readonly status: { readonly [k: string]: unknown };
  readonly children: readonly KubeObject[];
  readonly resyncAfterSeconds?: number;
}

/**
 * An answer already serialized (the sync memo, lib/sync/memo.ts): the HTTP layer sends `body`
 * (JSON, UTF-8) as is. `summary` holds the counts its log line shows.
 */
export class SerializedAnswer {
  constructor(
    readonly body: Buffer,
    readonly summary: { readonly [count: string]: number },
  ) {}
}

export interface CustomizeRequest {
  readonly controller?: unknown;
  readonly parent: KubeObject;
}

export interface RelatedResourceRule {
  readonly apiVersion: string;
  readonly resource: string;
  readonly namespace?: string;
  readonly names?: readonly string[];
  readonly labelSelector?: { readonly matchLabels?: { readonly [k: string]: string } };
}

export interface CustomizeResponse {
  readonly relatedResources: readonly RelatedResourceRule[];
}

/** `Kind.apiVersion` keys of the maps above. */
export const KEYS = {
  configMap: "ConfigMap.v1",
  secret: "Secret.v1",
  deployment: "Deployment.apps/v1",
  service: "Service.v1",
  pvc: "PersistentVolumeClaim.v1",
  networkPolicy: "NetworkPolicy.networking.k8s.io/v1",
  ingress: "Ingress.networking.k8s.io/v1",
  route: "Route.route.openshift.io/v1",
  hpa: "HorizontalPodAutoscaler.autoscaling/v2",
  pdb: "PodDisruptionBudget.policy/v1",
  endpointSlice: "EndpointSlice.discovery.k8s.io/v1",
} as const;

/** Find `name` in one kind's map whatever the keying (v1 `name`, v2 `ns/name`). */
export function lookup(
  map: ObjectMap | undefined,
  key: string,
  namespace: string,
  name: string,
): KubeObject | undefined {
  const objects = map?.[key];
  if (!objects) return undefined;
  return objects[`${namespace}/${name}`] ?? objects[name];
}

/** Every object of one kind, in key order (deterministic). */
export function objectsOf(map: ObjectMap | undefined, key: string): KubeObject[] {
  const objects = map?.[key] ?? {};
  return Object.keys(objects)
    .sort()
    .map((k) => objects[k]!);
}

/** Metadata the apiserver sets on an object it stores: a desired object never carries it. */
export const SERVER_METADATA: readonly string[] = [
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

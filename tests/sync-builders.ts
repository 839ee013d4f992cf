/** Builders for sync/customize requests in Metacontroller's v2 shape. */
import type { LlsdSpecV1alpha2 } from "../lib/api/v1alpha2";
import { DEFAULT_DISTRIBUTIONS } from "../lib/distributions/table";
import { LAST_APPLIED } from "../lib/sync/keep";
import type { SyncDeps } from "../lib/sync/sync";
import type { KubeObject, ObjectMap, SyncRequest } from "../lib/wire/metacontroller";

export const NS = "team-a";
export const T0 = new Date("2026-11-22T10:00:00Z");

export function deps(now: Date = T0): SyncDeps {
  return { now: () => now, distributions: DEFAULT_DISTRIBUTIONS, hooksNamespace: "llsd-hooks", exposeWith: "ingress" };
}

export function aParent(spec: LlsdSpecV1alpha2 | object, extra: { status?: object; generation?: number; name?: string } = {}): KubeObject {
  return structuredClone({
    apiVersion: "llamastack.io/v1alpha2",
    kind: "LlamaStackDistribution",
    metadata: { name: extra.name ?? "demo", namespace: NS, uid: "uid-1", generation: extra.generation ?? 1 },
    spec,
    ...(extra.status ? { status: extra.status } : {}),
  });
}

export function aSecret(name: string, data: Record<string, string>): KubeObject {
  const encoded = Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString("base64")]));
  return { apiVersion: "v1", kind: "Secret", metadata: { name, namespace: NS }, type: "Opaque", data: encoded };
}

export function aConfigMap(name: string, data: Record<string, string>): KubeObject {
  return { apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace: NS }, data };
}

/** `Kind.apiVersion` → `ns/name` → object (hook version v2). */
export function objectMap(objects: readonly KubeObject[]): ObjectMap {
  const map: Record<string, Record<string, KubeObject>> = {};
  for (const o of objects) {
    const key = `${o.kind}.${o.apiVersion}`;
    map[key] = { ...map[key], [`${o.metadata.namespace ?? NS}/${o.metadata.name}`]: o };
  }
  return map;
}

export function aRequest(parent: KubeObject, children: readonly KubeObject[] = [], related: readonly KubeObject[] = []): SyncRequest {
  return { parent, children: objectMap(children), related: objectMap(related) };
}

/**
 * What the cluster holds after Metacontroller applied `desired`: server metadata added, the
 * last-applied annotation recorded (dynamic apply), and a ready Deployment status.
 */
export function observedFrom(desired: readonly KubeObject[], readyReplicas = 1): KubeObject[] {
  return desired.map((d) => {
    const observed: Record<string, unknown> = {
      ...structuredClone(d),
      metadata: {
        ...structuredClone(d.metadata),
        uid: `uid-${d.kind}-${d.metadata.name}`,
        resourceVersion: "42",
        creationTimestamp: "2026-11-22T09:00:00Z",
        annotations: { ...d.metadata.annotations, [LAST_APPLIED]: JSON.stringify(d) },
      },
    };
    if (d.kind === "Deployment") observed.status = { readyReplicas, replicas: readyReplicas };
    return observed as KubeObject;
  });
}

/** Builders for sync/customize requests in Metacontroller's v2 shape. */
import type { LlsdSpecV1alpha2 } from "../lib/api/v1alpha2";
import { reviewConversion } from "../lib/conversion/review";
import { DEFAULT_DISTRIBUTIONS } from "../lib/distributions/table";
import { LAST_APPLIED } from "../lib/sync/keep";
import type { SyncDeps } from "../lib/sync/sync";
import type { KubeObject, ObjectMap, SyncRequest, SyncResponse } from "../lib/wire/metacontroller";
import { llsd } from "./cli-helpers";

export const NS = "team-a";
export const T0 = new Date("2026-11-22T10:00:00Z");

export function deps(now: Date = T0): SyncDeps {
  return { now: () => now, distributions: DEFAULT_DISTRIBUTIONS, hooksNamespace: "llsd-hooks", exposeWith: "ingress" };
}

export function aParent(
  spec: LlsdSpecV1alpha2 | object,
  extra: { status?: object; generation?: number; name?: string } = {},
): KubeObject {
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

export function aRequest(
  parent: KubeObject,
  children: readonly KubeObject[] = [],
  related: readonly KubeObject[] = [],
): SyncRequest {
  return { parent, children: objectMap(children), related: objectMap(related) };
}

/**
 * What the cluster holds after Metacontroller applied `desired`: server metadata added, the
 * last-applied annotation recorded (dynamic apply), and the status of a Deployment whose rollout finished.
 */
export function observedFrom(desired: readonly KubeObject[], ready?: number): KubeObject[] {
  return desired.map((d) => {
    // Every pod the Deployment asks for (an HPA's Deployment names none: its minimum, 1 here) unless told.
    const readyReplicas = ready ?? (d.spec as { replicas?: number } | undefined)?.replicas ?? 1;
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
    if (d.kind === "Deployment") {
      // A rollout the Deployment controller finished: it saw generation 1, every pod runs it.
      (observed.metadata as Record<string, unknown>).generation = 1;
      observed.status = {
        observedGeneration: 1,
        replicas: readyReplicas,
        updatedReplicas: readyReplicas,
        readyReplicas,
        availableReplicas: readyReplicas,
      };
    }
    return observed as KubeObject;
  });
}

/** The apiserver's stamp: a uid (kept when the object has one) and `resourceVersion`. */
export function stamped(o: KubeObject, resourceVersion = "7"): KubeObject {
  return {
    ...o,
    metadata: { ...o.metadata, uid: o.metadata.uid ?? `uid-${o.kind}-${o.metadata.name}`, resourceVersion },
  };
}

/** Every object of a map stamped (`stamped`). */
export function stampedMap(map: ObjectMap | undefined, resourceVersion = "7"): ObjectMap {
  return Object.fromEntries(
    Object.entries(map ?? {}).map(([group, objects]) => [
      group,
      Object.fromEntries(Object.entries(objects).map(([key, o]) => [key, stamped(o, resourceVersion)])),
    ]),
  );
}

/**
 * The next request Metacontroller sends once it applied `answer`: the parent carrying the
 * answer's status, the answer's children observed (`observedFrom`), every object stamped.
 * Applied to its own answer again, this reaches the steady state of a resync.
 */
export function afterApply(request: SyncRequest, answer: SyncResponse, parentVersion = "7"): SyncRequest {
  return {
    ...request,
    parent: stamped({ ...request.parent, status: answer.status }, parentVersion),
    children: objectMap(observedFrom(answer.children)),
    related: stampedMap(request.related),
  };
}

/**
 * Applies each answer of `syncOnce` (`afterApply`) until the status stops changing: the request
 * Metacontroller sends on a resync once everything settled.
 */
export async function steadyState(
  request: SyncRequest,
  syncOnce: (r: SyncRequest) => SyncResponse | Promise<SyncResponse>,
  rounds = 4,
): Promise<SyncRequest> {
  let current = afterApply(request, await syncOnce(request));
  for (let round = 0; round < rounds; round++) {
    const answer = await syncOnce(current);
    if (JSON.stringify(answer.status) === JSON.stringify(current.parent.status)) return current;
    current = afterApply(current, answer);
  }
  throw new Error(`no steady state after ${rounds} rounds: ${JSON.stringify(current.parent.status)}`);
}

/** The sync request of a sample file (`llsd request sync`), its parent at the storage version as the apiserver converts it. */
export function sampleRequest(file: string): SyncRequest {
  const built = llsd(["request", "sync", file]);
  if (built.code !== 0) throw new Error(`llsd request sync ${file}: ${built.stderr}`);
  const request = JSON.parse(built.stdout) as SyncRequest;
  if (request.parent.apiVersion === "llamastack.io/v1alpha2") return request;
  const review = reviewConversion({
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "ConversionReview",
    request: { uid: "u", desiredAPIVersion: "llamastack.io/v1alpha2", objects: [request.parent] },
  });
  const [parent] = review.response.response.convertedObjects as KubeObject[];
  if (parent === undefined)
    throw new Error(`cannot convert the parent of ${file}: ${JSON.stringify(review.response.response.result)}`);
  return { ...request, parent };
}

/**
 * Parent number `i` with `spec` and its Secret `creds` at its steady state under `sync`: names
 * and uids of one width, so every parent's memo entry has the same size.
 */
export function numberedParent(
  i: number,
  spec: object,
  sync: (request: SyncRequest) => Promise<SyncResponse>,
): Promise<SyncRequest> {
  const id = String(i).padStart(4, "0");
  const r = aRequest(stamped(aParent(spec, { name: `p${id}` })), [], [stamped(aSecret("creds", { token: "t" }))]);
  return steadyState({ ...r, parent: { ...r.parent, metadata: { ...r.parent.metadata, uid: `uid-${id}` } } }, sync);
}

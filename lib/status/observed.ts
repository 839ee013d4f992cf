/**
 * The children this CR owns, as Metacontroller observed them, parsed once per sync into the few
 * fields the hooks read (the way Metacontroller's own examples arrange observed children once).
 * Observed objects are the cluster's word, not ours: every field is checked, and a field of an
 * unexpected shape reads as absent — never a crash, never a cast. Objects written back as they
 * are (the PVC, the ConfigMap the pods still mount) stay raw: lib/sync/keep.ts re-emits them
 * byte for byte.
 */
import { isPlainObject, own } from "../json";
import { names } from "../names";
import { KEYS, lookup, stringEntries, type KubeObject, type ObjectMap, type SyncRequest } from "../wire/metacontroller";

export type StringMap = { readonly [key: string]: string };

export interface ObservedContainer {
  readonly name?: string;
  readonly image?: string;
}

export interface ObservedServerContainer extends ObservedContainer {
  /** Its startup or readiness probe asks over HTTPS: the server terminates TLS itself. */
  readonly httpsProbe: boolean;
}

export interface ObservedDeployment {
  readonly labels: StringMap;
  /** `spec.selector.matchLabels`: immutable, so it says which operator created the Deployment for as long as it exists. */
  readonly selector: StringMap;
  readonly annotations: StringMap;
  /** `spec.replicas`; absent means the Kubernetes default, 1. */
  readonly replicas?: number;
  readonly readyReplicas: number;
  readonly updatedReplicas: number;
  /** `status.replicas`: every pod of the Deployment, old template and new. */
  readonly totalReplicas: number;
  /** `metadata.generation` and `status.observedGeneration`: the Deployment controller saw the latest spec once they agree. */
  readonly generation?: number;
  readonly observedGeneration?: number;
  /** The `Progressing` condition's message when the rollout passed its `progressDeadlineSeconds`. */
  readonly progressDeadlineExceeded?: string;
  /** The pod's containers that are objects, in order. */
  readonly containers: readonly ObservedServerContainer[];
  readonly initContainers: readonly ObservedContainer[];
  /** Names of the ConfigMaps the pod template mounts as volumes. */
  readonly configMapVolumes: readonly string[];
  /** The pod template, opaque: it only tells whether the pods that answer changed (lib/sync/live-target.ts). */
  readonly template: unknown;
}

export interface ObservedRoute {
  /** `spec.host`. */
  readonly host?: string;
  /** `status.ingress[0].host`: the host the router admitted. */
  readonly admittedHost?: string;
}

export interface ObservedIngress {
  /** `status.loadBalancer.ingress[0]`. */
  readonly loadBalancerHostname?: string;
  readonly loadBalancerIp?: string;
  /** `spec.rules[0].host`. */
  readonly ruleHost?: string;
  /** Set when `spec.tls` has an entry: the URL is https. */
  readonly tls?: true;
}

export interface Observed {
  readonly deployment?: ObservedDeployment;
  /** The Service, with the port of its first entry when that is a number. */
  readonly service?: { readonly port?: number };
  readonly networkPolicy: boolean;
  readonly route?: ObservedRoute;
  readonly ingress?: ObservedIngress;
  /** Raw: re-emitted as observed while the spec no longer asks for it. */
  readonly pvc?: KubeObject;
  /** Raw: the generated ConfigMap the observed Deployment mounts, kept while the pods still use it. */
  readonly mountedConfigMap?: KubeObject;
}

const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
const count = (value: unknown): number | undefined => (typeof value === "number" ? value : undefined);
const isList = (value: unknown): value is readonly unknown[] => Array.isArray(value);

/** `value.<path…>` through own properties; undefined where a step is not an object. */
function at(value: unknown, ...path: readonly string[]): unknown {
  let node = value;
  for (const key of path) node = own(node, key);
  return node;
}

function listAt(value: unknown, ...path: readonly string[]): readonly unknown[] {
  const list = at(value, ...path);
  return isList(list) ? list : [];
}

function containerOf(value: { readonly [key: string]: unknown }): ObservedContainer {
  return { name: text(value.name), image: text(value.image) };
}

const httpsProbe = (container: unknown, probe: string): boolean =>
  at(container, probe, "httpGet", "scheme") === "HTTPS";

/** The observed pods serve HTTPS: their probes (which the hooks write from `networking.tls`) say so. */
export function servesHttps(observed: Observed): boolean {
  return observed.deployment?.containers.some((c) => c.httpsProbe) ?? false;
}

function serverContainerOf(value: { readonly [key: string]: unknown }): ObservedServerContainer {
  return {
    name: text(value.name),
    image: text(value.image),
    httpsProbe: httpsProbe(value, "startupProbe") || httpsProbe(value, "readinessProbe"),
  };
}

/** The Deployment controller's verdict on a rollout that stopped making progress (kubectl rollout status reads the same). */
function progressDeadlineExceeded(conditions: readonly unknown[]): string | undefined {
  for (const c of conditions)
    if (at(c, "type") === "Progressing" && at(c, "reason") === "ProgressDeadlineExceeded")
      return text(at(c, "message")) ?? "the rollout exceeded its progress deadline";
  return undefined;
}

function deploymentOf(object: unknown): ObservedDeployment | undefined {
  if (!isPlainObject(object)) return undefined;
  const pod = at(object, "spec", "template", "spec");
  return {
    labels: stringEntries(at(object, "metadata", "labels")),
    selector: stringEntries(at(object, "spec", "selector", "matchLabels")),
    annotations: stringEntries(at(object, "metadata", "annotations")),
    replicas: count(at(object, "spec", "replicas")),
    readyReplicas: count(at(object, "status", "readyReplicas")) ?? 0,
    updatedReplicas: count(at(object, "status", "updatedReplicas")) ?? 0,
    totalReplicas: count(at(object, "status", "replicas")) ?? 0,
    generation: count(at(object, "metadata", "generation")),
    observedGeneration: count(at(object, "status", "observedGeneration")),
    progressDeadlineExceeded: progressDeadlineExceeded(listAt(object, "status", "conditions")),
    containers: listAt(pod, "containers").filter(isPlainObject).map(serverContainerOf),
    initContainers: listAt(pod, "initContainers").filter(isPlainObject).map(containerOf),
    configMapVolumes: listAt(pod, "volumes").flatMap((v) => text(at(v, "configMap", "name")) ?? []),
    template: at(object, "spec", "template") ?? {},
  };
}

function serviceOf(object: unknown): Observed["service"] {
  if (!isPlainObject(object)) return undefined;
  return { port: count(at(listAt(object, "spec", "ports")[0], "port")) };
}

function routeOf(object: unknown): ObservedRoute | undefined {
  if (!isPlainObject(object)) return undefined;
  return {
    host: text(at(object, "spec", "host")),
    admittedHost: text(at(listAt(object, "status", "ingress")[0], "host")),
  };
}

function ingressOf(object: unknown): ObservedIngress | undefined {
  if (!isPlainObject(object)) return undefined;
  const lb = listAt(object, "status", "loadBalancer", "ingress")[0];
  const ingress = {
    loadBalancerHostname: text(at(lb, "hostname")),
    loadBalancerIp: text(at(lb, "ip")),
    ruleHost: text(at(listAt(object, "spec", "rules")[0], "host")),
  };
  return listAt(object, "spec", "tls").length > 0 ? { ...ingress, tls: true } : ingress;
}

/** A child kept raw, as long as it is an object at all (the request's shape was checked in hooks/request-shape.ts). */
const objectOnly = (child: KubeObject | undefined): KubeObject | undefined =>
  isPlainObject(child) ? child : undefined;

/** The generated ConfigMap (`<name>-config-…`) the Deployment mounts, when it is an observed child. */
function mountedConfigMapOf(
  children: ObjectMap | undefined,
  deployment: ObservedDeployment | undefined,
  where: { readonly name: string; readonly namespace: string },
): KubeObject | undefined {
  const prefix = names.config(where.name, "");
  const mounted = deployment?.configMapVolumes.find((n) => n.startsWith(prefix));
  return mounted !== undefined ? objectOnly(lookup(children, KEYS.configMap, where.namespace, mounted)) : undefined;
}

/**
 * What the sync reads of the children of CR `name` in `namespace`. A child that is not observed
 * reads as an undefined field: one object shape for every sync, no conditional spreads.
 */
export function observedChildren(children: ObjectMap | undefined, name: string, namespace: string): Observed {
  const deployment = deploymentOf(lookup(children, KEYS.deployment, namespace, names.deployment(name)));
  return {
    deployment,
    service: serviceOf(lookup(children, KEYS.service, namespace, names.service(name))),
    networkPolicy: lookup(children, KEYS.networkPolicy, namespace, names.networkPolicy(name)) !== undefined,
    route: routeOf(lookup(children, KEYS.route, namespace, names.route(name))),
    ingress: ingressOf(lookup(children, KEYS.ingress, namespace, names.ingress(name))),
    pvc: objectOnly(lookup(children, KEYS.pvc, namespace, names.pvc(name))),
    mountedConfigMap: mountedConfigMapOf(children, deployment, { name, namespace }),
  };
}

/** The observed children of the CR a sync request is about. */
export function observedOf(request: SyncRequest): Observed {
  const m = request.parent.metadata;
  return observedChildren(request.children, m.name, m.namespace ?? "default");
}

/**
 * The CR's Deployment is observed: a server runs, so what is refused only on new CRs is kept
 * (lib/api/validate-redis-password.ts). Cheaper than `observedOf`: the spec check runs first.
 */
export function runsAlready(request: SyncRequest): boolean {
  const m = request.parent.metadata;
  return lookup(request.children, KEYS.deployment, m.namespace ?? "default", names.deployment(m.name)) !== undefined;
}

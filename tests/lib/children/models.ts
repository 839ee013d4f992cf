/** Schema validation of built children with kubernetes-models (throws on an invalid object). */
import { Deployment } from "kubernetes-models/apps/v1/Deployment";
import { HorizontalPodAutoscaler } from "kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler";
import { Ingress } from "kubernetes-models/networking.k8s.io/v1/Ingress";
import { NetworkPolicy } from "kubernetes-models/networking.k8s.io/v1/NetworkPolicy";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1/PodDisruptionBudget";
import { ConfigMap } from "kubernetes-models/v1/ConfigMap";
import { PersistentVolumeClaim } from "kubernetes-models/v1/PersistentVolumeClaim";
import { Secret } from "kubernetes-models/v1/Secret";
import { Service } from "kubernetes-models/v1/Service";
import type { KubeObject } from "../../../lib/wire/metacontroller";
import { serviceMonitorErrors } from "../../service-monitor-crd";
import { validateGatewayApi } from "../../gateway-api-models";

type Validator = (obj: KubeObject) => void;
const data = (obj: KubeObject): never => structuredClone(obj) as never;

/** The OpenShift Route has no model here: check the fields the router needs by hand. */
function validateRoute(obj: KubeObject): void {
  const spec = obj.spec as
    | { to?: { kind?: string; name?: string }; port?: { targetPort?: unknown }; tls?: { termination?: string } }
    | undefined;
  if (obj.apiVersion !== "route.openshift.io/v1") throw new Error(`Route apiVersion ${obj.apiVersion}`);
  if (spec?.to?.kind !== "Service" || !spec.to.name) throw new Error("Route spec.to must name a Service");
  if (spec.port?.targetPort === undefined) throw new Error("Route spec.port.targetPort is required");
  if (!["edge", "passthrough", "reencrypt"].includes(spec.tls?.termination ?? ""))
    throw new Error("Route spec.tls.termination");
}

/** With @kubernetes-models/prometheus-operator, the ServiceMonitor CRD's schema. */
function validateServiceMonitor(obj: KubeObject): void {
  const errors = serviceMonitorErrors(obj);
  if (errors.length > 0) throw new Error(`ServiceMonitor: ${errors.join("; ")}`);
}

export const VALIDATORS: { readonly [kind: string]: Validator } = {
  BackendTLSPolicy: validateGatewayApi,
  ConfigMap: (o) => new ConfigMap(data(o)).validate(),
  Deployment: (o) => new Deployment(data(o)).validate(),
  HorizontalPodAutoscaler: (o) => new HorizontalPodAutoscaler(data(o)).validate(),
  HTTPRoute: validateGatewayApi,
  Ingress: (o) => new Ingress(data(o)).validate(),
  NetworkPolicy: (o) => new NetworkPolicy(data(o)).validate(),
  PersistentVolumeClaim: (o) => new PersistentVolumeClaim(data(o)).validate(),
  PodDisruptionBudget: (o) => new PodDisruptionBudget(data(o)).validate(),
  Route: validateRoute,
  Secret: (o) => new Secret(data(o)).validate(),
  Service: (o) => new Service(data(o)).validate(),
  ServiceMonitor: validateServiceMonitor,
};

export function validateChild(obj: KubeObject): void {
  const validate = VALIDATORS[obj.kind];
  if (!validate) throw new Error(`no validator for kind ${obj.kind}`);
  validate(obj);
}

/** The one object of `kind` in `children` (fails the test when there is not exactly one). */
export function only(children: readonly KubeObject[], kind: string): KubeObject {
  const found = children.filter((c) => c.kind === kind);
  if (found.length !== 1) throw new Error(`expected one ${kind}, found ${found.length}`);
  return found[0]!;
}

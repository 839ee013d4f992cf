/**
 * ServiceMonitor `<name>-service-monitor` (prometheus-operator) for `spec.monitoring`, only when
 * the hooks run with the server-monitoring component: Metacontroller cannot own a kind whose CRD
 * is absent, and one missing child type stops the whole CompositeController (docs/monitoring.md).
 */
import type { V1ObjectMeta } from "@kubernetes/client-node";
import { METRICS_PORT_NAME, metricsOn, NO_SERVICE_MONITORS } from "../distributions/monitoring";
import { names, selectorLabels } from "../names";
import type { ChildContext } from "./context";
import { childMeta } from "./meta";

/** A relabeling step, in the CRD's field names (`monitoring.coreos.com/v1` RelabelConfig). */
export type RelabelConfig =
  | { readonly action: "replace"; readonly sourceLabels: readonly string[]; readonly targetLabel: string }
  | { readonly action: "replace"; readonly targetLabel: string; readonly replacement: string };

/**
 * The `job` of every LLSD server's series (prometheus-operator would name it after each
 * Service): the component's rules and dashboards select the servers the hooks run by it.
 */
export const SERVER_JOB = "llsd-server";

/** `monitoring.coreos.com/v1` ServiceMonitor, only the fields this builder sets (client-node has no type for it). */
export interface ServiceMonitor {
  readonly apiVersion: "monitoring.coreos.com/v1";
  readonly kind: "ServiceMonitor";
  readonly metadata: V1ObjectMeta;
  readonly spec: {
    readonly selector: { readonly matchLabels: { readonly [k: string]: string } };
    readonly namespaceSelector: { readonly matchNames: readonly string[] };
    readonly endpoints: readonly {
      readonly port: string;
      readonly path: string;
      readonly scheme: "http";
      readonly interval: string;
      readonly relabelings: readonly RelabelConfig[];
    }[];
  };
}

/** How often Prometheus scrapes the server: as often as the hooks' own ServiceMonitor. */
export const SCRAPE_INTERVAL = "30s";

/** Prometheus's name for the Service label that holds the LLSD's name (`app.kubernetes.io/instance`). */
const INSTANCE_LABEL = "__meta_kubernetes_service_label_app_kubernetes_io_instance";

/** Scrape the LLSD's own Service, on its `metrics` port. */
function monitorSpec(ctx: ChildContext): ServiceMonitor["spec"] {
  return {
    selector: { matchLabels: selectorLabels(ctx.name) },
    namespaceSelector: { matchNames: [ctx.namespace] },
    endpoints: [
      {
        port: METRICS_PORT_NAME,
        path: "/metrics",
        scheme: "http",
        interval: SCRAPE_INTERVAL,
        // Every series gets the LLSD's name; prometheus-operator adds its namespace (the
        // Service's), so the component's alerts group by (namespace, name).
        relabelings: [
          { action: "replace", sourceLabels: [INSTANCE_LABEL], targetLabel: "name" },
          { action: "replace", targetLabel: "job", replacement: SERVER_JOB },
        ],
      },
    ],
  };
}

export function buildServiceMonitor(ctx: ChildContext): ServiceMonitor | undefined {
  if (!metricsOn(ctx.spec.monitoring) || !(ctx.serverMonitoring ?? NO_SERVICE_MONITORS).serviceMonitors)
    return undefined;
  const metadata = childMeta(ctx, names.serviceMonitor(ctx.name));
  return { apiVersion: "monitoring.coreos.com/v1", kind: "ServiceMonitor", metadata, spec: monitorSpec(ctx) };
}

/**
 * `spec.monitoring`: the server's own Prometheus endpoint. OGX serves it from 1.2.0 on
 * (`ogx/telemetry/__init__.py`): `OGX_METRICS_ENDPOINT_ENABLED` turns it on, `OGX_METRICS_PORT`
 * (default 9464) and `OGX_METRICS_HOST` (default 127.0.0.1, loopback) place it. Llama Stack 0.7,
 * OGX 0.8, 1.0 and 1.1 have no such endpoint (docs/monitoring.md, "Server metrics").
 */
import type { Release } from "./table";

/** The server's own default, the OpenTelemetry Prometheus exporter's convention. */
export const DEFAULT_METRICS_PORT = 9464;

/** Container, Service and ServiceMonitor port name. */
export const METRICS_PORT_NAME = "metrics";

/** Where kube-prometheus runs Prometheus: admitted to the metrics port unless the CR or the hooks say otherwise. */
export const DEFAULT_SCRAPER_NAMESPACE = "monitoring";

/** The first release with the endpoint, and the first of the 1.x line. */
export const FIRST_METRICS_RELEASE = "1.2.0";

/**
 * The address the server binds its scrape endpoint to. `::` is what `ogx stack run` binds the API
 * to (`cli/stack/run.py`), so the metrics port answers wherever the API port does: on the pod's
 * IPv6 address and, with Linux's default dual-stack sockets, on its IPv4 address too.
 */
export const METRICS_HOST = "::";

export interface Monitoring {
  readonly enabled: boolean;
  readonly port: number;
  /** Scraper namespaces the CR names (`*` = all); absent: the hooks' scraper namespace. */
  readonly allowedFrom?: readonly string[];
}

/** Server lines whose server has the endpoint (the 1.x line from 1.2.0 on). */
export const METRICS_LINES: readonly Release[] = Object.freeze(["1.2", "1.3"] as const);

/** Is the endpoint asked for? `monitoring: {enabled: false}` sets nothing up. */
export function metricsOn(monitoring: Monitoring | undefined): monitoring is Monitoring {
  return monitoring?.enabled === true;
}

/**
 * How the hooks are installed for server metrics (hooks/sync-settings.ts reads them from the
 * environment; the server-monitoring component sets them).
 */
export interface ServerMonitoringSettings {
  /** Metacontroller may own ServiceMonitors (the component added them to the CompositeController's children). */
  readonly serviceMonitors: boolean;
  /** Where Prometheus runs: admitted to the metrics port of a CR that names no namespace itself. */
  readonly scraperNamespace: string;
}

/** Without the component: no ServiceMonitor, and kube-prometheus's namespace. */
export const NO_SERVICE_MONITORS: ServerMonitoringSettings = Object.freeze({
  serviceMonitors: false,
  scraperNamespace: DEFAULT_SCRAPER_NAMESPACE,
});

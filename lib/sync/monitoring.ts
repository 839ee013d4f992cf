/**
 * `spec.monitoring` in the sync: refused on a server without the endpoint (the line is known
 * only once the image is chosen), and a status note when no ServiceMonitor can be made.
 */
import type { CanonicalSpec } from "../api/canonical";
import { monitoringLineErrors } from "../api/validate-monitoring";
import { metricsOn, NO_SERVICE_MONITORS } from "../distributions/monitoring";
import type { Extra, Stop, SyncDeps } from "./answer";
import type { BaseOutcome } from "./base-source";
import type { ServerChoice } from "./server-line";

export function monitoringStop(
  spec: CanonicalSpec,
  server: ServerChoice,
  found: BaseOutcome,
  extra: Extra,
): Stop | undefined {
  const version = found.base?.version;
  const errors = monitoringLineErrors(spec, server.release, {
    ...(server.image ? { image: server.image } : {}),
    ...(version ? { labelVersion: version } : {}),
  });
  if (errors.length === 0) return undefined;
  return { failure: { type: "ConfigGenerated", reason: "MetricsUnsupported", errors }, extra };
}

export const NO_SERVICE_MONITOR_NOTE =
  "spec.monitoring: no ServiceMonitor: the hooks run without the server-monitoring component, so Metacontroller cannot own ServiceMonitors; the metrics port is open to the scraper's namespace, and Prometheus must be told to scrape it (docs/monitoring.md, Server metrics)";

/** Monitoring on, but no ServiceMonitor can be made: say so. */
export function monitoringNotes(spec: CanonicalSpec, deps: SyncDeps): string[] {
  const settings = deps.serverMonitoring ?? NO_SERVICE_MONITORS;
  return metricsOn(spec.monitoring) && !settings.serviceMonitors ? [NO_SERVICE_MONITOR_NOTE] : [];
}

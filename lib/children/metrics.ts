/**
 * The server's metrics endpoint in the pod and its Service (`spec.monitoring`, lib/distributions/monitoring.ts):
 * the variables the 1.x server reads, and the `metrics` port. Nothing when monitoring is off.
 */
import type { V1ContainerPort, V1EnvVar, V1ServicePort } from "@kubernetes/client-node";
import { METRICS_HOST, METRICS_PORT_NAME, metricsOn } from "../distributions/monitoring";
import type { ChildContext } from "./context";

/** `ogx/telemetry/__init__.py` at 1.3.0; the host so that the pod's address answers, not only loopback. */
export function metricsEnv(ctx: ChildContext): V1EnvVar[] {
  const m = ctx.spec.monitoring;
  if (!metricsOn(m)) return [];
  return [
    { name: "OGX_METRICS_ENDPOINT_ENABLED", value: "true" },
    { name: "OGX_METRICS_HOST", value: METRICS_HOST },
    { name: "OGX_METRICS_PORT", value: String(m.port) },
  ];
}

export function metricsContainerPorts(ctx: ChildContext): V1ContainerPort[] {
  const m = ctx.spec.monitoring;
  return metricsOn(m) ? [{ name: METRICS_PORT_NAME, containerPort: m.port, protocol: "TCP" }] : [];
}

export function metricsServicePorts(ctx: ChildContext): V1ServicePort[] {
  const m = ctx.spec.monitoring;
  return metricsOn(m)
    ? [{ name: METRICS_PORT_NAME, port: m.port, targetPort: METRICS_PORT_NAME, protocol: "TCP" }]
    : [];
}

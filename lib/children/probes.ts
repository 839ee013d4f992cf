/**
 * Health probes on the server's public `/v1/health` (no auth needed, research
 * llamastack-config.md §6.4), through the named container port so a port change needs no edit.
 */
import type { V1Probe } from "@kubernetes/client-node";
import { SERVICE_PORT_NAME } from "../names";

export const HEALTH_PATH = "/v1/health";

/**
 * Startup: a server that loads models or connects to remote providers can take minutes before
 * it answers; 30 × 10 s gives it five, after which the kubelet restarts it. No liveness probe:
 * a busy single-worker server that answers slowly must not be killed for it.
 */
export const STARTUP_PERIOD_SECONDS = 10;
export const STARTUP_FAILURE_THRESHOLD = 30;
/** Readiness: out of the Service after 3 missed checks 10 s apart. */
export const READINESS_PERIOD_SECONDS = 10;
export const READINESS_FAILURE_THRESHOLD = 3;
/** Per-check timeout; the health endpoint does no work, a slow answer means a stuck server. */
export const PROBE_TIMEOUT_SECONDS = 5;

function healthCheck(tls: boolean): V1Probe["httpGet"] {
  // Under TLS the server only speaks HTTPS; the kubelet does not verify the certificate.
  return { path: HEALTH_PATH, port: SERVICE_PORT_NAME, scheme: tls ? "HTTPS" : "HTTP" };
}

export function startupProbe(tls: boolean): V1Probe {
  return {
    httpGet: healthCheck(tls),
    periodSeconds: STARTUP_PERIOD_SECONDS,
    failureThreshold: STARTUP_FAILURE_THRESHOLD,
    timeoutSeconds: PROBE_TIMEOUT_SECONDS,
  };
}

export function readinessProbe(tls: boolean): V1Probe {
  return {
    httpGet: healthCheck(tls),
    periodSeconds: READINESS_PERIOD_SECONDS,
    failureThreshold: READINESS_FAILURE_THRESHOLD,
    timeoutSeconds: PROBE_TIMEOUT_SECONDS,
  };
}

/**
 * Health probes on the server's public `/v1/health` (it needs no auth),
 * through the named container port so a port change needs no edit.
 */
import type { V1Probe } from "@kubernetes/client-node";
import { HEALTH_PATH } from "../defaults";
import { SERVICE_PORT_NAME } from "../names";

/**
 * Startup: a server that loads models or connects to remote providers can take minutes before
 * it answers; 30 × 10 s gives it five, after which the kubelet restarts it. The kubelet runs
 * the liveness and readiness probes only once it passed.
 */
export const STARTUP_PERIOD_SECONDS = 10;
export const STARTUP_FAILURE_THRESHOLD = 30;
/** Readiness: out of the Service after 3 missed checks 10 s apart. */
export const READINESS_PERIOD_SECONDS = 10;
export const READINESS_FAILURE_THRESHOLD = 3;
/**
 * Liveness: restart a server that has not answered for a minute (6 misses 10 s apart). The
 * route does no work (an async handler returning a constant, unauthenticated on every line), so
 * it answers while the server's event loop turns, however busy its requests keep it: only a hung
 * loop or a dead process misses six in a row. Readiness has taken the pod out of the Service
 * 30 s before; a slower threshold would leave a hung pod running with no one to notice.
 */
export const LIVENESS_PERIOD_SECONDS = 10;
export const LIVENESS_FAILURE_THRESHOLD = 6;
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

export function livenessProbe(tls: boolean): V1Probe {
  return {
    httpGet: healthCheck(tls),
    periodSeconds: LIVENESS_PERIOD_SECONDS,
    failureThreshold: LIVENESS_FAILURE_THRESHOLD,
    timeoutSeconds: PROBE_TIMEOUT_SECONDS,
  };
}

/**
 * A v1alpha1 CR's startup probe: the Go operator's timings (initial delay 15 s, timeout 30 s,
 * 3 failures, 1 success; period the Kubernetes default 10 s, written out so the applied
 * object says what runs). A server gets about 45 s to answer /v1/health before a restart.
 */
export const GO_STARTUP_PROBE = {
  initialDelaySeconds: 15,
  periodSeconds: 10,
  timeoutSeconds: 30,
  failureThreshold: 3,
  successThreshold: 1,
} as const;

export function legacyStartupProbe(tls: boolean): V1Probe {
  return { httpGet: healthCheck(tls), ...GO_STARTUP_PROBE };
}

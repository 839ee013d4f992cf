/**
 * Prometheus metrics for the hook endpoints, on a registry of their own per app (tests build
 * several apps in one process; prom-client refuses a metric name registered twice).
 */
import { collectDefaultMetrics, Counter, Histogram, Registry } from "prom-client";
import type { ImageReadKind, ImageReadResult } from "../lib/oci";
import type { KubeObject } from "../lib/wire/metacontroller";
import { trackParentPhases } from "./parent-phases";

/**
 * The `hook` label of a call seen in front of its route (the bearer check, the overload guard):
 * its path as Express matches it (any case, one trailing slash), without the slashes.
 */
export function hookLabelOf(req: { readonly baseUrl: string; readonly path: string }): string {
  return (req.baseUrl || req.path).replace(/^\/|\/$/g, "").toLowerCase();
}

/** How often the event-loop delay is sampled (prom-client's default, 10 ms, wakes an idle process 100 times a second). */
const EVENT_LOOP_SAMPLE_MS = 1000;

/**
 * ok = 200, client_error = a 4xx answer (malformed request), error = our bug (a 5xx answer, or
 * a sync answered Failed/InternalError with the children kept),
 * unauthorized = 401 (no or wrong bearer token), overloaded = 429 (too many calls in flight),
 * timeout = 503 (the call ran past HOOK_TIMEOUT_MS).
 */
export type Outcome = "ok" | "client_error" | "error" | "unauthorized" | "overloaded" | "timeout";

export interface HookMetrics {
  readonly registry: Registry;
  /** Count one finished hook call and its duration. */
  observe(hook: string, outcome: Outcome, seconds: number): void;
  /** Count one call answered with an earlier answer (the sync memo, lib/sync/memo.ts). */
  reused(hook: string): void;
  /** Note the phase a parent carried into /sync (hooks/parent-phases.ts). */
  parentSeen(parent: KubeObject): void;
  /** Count one image read and how it was answered (lib/oci/image-cache.ts). */
  imageRead(read: ImageReadKind, result: ImageReadResult): void;
}

/** A warm sync answers in well under a millisecond; Metacontroller gives up at 10 s. */
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createMetrics(registry: Registry = new Registry()): HookMetrics {
  const requests = new Counter({
    name: "llsd_hook_requests_total",
    help: "Hook calls by hook and outcome (ok, client_error, error, unauthorized, overloaded, timeout).",
    labelNames: ["hook", "outcome"] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: "llsd_hook_duration_seconds",
    help: "Time from receiving a hook call to sending its answer, body parsing included.",
    labelNames: ["hook"] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const errors = new Counter({
    name: "llsd_hook_errors_total",
    help: "Hook calls that hit a bug in this service: answered 5xx (Metacontroller retries with backoff), or, for /sync, answered phase Failed with reason InternalError and the children kept.",
    labelNames: ["hook"] as const,
    registers: [registry],
  });
  const reused = new Counter({
    name: "llsd_hook_reused_total",
    help: "Hook calls answered with the answer computed for an unchanged parent before (the sync memo).",
    labelNames: ["hook"] as const,
    registers: [registry],
  });
  const imageReads = imageReadCounter(registry);
  // The event-loop delay histogram samples once a second, not prom-client's default 100 times:
  // an idle process then wakes for it once a second (its lag figures keep nanosecond precision).
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  const phases = trackParentPhases(registry);
  return {
    parentSeen(parent) {
      phases.record(parent);
    },
    registry,
    observe(hook, outcome, seconds) {
      requests.inc({ hook, outcome });
      duration.observe({ hook }, seconds);
      if (outcome === "error") errors.inc({ hook });
    },
    reused(hook) {
      reused.inc({ hook });
    },
    imageRead(read, result) {
      imageReads.inc({ read, result });
    },
  };
}

/** What the registry side did for /sync: only `fetched` and `failed` reads reached the registry. */
function imageReadCounter(registry: Registry): Counter<"read" | "result"> {
  return new Counter({
    name: "llsd_image_reads_total",
    help: "Image reads by /sync (read: base_config, provider_metadata) and how each was answered (result: cached, shared, fetched, failed, backoff); only fetched and failed reached the registry.",
    labelNames: ["read", "result"] as const,
    registers: [registry],
  });
}

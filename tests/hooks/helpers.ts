/**
 * A hook app wired to small real handlers (they compute their answer from the request) and a
 * logger whose lines are captured for assertions.
 */
import { createApp, type HookHandlers } from "../../hooks/app";
import { createLogger } from "../../hooks/logger";
import { createMetrics, type HookMetrics } from "../../hooks/metrics";
import type {
  CustomizeRequest,
  CustomizeResponse,
  KubeObject,
  SyncRequest,
  SyncResponse,
} from "../../lib/wire/metacontroller";

export interface LogLine {
  readonly level: number;
  readonly msg: string;
  readonly [field: string]: unknown;
}

export const LEVEL = { debug: 20, info: 30, warn: 40, error: 50 } as const;

export interface TestApp {
  readonly app: ReturnType<typeof createApp>;
  readonly metrics: HookMetrics;
  /** Every line the logger wrote so far, parsed. */
  readonly lines: () => LogLine[];
  /** The raw text the logger wrote. */
  readonly logText: () => string;
}

export function aTestApp(
  options: { handlers?: Partial<HookHandlers>; isReady?: () => boolean; logLevel?: string } = {},
): TestApp {
  const raw: string[] = [];
  const logger = createLogger({
    level: options.logLevel ?? "info",
    destination: { write: (line: string) => void raw.push(line) },
  });
  const metrics = createMetrics();
  const handlers: HookHandlers = { sync: echoSync, customize: echoCustomize, ...options.handlers };
  const app = createApp({ handlers, logger, metrics, isReady: options.isReady ?? (() => true) });
  return {
    app,
    metrics,
    lines: () => raw.map((line) => JSON.parse(line) as LogLine),
    logText: () => raw.join(""),
  };
}

/** Status names the parent; one ConfigMap child per parent; observed children are counted. */
export function echoSync(request: SyncRequest): Promise<SyncResponse> {
  const { name, namespace } = request.parent.metadata;
  const observed = Object.values(request.children ?? {}).reduce((n, objects) => n + Object.keys(objects).length, 0);
  const configMap: KubeObject = {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: `${name}-config`, namespace },
    data: { parent: name },
  };
  return Promise.resolve({
    status: { phase: "Ready", parentName: name, observedChildren: observed },
    children: [configMap],
    resyncAfterSeconds: 30,
  });
}

/** Asks for the Secret named after the parent. */
export function echoCustomize(request: CustomizeRequest): Promise<CustomizeResponse> {
  const { name, namespace } = request.parent.metadata;
  const rule = { apiVersion: "v1", resource: "secrets", namespace: namespace ?? "default", names: [`${name}-creds`] };
  return Promise.resolve({ relatedResources: [rule] });
}

/** A LlamaStackDistribution parent as Metacontroller sends it. */
export function aParent(
  overrides: { name?: string; namespace?: string; spec?: unknown } = {},
): Record<string, unknown> {
  return structuredClone({
    apiVersion: "llamastack.io/v1alpha2",
    kind: "LlamaStackDistribution",
    metadata: {
      name: overrides.name ?? "llsd",
      namespace: overrides.namespace ?? "team-a",
      uid: "0a1b",
      generation: 3,
    },
    spec: overrides.spec ?? { distribution: { name: "starter" } },
  });
}

/** A v2 sync request body; `overrides` replace top-level keys. */
export function aSyncBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return structuredClone({
    controller: {
      apiVersion: "metacontroller.k8s.io/v1alpha1",
      kind: "CompositeController",
      metadata: { name: "llsd" },
    },
    parent: aParent(),
    children: {
      "ConfigMap.v1": {
        "team-a/llsd-config": {
          apiVersion: "v1",
          kind: "ConfigMap",
          metadata: { name: "llsd-config", namespace: "team-a" },
        },
      },
      "Deployment.apps/v1": {},
    },
    related: { "Secret.v1": {} },
    finalizing: false,
    ...overrides,
  });
}

/** A sync handler that answers like echoSync, but only once released. */
export function gate() {
  const waiting: (() => void)[] = [];
  const sync = async (request: SyncRequest): Promise<SyncResponse> => {
    await new Promise<void>((resolve) => waiting.push(resolve));
    return echoSync(request);
  };
  return { sync, waiting, releaseAll: () => waiting.splice(0).forEach((r) => r()) };
}

/** Polls `condition` every 5 ms; throws after `timeoutMs`. */
export async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error("condition not reached");
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** An AdmissionReview of a valid v1alpha2 CREATE, as the apiserver POSTs it to /validate. */
export const anAdmissionReview = (): Record<string, unknown> => ({
  apiVersion: "admission.k8s.io/v1",
  kind: "AdmissionReview",
  request: {
    uid: "705ab4f5-6393-11e8-b7cc-42010a800002",
    kind: { group: "llamastack.io", version: "v1alpha2", kind: "LlamaStackDistribution" },
    operation: "CREATE",
    name: "demo",
    namespace: "team-a",
    object: {
      apiVersion: "llamastack.io/v1alpha2",
      kind: "LlamaStackDistribution",
      metadata: { name: "demo", namespace: "team-a" },
      spec: { distribution: { name: "starter" } },
    },
  },
});

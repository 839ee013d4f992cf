/**
 * The HTTP app: routes, JSON errors, no `listen` (main.ts listens; tests use supertest).
 * Thin: every endpoint parses, calls a handler from `lib/`, and sends what it returned.
 *
 * Two kinds of callers: Metacontroller (`/sync`, `/customize`, plain HTTP inside the cluster)
 * and the kube-apiserver (`/validate`, `/convert`, HTTPS only). With TLS configured, main.ts
 * runs one app per listener (`audience`), so the HTTPS port — which the apiserver reaches from
 * outside any namespace and the NetworkPolicy therefore cannot narrow — serves only the two
 * webhooks: never `/sync`, which reaches registries with the hooks' credentials.
 */
import express from "express";
import type pino from "pino";
import type { ValidateContext } from "../lib/api/validate";
import type { CustomizeRequest, CustomizeResponse, SyncRequest, SyncResponse } from "../lib/wire/metacontroller";
import { errorHandler, notFound } from "./errors";
import type { HookMetrics } from "./metrics";
import { convertRouter } from "./routes/convert";
import { customizeRouter } from "./routes/customize";
import { healthRouter } from "./routes/health";
import { metricsRouter } from "./routes/metrics";
import { syncRouter } from "./routes/sync";
import { validateRouter } from "./routes/validate";

export interface HookHandlers {
  sync(request: SyncRequest): Promise<SyncResponse>;
  customize(request: CustomizeRequest): Promise<CustomizeResponse>;
}

export interface AppDeps {
  readonly handlers: HookHandlers;
  readonly logger: pino.Logger;
  readonly metrics: HookMetrics;
  /** False while shutting down: `/readyz` answers 503. */
  readonly isReady: () => boolean;
  /**
   * Who this app answers: `metacontroller` (`/sync`, `/customize`, `/metrics`), `apiserver`
   * (`/validate`, `/convert`) or `all`. Health endpoints are always there.
   * @default "all"
   */
  readonly audience?: Audience;
  /** What `/validate` checks names against. @default the bundled distribution table */
  readonly validation?: ValidateContext;
}

export type Audience = "all" | "metacontroller" | "apiserver";

export function createApp({ handlers, logger, metrics, isReady, audience = "all", validation }: AppDeps): express.Express {
  const app = express();
  app.disable("x-powered-by");
  // No ETags: hook answers are POST responses (never 304) and hashing megabytes costs time.
  app.set("etag", false);
  app.use(healthRouter(isReady));
  if (audience !== "apiserver") {
    app.use(metricsRouter(metrics.registry));
    app.use(syncRouter((request) => handlers.sync(request), { logger, metrics }));
    app.use(customizeRouter((request) => handlers.customize(request), { logger, metrics }));
  }
  if (audience !== "metacontroller") {
    app.use(validateRouter({ logger, metrics, ...(validation ? { context: validation } : {}) }));
    app.use(convertRouter({ logger, metrics }));
  }
  app.use(notFound);
  app.use(errorHandler(logger));
  return app;
}

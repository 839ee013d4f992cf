/**
 * The HTTP app: routes, JSON errors, no `listen` (main.ts listens; tests use supertest).
 * Thin: every endpoint parses, calls a handler from `lib/`, and sends what it returned.
 */
import express from "express";
import type pino from "pino";
import type { CustomizeRequest, CustomizeResponse, SyncRequest, SyncResponse } from "../lib/wire/metacontroller";
import { errorHandler, notFound } from "./errors";
import type { HookMetrics } from "./metrics";
import { customizeRouter } from "./routes/customize";
import { healthRouter } from "./routes/health";
import { metricsRouter } from "./routes/metrics";
import { syncRouter } from "./routes/sync";

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
}

export function createApp({ handlers, logger, metrics, isReady }: AppDeps): express.Express {
  const app = express();
  app.disable("x-powered-by");
  // No ETags: hook answers are POST responses (never 304) and hashing megabytes costs time.
  app.set("etag", false);
  app.use(healthRouter(isReady));
  app.use(metricsRouter(metrics.registry));
  app.use(syncRouter((request) => handlers.sync(request), { logger, metrics }));
  app.use(customizeRouter((request) => handlers.customize(request), { logger, metrics }));
  app.use(notFound);
  app.use(errorHandler(logger));
  return app;
}

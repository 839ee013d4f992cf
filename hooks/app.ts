/**
 * The HTTP app: routes, JSON errors, no `listen` (main.ts listens; tests use supertest).
 * Thin: every endpoint parses, calls a handler from `lib/`, and sends what it returned.
 *
 * Two kinds of callers: Metacontroller (`/sync`, `/customize`, inside the cluster) and the
 * kube-apiserver (`/validate`, `/convert`, HTTPS only). With TLS configured, service.ts runs
 * one app per listener (`audience`), so the apiserver's HTTPS port — which the apiserver
 * reaches from outside any namespace and the NetworkPolicy therefore cannot narrow — serves
 * only the two webhooks: never `/sync`, which reaches registries with the hooks' credentials.
 * Metacontroller has an HTTPS port of its own, which the NetworkPolicy narrows to its namespace.
 *
 * In front of the hook routes: the bearer-token check (`/sync`, `/customize` only: the
 * apiserver sends no token) and the overload guard (concurrency limit and time limit, every
 * hook route). Health endpoints and `/metrics` pass through neither.
 */
import express from "express";
import type pino from "pino";
import type { ValidateContext } from "../lib/api/validate";
import type {
  CustomizeRequest,
  CustomizeResponse,
  SerializedAnswer,
  SyncRequest,
  SyncResponse,
} from "../lib/wire/metacontroller";
import { requireBearer, type TokenSource } from "./auth";
import { errorHandler, notFound } from "./errors";
import type { HookMetrics } from "./metrics";
import { createOverloadGuard, type OverloadGuard } from "./overload";
import { convertRoute } from "./routes/convert";
import { customizeRoute } from "./routes/customize";
import { healthRouter } from "./routes/health";
import { metricsRouter } from "./routes/metrics";
import { syncRoute } from "./routes/sync";
import { validateRoute } from "./routes/validate";

export interface HookHandlers {
  /** A serialized answer is sent as is (the sync memo, lib/sync/memo.ts). */
  sync(request: SyncRequest): Promise<SyncResponse | SerializedAnswer>;
  customize(request: CustomizeRequest): Promise<CustomizeResponse>;
  /** How `/validate` judges as `/sync` does (the exposure kind the sync hook uses), when `AppDeps.validation` is not given. */
  readonly validation?: ValidateContext;
}

export interface AppDeps {
  readonly handlers: HookHandlers;
  readonly logger: pino.Logger;
  readonly metrics: HookMetrics;
  /** False while shutting down: `/readyz` answers 503. */
  readonly isReady: () => boolean;
  /**
   * Who this app answers: `metacontroller` (`/sync`, `/customize`, `/metrics`), `apiserver`
   * (`/validate`, `/convert`), `observers` (`/metrics` only: the plain port once Metacontroller
   * calls over HTTPS) or `all`. Health endpoints are always there.
   * @default "all"
   */
  readonly audience?: Audience;
  /** What `/validate` checks names against. @default the bundled distribution table */
  readonly validation?: ValidateContext;
  /** The token `/sync` and `/customize` require (hooks/auth.ts). @default none: open */
  readonly bearerToken?: TokenSource;
  /**
   * Concurrency and time limits of the hook routes; share one guard between the apps of a
   * process so the limit counts every listener. @default a guard of its own with the defaults
   */
  readonly overload?: OverloadGuard;
}

export type Audience = "all" | "metacontroller" | "apiserver" | "observers";

/** The app's own validation context, else the one the handlers judge with (hooks/handlers.ts). */
const validationOf = (deps: AppDeps): ValidateContext | undefined => deps.validation ?? deps.handlers.validation;

export function createApp(deps: AppDeps): express.Express {
  const { handlers, logger, metrics, isReady, audience = "all", bearerToken } = deps;
  const validation = validationOf(deps);
  const guard = (deps.overload ?? createOverloadGuard()).middleware({ logger, metrics });
  const app = express();
  app.disable("x-powered-by");
  // No ETags: hook answers are POST responses (never 304) and hashing megabytes costs time.
  app.set("etag", false);
  // Shutting down: answer, then close the connection, so keep-alive clients dial again through
  // the Service and reach a pod that is ready (service.ts).
  app.use((_req, res, next) => {
    if (!isReady()) res.set("Connection", "close");
    next();
  });
  const routes = new Map<string, express.RequestHandler>();
  const health = healthRouter(isReady);
  for (const path of ["/healthz", "/readyz", "/version"]) routes.set(path, chain(health));
  if (audience !== "apiserver") routes.set("/metrics", chain(metricsRouter(metrics.registry)));
  if (audience === "metacontroller" || audience === "all") {
    // Called by Metacontroller, with a bearer token when one is configured.
    const auth = requireBearer(bearerToken, { logger, metrics });
    routes.set(
      "/sync",
      chain(
        auth,
        guard,
        syncRoute((request) => handlers.sync(request), { logger, metrics }),
      ),
    );
    const customize = customizeRoute((request) => handlers.customize(request), { logger, metrics });
    routes.set("/customize", chain(auth, guard, customize));
  }
  if (audience === "apiserver" || audience === "all") {
    // Called by the apiserver, which sends no token (TLS and the NetworkPolicy protect them).
    const validate = validateRoute({ logger, metrics, ...(validation ? { context: validation } : {}) });
    routes.set("/validate", chain(guard, validate));
    routes.set("/convert", chain(guard, convertRoute({ logger, metrics })));
  }
  app.use(byPath(routes));
  app.use(notFound);
  app.use(errorHandler(logger));
  return app;
}

/** One path's handlers, in order, each passing to the next; a thrown error goes to the error handler. */
function chain(...handlers: express.RequestHandler[]): express.RequestHandler {
  return (req, res, next) => {
    const step = (at: number, err?: unknown): void => {
      const handler = handlers[at];
      if (err !== undefined || handler === undefined) return void next(err);
      try {
        void handler(req, res, (e?: unknown) => step(at + 1, e));
      } catch (thrown) {
        next(thrown);
      }
    };
    step(0);
  };
}

/**
 * Each path's chain found by one lookup: Express would otherwise enter every router in turn on
 * every call. Paths match as Express matches them (any case, one trailing slash).
 */
function byPath(routes: ReadonlyMap<string, express.RequestHandler>): express.RequestHandler {
  return (req, res, next) => {
    const path = req.path.length > 1 && req.path.endsWith("/") ? req.path.slice(0, -1) : req.path;
    const route = routes.get(path.toLowerCase());
    if (route) void route(req, res, next);
    else next();
  };
}

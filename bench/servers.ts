/**
 * The two servers the HTTP benchmarks compare, in this process on 127.0.0.1 ephemeral ports:
 * the real app as built (hooks/app.ts `createApp` from dist/, bench/built.ts; real sync and
 * customize handlers, silent logger)
 * and a baseline Express app that only parses the JSON body (same parser settings, 8 MB) and
 * answers it back.
 */
import { createServer, type Server } from "node:http";
import express from "express";
import { portOf } from "../hooks/service";
import type { AppDeps } from "../hooks/app";
import type { BaseConfigResolver } from "../lib/oci";
import { builtApp, builtCustomize, builtLogger, builtMetrics, builtSyncIo } from "./built";
import { benchDeps } from "./request";

export interface Running {
  readonly url: string;
  close(): Promise<void>;
}

/** `backlog` above Node's 511: a burst of simultaneous connects must not wait on SYN retries. */
async function serve(handler: express.Express): Promise<Running> {
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen({ port: 0, host: "127.0.0.1", backlog: 4096 }, resolve));
  const port = portOf(server);
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The service's app, with the sync memo as the service runs it (its share of LLSD_CACHE_MB).
 * `resolver` undefined = LLSD_READ_IMAGE_LABELS=false (bundled base configs). Live server
 * status is off: it would call the observed Service, which exists only in a cluster.
 */
export function startHookApp(resolver: BaseConfigResolver | undefined, extra: Partial<AppDeps> = {}): Promise<Running> {
  const { createApp } = builtApp();
  const { createLogger } = builtLogger();
  const { createMetrics } = builtMetrics();
  const { customize } = builtCustomize();
  const { serviceMemo, syncRemembered, syncWith } = builtSyncIo();
  const deps = benchDeps();
  const memo = serviceMemo();
  return serve(
    createApp({
      handlers: {
        sync: (request) =>
          memo ? syncRemembered(request, deps, { resolver, memo }) : syncWith(request, deps, resolver),
        customize: (request) => Promise.resolve(customize(request)),
      },
      logger: createLogger({ level: "silent" }),
      metrics: createMetrics(),
      isReady: () => true,
      ...extra,
    }),
  );
}

/** The least any hook server does: parse the body, answer it. */
export function startEchoApp(): Promise<Running> {
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false); // as the real app
  app.post(
    "/sync",
    express.json({ limit: "8mb", strict: false, type: "application/json" }),
    (req, res) => void res.json(req.body),
  );
  return serve(app);
}

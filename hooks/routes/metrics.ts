/** `GET /metrics`: the app's registry in the Prometheus text format. */
import { Router } from "express";
import type { Registry } from "prom-client";
import { methodNotAllowed } from "../errors";

export function metricsRouter(registry: Registry): Router {
  const router = Router();
  router
    .route("/metrics")
    .get(async (_req, res) => {
      const text = await registry.metrics();
      res.type(registry.contentType).send(text);
    })
    .all(methodNotAllowed(["GET", "HEAD"]));
  return router;
}

/**
 * `GET /healthz` (liveness: the process answers) and `GET /readyz` (readiness: false while
 * shutting down, so the Service stops sending hook calls before the server closes).
 */
import { Router } from "express";
import { methodNotAllowed, sendError } from "../errors";

export function healthRouter(isReady: () => boolean): Router {
  const router = Router();
  router
    .route("/healthz")
    .get((_req, res) => void res.json({ status: "ok" }))
    .all(methodNotAllowed(["GET", "HEAD"]));
  router
    .route("/readyz")
    .get((_req, res) => {
      if (isReady()) res.json({ status: "ready" });
      else sendError(res, { status: 503, message: "not ready" });
    })
    .all(methodNotAllowed(["GET", "HEAD"]));
  return router;
}

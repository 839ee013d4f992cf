/**
 * `GET /healthz` (liveness: the process answers), `GET /readyz` (readiness: false while
 * shutting down, so the Service stops sending hook calls before the server closes) and
 * `GET /version` (which release answers: the version of package.json, as `llsd --version` and
 * the status' `operatorVersion` say it, and the commit it was built from).
 */
import { Router } from "express";
import { buildCommit } from "../../lib/build-commit";
import { packageVersion } from "../../lib/package-version";
import { methodNotAllowed, sendError } from "../errors";

export function healthRouter(
  isReady: () => boolean,
  version: string = packageVersion() ?? "unknown",
  commit: string = buildCommit() ?? "unknown",
): Router {
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
  router
    .route("/version")
    .get((_req, res) => void res.json({ name: "llsd-hooks", version, commit }))
    .all(methodNotAllowed(["GET", "HEAD"]));
  return router;
}

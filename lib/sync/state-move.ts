/**
 * A CR whose running server is on the 0.7 line and whose spec now runs 0.8 or 1.x: its storage
 * volume holds the 0.7 server's state in `~/.llama`, which the new server never reads (it keeps
 * its own in `~/.ogx`, and its start-up move of `~/.llama` is switched off so that it never
 * rewrites the volume). Nothing is copied behind the user's back: the status says what stays
 * behind and what to do (docs/server-lines.md, "Moving a CR").
 */
import type { CanonicalSpec } from "../api/canonical";
import { storageMountPath } from "../children/workload";
import { stateLayout } from "../distributions/releases";
import { chooseLine } from "../distributions/detect";
import type { Release } from "../distributions/table";
import type { SyncRequest } from "../wire/metacontroller";
import { legacyOf } from "./legacy";
import type { Observed } from "../status/observed";
import { deploymentImage } from "./target";

export function stateMoveNote(
  request: SyncRequest,
  observed: Observed | undefined,
  spec: CanonicalSpec,
  release: Release,
): string | undefined {
  if (release === "0.7" || !spec.workload.storage) return undefined;
  const running = deploymentImage(observed, legacyOf(request.parent)?.containerName);
  if (running === undefined) return undefined;
  if (chooseLine({ image: running }).release !== "0.7") return undefined;
  const mount = storageMountPath(spec.workload);
  const before = `${stateLayout("0.7", mount).stateDir}/distributions`;
  const after = `${stateLayout(release, mount).stateDir}/distributions`;
  return (
    `spec.distribution: the server moves from the 0.7 line to ${release}; the 0.7 server's state on the volume ` +
    `(${before}: registered models, shields and vector stores, conversations, responses, uploaded files, sqlite-vec and milvus files) ` +
    `is not read by the ${release} server, which keeps its state in ${after} and starts without it. ` +
    "The models and tools of the spec are registered again at start-up; upload files and fill vector stores again. " +
    `The 0.7 data stays on the volume, untouched, until you remove it; to keep serving it, set distribution.image back to the 0.7 image`
  );
}

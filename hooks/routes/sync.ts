/** `POST /sync`: observed parent, children and related objects → status and desired children. */
import type { RequestHandler } from "express";
import type { SerializedAnswer, SyncRequest, SyncResponse } from "../../lib/wire/metacontroller";
import { internalFailure } from "../../lib/sync/internal-error";
import { hookRoute, type HookDeps } from "../hook-route";
import { syncRequestShape } from "../request-shape";

export function syncRoute(
  sync: (request: SyncRequest) => Promise<SyncResponse | SerializedAnswer>,
  deps: HookDeps,
): RequestHandler {
  const handle = (request: SyncRequest): Promise<SyncResponse | SerializedAnswer> => {
    deps.metrics.parentSeen(request.parent);
    return sync(request);
  };
  // The clock of the status timestamps on that path: the HTTP shell is where the real one is read.
  const recover = (request: SyncRequest, err: unknown): SyncResponse => internalFailure(request, err, () => new Date());
  return hookRoute({ hook: "sync", shape: syncRequestShape, handle, summarize, recover }, deps);
}

function summarize(response: SyncResponse): { children: number } {
  // A 200 without a children list makes Metacontroller delete every child: answer 500 instead.
  if (!Array.isArray(response?.children)) throw new Error("sync handler returned no children list");
  return { children: response.children.length };
}

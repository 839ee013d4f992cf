/** `POST /customize`: the parent → which related objects the sync hook needs to see. */
import type { RequestHandler } from "express";
import type { CustomizeRequest, CustomizeResponse } from "../../lib/wire/metacontroller";
import { hookRoute, type HookDeps } from "../hook-route";
import { customizeRequestShape } from "../request-shape";

export function customizeRoute(
  customize: (request: CustomizeRequest) => Promise<CustomizeResponse>,
  deps: HookDeps,
): RequestHandler {
  return hookRoute({ hook: "customize", shape: customizeRequestShape, handle: customize, summarize }, deps);
}

function summarize(response: CustomizeResponse): { relatedResources: number } {
  if (!Array.isArray(response?.relatedResources))
    throw new Error("customize handler returned no relatedResources list");
  return { relatedResources: response.relatedResources.length };
}

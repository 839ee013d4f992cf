/**
 * What selects this CR's pods. A Deployment taken over from the OGX operator keeps that
 * operator's selector (`app: ogx`) for as long as it exists: a Deployment's selector is
 * immutable, and the Service, NetworkPolicy, PDB and spread rules must keep finding both the
 * running pods and the new ones (docs/migrating-from-ogxserver.md).
 */
import { OGX_APP, selectorLabels } from "../names";
import type { ChildContext } from "./context";

export function podSelectorLabels(ctx: ChildContext): { [k: string]: string } {
  return ctx.ogxTakeover ? selectorLabels(ctx.name, OGX_APP) : selectorLabels(ctx.name);
}

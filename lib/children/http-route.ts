/**
 * Gateway API HTTPRoute `<name>-route` when `networking.expose` is on and the hooks run with
 * `LLSD_EXPOSE_WITH=gateway` (the gateway component adds the child type: a child type whose CRD
 * is absent would stop the whole CompositeController). It attaches to the CR's `parentRefs`;
 * TLS at the edge is the Gateway listener's, which the hooks cannot see (docs/security.md).
 */
import type { V1ObjectMeta } from "@kubernetes/client-node";
import type { GatewayParentRefInput } from "../api/expose-types";
import { names } from "../names";
import type { ChildContext } from "./context";
import { edgeAnnotations } from "./expose-edge";
import { childMeta } from "./meta";

export const GATEWAY_API_VERSION = "gateway.networking.k8s.io/v1";

/** `gateway.networking.k8s.io/v1` HTTPRoute, only the fields this builder sets (client-node has no type for it). */
export interface HttpRoute {
  readonly apiVersion: typeof GATEWAY_API_VERSION;
  readonly kind: "HTTPRoute";
  readonly metadata: V1ObjectMeta;
  readonly spec: {
    readonly parentRefs: readonly GatewayParentRefInput[];
    /** Absent: every host name the listener accepts. */
    readonly hostnames?: readonly string[];
    readonly rules: readonly [{ readonly backendRefs: readonly [{ readonly name: string; readonly port: number }] }];
  };
}

export function buildHttpRoute(ctx: ChildContext): HttpRoute | undefined {
  const { expose, port } = ctx.spec.networking;
  // Without parentRefs validate-expose.ts fails the sync first; an HTTPRoute attached to nothing serves nothing.
  if (!expose.enabled || ctx.exposeWith !== "gateway" || expose.parentRefs === undefined) return undefined;
  // The Service's port (service.ts): a backendRef names a port by number only.
  const rules = [{ backendRefs: [{ name: names.service(ctx.name), port }] }] as const;
  const parentRefs = expose.parentRefs.map((ref) => ({ ...ref }));
  return {
    apiVersion: GATEWAY_API_VERSION,
    kind: "HTTPRoute",
    metadata: childMeta(ctx, names.route(ctx.name), edgeAnnotations(expose, undefined, false)),
    spec: expose.hostname !== undefined ? { parentRefs, hostnames: [expose.hostname], rules } : { parentRefs, rules },
  };
}

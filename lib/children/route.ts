/**
 * OpenShift Route `<name>-route` when `networking.expose` is on and the hooks run with the
 * OpenShift overlay (a Route child type on a cluster without the Route CRD would stop the
 * whole CompositeController; docs/design.md).
 */
import type { V1ObjectMeta } from "@kubernetes/client-node";
import { names, SERVICE_PORT_NAME } from "../names";
import type { ChildContext } from "./context";
import { childMeta } from "./meta";
import { edgeAnnotations } from "./expose-edge";

/** `route.openshift.io/v1` Route, only the fields this builder sets (client-node has no type for it). */
export interface Route {
  readonly apiVersion: "route.openshift.io/v1";
  readonly kind: "Route";
  readonly metadata: V1ObjectMeta;
  readonly spec: {
    /** Absent: the router generates `<route>-<namespace>.<apps domain>`. */
    readonly host?: string;
    readonly to: { readonly kind: "Service"; readonly name: string };
    readonly port: { readonly targetPort: string };
    readonly tls: RouteTls;
  };
}

export type RouteTls =
  /** The server terminates TLS with its own certificate; the router only forwards the stream. */
  | { readonly termination: "passthrough" }
  /** The router terminates TLS with its default certificate; plain http is redirected. */
  | { readonly termination: "edge"; readonly insecureEdgeTerminationPolicy: "Redirect" };

export function buildRoute(ctx: ChildContext): Route | undefined {
  const { expose, tls } = ctx.spec.networking;
  if (!expose.enabled || ctx.exposeWith !== "route") return undefined;
  const to = { kind: "Service", name: names.service(ctx.name) } as const;
  const port = { targetPort: SERVICE_PORT_NAME };
  const routeTls: RouteTls = tls.enabled
    ? { termination: "passthrough" }
    : { termination: "edge", insecureEdgeTerminationPolicy: "Redirect" };
  return {
    apiVersion: "route.openshift.io/v1",
    kind: "Route",
    // cert-manager's ingress-shim reads no Route: the issuer annotation is the Ingress's alone.
    metadata: childMeta(ctx, names.route(ctx.name), edgeAnnotations(expose, undefined, false)),
    // Two literals, not `{ ...(host ? { host } : {}), to, … }`: V8 adds fields to a spread copy very slowly.
    spec:
      expose.hostname !== undefined ? { host: expose.hostname, to, port, tls: routeTls } : { to, port, tls: routeTls },
  };
}

/**
 * Ingress `<name>-ingress` when `networking.expose` is on and the cluster uses Ingress (the
 * OpenShift overlay uses a Route instead). No class: the cluster's default IngressClass serves it.
 */
import type { V1Ingress } from "@kubernetes/client-node";
import { names, SERVICE_PORT_NAME } from "../names";
import type { ChildContext } from "./context";
import { childMeta } from "./meta";

/**
 * Under `networking.tls` the server speaks only HTTPS; ingress-nginx must be told so or every
 * request fails with 400. Other controllers ignore the annotation.
 */
export const NGINX_BACKEND_HTTPS = { "nginx.ingress.kubernetes.io/backend-protocol": "HTTPS" };

/**
 * By name, so it follows the port. A v1alpha1 CR keeps the Go operator's port number: its
 * Ingress has `port.number`, and Metacontroller's first apply over it (no last-applied record)
 * would merge a `name` next to it, which the apiserver refuses.
 */
function backendPort(ctx: ChildContext): { name: string } | { number: number } {
  return ctx.legacy ? { number: ctx.spec.networking.port } : { name: SERVICE_PORT_NAME };
}

export function buildIngress(ctx: ChildContext): V1Ingress | undefined {
  const { expose, tls } = ctx.spec.networking;
  if (!expose.enabled || ctx.exposeWith !== "ingress") return undefined;
  const http = {
    paths: [
      {
        path: "/",
        pathType: "Prefix",
        backend: { service: { name: names.service(ctx.name), port: backendPort(ctx) } },
      },
    ],
  };
  return {
    apiVersion: "networking.k8s.io/v1",
    kind: "Ingress",
    metadata: childMeta(ctx, names.ingress(ctx.name), tls.enabled ? NGINX_BACKEND_HTTPS : undefined),
    // Two literals, not `{ ...(host ? { host } : {}), http }`: V8 adds a field to a spread copy very slowly.
    spec: { rules: [expose.hostname !== undefined ? { host: expose.hostname, http } : { http }] },
  };
}

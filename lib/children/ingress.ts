/**
 * Ingress `<name>-ingress` when `networking.expose` is on and the cluster uses Ingress (the
 * OpenShift overlay uses a Route instead, the gateway component an HTTPRoute). Without
 * `className` the cluster's default IngressClass serves it; `tls` adds the edge certificate
 * (a Secret, or the one a cert-manager issuer writes for the annotation it gets).
 */
import type { V1Ingress, V1IngressRule, V1IngressSpec } from "@kubernetes/client-node";
import type { Expose } from "../api/canonical";
import { names, SERVICE_PORT_NAME } from "../names";
import type { ChildContext } from "./context";
import { childMeta } from "./meta";
import { edgeAnnotations, edgeTlsSecret } from "./expose-edge";

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
  // Two literals, not `{ ...(host ? { host } : {}), http }`: V8 adds a field to a spread copy very slowly.
  const rule = expose.hostname !== undefined ? { host: expose.hostname, http } : { http };
  return {
    apiVersion: "networking.k8s.io/v1",
    kind: "Ingress",
    metadata: childMeta(
      ctx,
      names.ingress(ctx.name),
      edgeAnnotations(expose, tls.enabled ? NGINX_BACKEND_HTTPS : undefined, true),
    ),
    spec: ingressSpec(expose, rule, ctx.name),
  };
}

/** `{rules}` alone unless the class or TLS is set (the spec of every Ingress made before them). */
function ingressSpec(expose: Expose, rule: V1IngressRule, parent: string): V1IngressSpec {
  const secretName = edgeTlsSecret(expose, parent);
  if (expose.className === undefined && secretName === undefined) return { rules: [rule] };
  const spec: V1IngressSpec = {};
  if (expose.className !== undefined) spec.ingressClassName = expose.className;
  // validate-expose.ts refuses TLS without a hostname: the certificate needs a name.
  if (secretName !== undefined && expose.hostname !== undefined) spec.tls = [{ hosts: [expose.hostname], secretName }];
  spec.rules = [rule];
  return spec;
}

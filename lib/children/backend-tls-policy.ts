/**
 * BackendTLSPolicy `<name>-backend-tls` beside the HTTPRoute when the server speaks HTTPS
 * (`networking.tls.enabled`): without it the Gateway sends plain HTTP to a TLS port. It targets
 * the Service's `http` port and checks the server's certificate against the CA the CR names
 * (`expose.backendTLS.caConfigMapName`, key `ca.crt`) or the Gateway's well-known CAs.
 */
import type { V1ObjectMeta } from "@kubernetes/client-node";
import { names, SERVICE_PORT_NAME } from "../names";
import type { ChildContext } from "./context";
import { GATEWAY_API_VERSION } from "./http-route";
import { childMeta } from "./meta";

type LocalRef<K extends string> = { readonly group: ""; readonly kind: K; readonly name: string };

/** `gateway.networking.k8s.io/v1` BackendTLSPolicy, only the fields this builder sets. */
export interface BackendTlsPolicy {
  readonly apiVersion: typeof GATEWAY_API_VERSION;
  readonly kind: "BackendTLSPolicy";
  readonly metadata: V1ObjectMeta;
  readonly spec: {
    readonly targetRefs: readonly [LocalRef<"Service"> & { readonly sectionName: string }];
    readonly validation:
      | { readonly hostname: string; readonly caCertificateRefs: readonly [LocalRef<"ConfigMap">] }
      | { readonly hostname: string; readonly wellKnownCACertificates: "System" };
  };
}

/** The name in the server's certificate when the CR does not say: the Service's in-cluster DNS name. */
export function defaultBackendHostname(ctx: Pick<ChildContext, "name" | "namespace">): string {
  return `${names.service(ctx.name)}.${ctx.namespace}.svc`;
}

export function buildBackendTlsPolicy(ctx: ChildContext): BackendTlsPolicy | undefined {
  const { expose, tls } = ctx.spec.networking;
  if (!expose.enabled || ctx.exposeWith !== "gateway" || !tls.enabled || expose.parentRefs === undefined)
    return undefined;
  const hostname = expose.backendTLS?.hostname ?? defaultBackendHostname(ctx);
  const ca = expose.backendTLS?.caConfigMapName;
  return {
    apiVersion: GATEWAY_API_VERSION,
    kind: "BackendTLSPolicy",
    metadata: childMeta(ctx, names.backendTls(ctx.name)),
    spec: {
      targetRefs: [{ group: "", kind: "Service", name: names.service(ctx.name), sectionName: SERVICE_PORT_NAME }],
      validation:
        ca !== undefined
          ? { hostname, caCertificateRefs: [{ group: "", kind: "ConfigMap", name: ca }] }
          : { hostname, wellKnownCACertificates: "System" },
    },
  };
}

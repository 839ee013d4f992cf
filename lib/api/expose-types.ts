/**
 * The exposure settings beyond `{enabled, hostname}` (docs/spec-reference.md, "networking.expose"):
 * the Ingress class, TLS at the edge, annotations, and the Gateway API's parent Gateways and
 * backend TLS. Shared by the v1alpha2 input and the canonical spec (normalize copies them as is).
 */

/** Who signs the edge certificate: a cert-manager Issuer (CR's namespace) or ClusterIssuer. */
export interface ExposeIssuerInput {
  readonly name: string;
  /** @default Issuer */
  readonly kind?: "Issuer" | "ClusterIssuer";
}

/** TLS at the edge: a `kubernetes.io/tls` Secret, or one a cert-manager issuer writes. */
export interface ExposeTlsInput {
  /** The Secret with the certificate; with `issuer`, where cert-manager writes it. @default `<name>-ingress-tls` with an issuer */
  readonly secretName?: string;
  readonly issuer?: ExposeIssuerInput;
}

/** A Gateway (and optionally one of its listeners) the HTTPRoute attaches to. */
export interface GatewayParentRefInput {
  readonly name: string;
  /** @default the CR's namespace */
  readonly namespace?: string;
  /** A listener name of that Gateway. */
  readonly sectionName?: string;
  readonly port?: number;
}

/** How the Gateway checks the server's certificate when `networking.tls` is on (BackendTLSPolicy). */
export interface BackendTlsInput {
  /** The name the server's certificate carries. @default `<name>-service.<namespace>.svc` */
  readonly hostname?: string;
  /** A ConfigMap of the CR's namespace with the CA under `ca.crt`. @default the Gateway's well-known (System) CAs */
  readonly caConfigMapName?: string;
}

/** The fields of `networking.expose` beside `enabled` and `hostname`. */
export interface ExposeEdgeInput {
  /** The IngressClass (`spec.ingressClassName`). @default the cluster's default class */
  readonly className?: string;
  /** Added to the Ingress, Route or HTTPRoute. */
  readonly annotations?: { readonly [key: string]: string };
  readonly tls?: ExposeTlsInput;
  /** The Gateways the HTTPRoute attaches to (LLSD_EXPOSE_WITH=gateway). */
  readonly parentRefs?: readonly GatewayParentRefInput[];
  readonly backendTLS?: BackendTlsInput;
}

/** Where exposed servers go: the hooks' `LLSD_EXPOSE_WITH` setting (one per install: each is a child type). */
export type ExposeWith = "ingress" | "route" | "gateway";
export const EXPOSE_WITH = ["ingress", "route", "gateway"] as const satisfies readonly ExposeWith[];

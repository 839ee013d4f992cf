/**
 * What the exposing children share (`networking.expose`'s edge settings): their annotations,
 * and the Secret TLS at the edge uses. Each is the old value when the edge fields are unset,
 * so a CR that does not use them keeps its children byte for byte.
 */
import type { Expose } from "../api/canonical";
import type { ExposeIssuerInput } from "../api/expose-types";
import { names } from "../names";

type Annotations = { readonly [key: string]: string };

/** cert-manager's ingress-shim annotations: it issues a certificate for each `tls` entry of an Ingress carrying one. */
export const CERT_MANAGER_ISSUER = "cert-manager.io/issuer";
export const CERT_MANAGER_CLUSTER_ISSUER = "cert-manager.io/cluster-issuer";

function issuerAnnotation(issuer: ExposeIssuerInput): Annotations {
  return { [issuer.kind === "ClusterIssuer" ? CERT_MANAGER_CLUSTER_ISSUER : CERT_MANAGER_ISSUER]: issuer.name };
}

/**
 * The hooks' own annotations, then the user's (a user who runs another controller may replace
 * ours), then the issuer's, which its own field names in so many words. `withIssuer` is false
 * where cert-manager does not read it (Route, HTTPRoute). Undefined when there are none.
 */
export function edgeAnnotations(
  expose: Expose,
  own: Annotations | undefined,
  withIssuer: boolean,
): Annotations | undefined {
  const issuer = withIssuer ? expose.tls?.issuer : undefined;
  if (expose.annotations === undefined && issuer === undefined) return own;
  const all = { ...own, ...expose.annotations, ...(issuer ? issuerAnnotation(issuer) : {}) };
  return Object.keys(all).length > 0 ? all : undefined;
}

/** The Secret of the Ingress's `tls` entry: the one named, else the one cert-manager writes for the issuer. */
export function edgeTlsSecret(expose: Expose, parent: string): string | undefined {
  if (expose.tls === undefined) return undefined;
  return expose.tls.secretName ?? names.ingressTls(parent);
}

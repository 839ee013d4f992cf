/**
 * `networking.expose`'s edge rules (docs/spec-reference.md): what the CRD cannot say of an
 * untyped field. TLS at the edge needs a certificate and the name it is for, annotation keys
 * must be ones the apiserver takes, a Gateway exposure must name its Gateway; and a server
 * that checks bearer tokens, exposed through an Ingress without TLS, is warned about.
 */
import { child, fieldError, type FieldError } from "../errors";
import type { CanonicalSpec, Expose } from "./canonical";
import type { ExposeWith } from "./expose-types";
import { isLabelKey } from "./validate-allowed-from";

const EXPOSE_PATH = "spec.networking.expose";
const TLS_PATH = `${EXPOSE_PATH}.tls`;

export function exposeRules(spec: CanonicalSpec, exposeWith: ExposeWith): FieldError[] {
  const expose = spec.networking.expose;
  return tlsRules(expose).concat(annotationRules(expose), gatewayRules(expose, exposeWith));
}

function tlsRules(expose: Expose): FieldError[] {
  const tls = expose.tls;
  if (tls === undefined) return [];
  const errors: FieldError[] = [];
  if (tls.secretName === undefined && tls.issuer === undefined)
    errors.push(
      fieldError(
        TLS_PATH,
        "name the certificate: set secretName (a kubernetes.io/tls Secret) or issuer (a cert-manager Issuer or ClusterIssuer that writes it), or remove tls",
      ),
    );
  if (expose.hostname === undefined)
    errors.push(
      fieldError(
        TLS_PATH,
        `TLS at the edge needs the host name the certificate is for: set ${EXPOSE_PATH}.hostname (e.g. llama.example.com), or remove tls`,
      ),
    );
  return errors;
}

function annotationRules(expose: Expose): FieldError[] {
  return Object.keys(expose.annotations ?? {})
    .filter((key) => !isLabelKey(key))
    .map((key) =>
      fieldError(
        child(`${EXPOSE_PATH}.annotations`, key),
        `${JSON.stringify(key)} is not an annotation key the apiserver takes: write [prefix/]name, e.g. "example.com/timeout"`,
      ),
    );
}

function gatewayRules(expose: Expose, exposeWith: ExposeWith): FieldError[] {
  if (exposeWith !== "gateway" || !expose.enabled || expose.parentRefs !== undefined) return [];
  return [
    fieldError(
      `${EXPOSE_PATH}.parentRefs`,
      "the hooks expose servers through the Gateway API (LLSD_EXPOSE_WITH=gateway), and an HTTPRoute must name its Gateway: set parentRefs: [{name: <gateway>, namespace: <its namespace>, sectionName: <an HTTPS listener>}], or give the hooks a default Gateway (LLSD_GATEWAY_PARENT=namespace/name[/sectionName]; docs/install.md#gateway-api)",
    ),
  ];
}

/** Bearer tokens over a plain Ingress: a warning, not an error (servers ran that way before TLS could be set here). */
export function exposeWarnings(spec: CanonicalSpec, exposeWith: ExposeWith): FieldError[] {
  const expose = spec.networking.expose;
  if (!expose.enabled || spec.auth === undefined || exposeWith !== "ingress" || expose.tls !== undefined) return [];
  return [
    fieldError(
      EXPOSE_PATH,
      "spec.auth is set but the Ingress has no TLS: bearer tokens cross the cluster edge in clear text; set hostname and tls (secretName, or issuer for cert-manager) (docs/security.md)",
    ),
  ];
}

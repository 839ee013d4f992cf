/**
 * `networking.expose` (docs/spec-reference.md, "networking.expose"): `true`/`false`, or an
 * object with the edge settings: the Ingress class, TLS at the edge, annotations, and the
 * Gateway API's parent Gateways and backend TLS. The CRD keeps the field untyped (a
 * boolean-or-object union has no structural form), so ajv at `/validate`, `/sync` and
 * `llsd validate` enforces this schema; the cross-field rules are in validate-expose.ts.
 */
import { Type } from "@sinclair/typebox";
import { bool, int, list, mapOf, obj, oneOf, str, type TypeOf } from "./schema-parts";

/** Gateway API's limit on `parentRefs`. */
export const MAX_PARENT_REFS = 32;

const issuer = obj(
  "The cert-manager issuer that writes the Secret: the Ingress gets its `cert-manager.io/issuer` (or `cluster-issuer`) annotation.",
  {
    name: str("Name of the Issuer or ClusterIssuer.", { minLength: 1 }),
    kind: str("`Issuer` (in the CR's namespace) or `ClusterIssuer`. Defaults to Issuer.", {
      enum: ["Issuer", "ClusterIssuer"],
    }),
  },
  ["name"],
);

const edgeTls = obj(
  "TLS at the edge (Ingress): a Secret, or a cert-manager issuer that writes one. Needs `hostname`.",
  {
    secretName: str(
      "A kubernetes.io/tls Secret of the CR's namespace; with `issuer`, the one cert-manager writes. Defaults to `<name>-ingress-tls` with an issuer.",
      { minLength: 1 },
    ),
    issuer,
  },
);

const parentRef = obj(
  "A Gateway the HTTPRoute attaches to.",
  {
    name: str("Name of the Gateway.", { minLength: 1 }),
    namespace: str("Namespace of the Gateway. Defaults to the CR's namespace.", { minLength: 1 }),
    sectionName: str("A listener of that Gateway.", { minLength: 1 }),
    port: int("A listener port of that Gateway.", { minimum: 1, maximum: 65535 }),
  },
  ["name"],
);

const backendTls = obj(
  "How the Gateway checks the server's certificate when networking.tls is enabled (a BackendTLSPolicy).",
  {
    hostname: str("The name the server's certificate carries. Defaults to `<name>-service.<namespace>.svc`.", {
      minLength: 1,
    }),
    caConfigMapName: str(
      "A ConfigMap of the CR's namespace with the CA certificate under `ca.crt`. Unset: the Gateway's well-known (System) CAs.",
      { minLength: 1 },
    ),
  },
);

const exposeObject = obj("Exposure settings.", {
  enabled: bool("Whether to expose. Defaults to true."),
  hostname: str("Host name for the Ingress, Route or HTTPRoute.", { minLength: 1 }),
  className: str("IngressClass of the Ingress. Defaults to the cluster's default class.", { minLength: 1 }),
  annotations: mapOf("Annotations added to the Ingress, Route or HTTPRoute.", Type.String()),
  tls: edgeTls,
  // Not a list-map: one Gateway may be named twice, once per listener.
  parentRefs: list("The Gateways the HTTPRoute attaches to (the hooks run with LLSD_EXPOSE_WITH=gateway).", parentRef, {
    minItems: 1,
    maxItems: MAX_PARENT_REFS,
  }),
  backendTLS: backendTls,
});

export const EXPOSE_SCHEMA = oneOf(
  "Expose outside the cluster: `true`, `{}` or `{enabled, hostname, className, tls, annotations, parentRefs, backendTLS}`.",
  [Type.Boolean(), exposeObject],
);

/** `{enabled, hostname}` and the edge settings. */
export type ExposeObject = TypeOf<typeof exposeObject>;
/** The fields of `networking.expose` beside `enabled` and `hostname` (the canonical spec keeps them as written). */
export type ExposeEdgeInput = Omit<ExposeObject, "enabled" | "hostname">;
/** A Gateway (and optionally one of its listeners) the HTTPRoute attaches to. */
export type GatewayParentRefInput = TypeOf<typeof parentRef>;
/** Who signs the edge certificate: a cert-manager Issuer (CR's namespace) or ClusterIssuer. */
export type ExposeIssuerInput = TypeOf<typeof issuer>;

/** Where exposed servers go: the hooks' `LLSD_EXPOSE_WITH` setting (one per install: each is a child type). */
export type ExposeWith = "ingress" | "route" | "gateway";
export const EXPOSE_WITH = ["ingress", "route", "gateway"] as const satisfies readonly ExposeWith[];

/**
 * Our `networking` and `monitoring` → the OGXServer's `network`, `tls` and `monitoring`, with a
 * warning for each thing the peer does differently or not at all (from its controller:
 * ogx-ai/ogx-k8s-operator controllers/network_resources.go, pkg/deploy/plugins/
 * networkpolicy_transformer.go, controllers/resource_helper.go at commit 1784464).
 */
import { asList, compactOrNone, type Notes } from "./json";
import { isPlainObject, type JsonMap, own } from "../json";

const DEFAULT_CA_KEY = "ca-bundle.crt";
/** networking.expose's edge fields (lib/api/expose-types.ts): the peer has none of them. */
const EDGE_FIELDS = ["className", "annotations", "tls", "parentRefs", "backendTLS"] as const;

function caCertificates(caBundle: unknown): JsonMap[] {
  return asList(caBundle).flatMap((bundle) => {
    const name = own(bundle, "configMapName");
    const keys = own(bundle, "configMapKeys");
    if (typeof name !== "string") return [];
    return (Array.isArray(keys) ? keys : [DEFAULT_CA_KEY]).map((key: unknown) => ({ name, key }));
  });
}

function serverTls(tls: unknown, notes: Notes): JsonMap | undefined {
  if (own(tls, "enabled") !== true) return undefined;
  notes.warn(
    "spec.networking.tls.enabled",
    "the peer does not serve TLS: network.tls.secretName is written, but its operator never reads it and the server answers plain HTTP",
  );
  const secretName = own(tls, "secretName");
  return typeof secretName === "string" ? { secretName } : undefined;
}

function externalAccess(expose: unknown, notes: Notes): JsonMap | undefined {
  if (expose === undefined || expose === false) return undefined;
  const enabled = expose === true || own(expose, "enabled") !== false;
  const hostname = own(expose, "hostname");
  if (enabled)
    notes.warn(
      "spec.networking.expose",
      "the peer makes an Ingress only, never an OpenShift Route, with no host, class or TLS",
    );
  if (hostname !== undefined)
    notes.warn(
      "spec.networking.expose.hostname",
      "written, but the peer's operator ignores it (its Ingress rule has no host)",
    );
  for (const field of EDGE_FIELDS)
    if (own(expose, field) !== undefined)
      notes.warn(
        `spec.networking.expose.${field}`,
        "not converted (kept in the annotation): the peer's externalAccess has no such field (its Ingress has no class, TLS or annotations, and it makes no HTTPRoute)",
      );
  return compactOrNone([
    ["enabled", enabled],
    ["hostname", hostname],
  ]);
}

function policy(networking: JsonMap, notes: Notes): JsonMap | undefined {
  if (networking.allowedFrom !== undefined)
    notes.warn(
      "spec.networking.allowedFrom",
      "not converted (kept in the annotation): the peer has no allowedFrom; its network.policy.ingress rules replace its default rules, so write every rule there",
    );
  const given = own(networking, "policy");
  if (!isPlainObject(given)) return undefined;
  // defaultIngress: false is the peer's meaning of non-empty rules; nothing to write for it.
  if (given.ingress !== undefined && given.defaultIngress !== false)
    notes.warn(
      "spec.networking.policy.ingress",
      "llsd-hooks adds these rules to its own; the peer's network.policy.ingress replaces its default rules (same namespace, operator, router, monitoring)",
    );
  if (given.egress !== undefined)
    notes.warn(
      "spec.networking.policy.egress",
      "llsd-hooks adds DNS and what the server needs; the peer applies egress rules only beside ingress rules, and adds no DNS rule",
    );
  return compactOrNone([
    ["enabled", given.enabled],
    ["ingress", given.ingress],
    ["egress", given.egress],
  ]);
}

export function networkToOgx(networking: unknown, notes: Notes): { network?: JsonMap; tls?: JsonMap } {
  if (!isPlainObject(networking)) return {};
  const tls = own(networking, "tls");
  const certificates = caCertificates(own(tls, "caBundle"));
  const network = compactOrNone([
    ["port", networking.port],
    ["tls", serverTls(tls, notes)],
    ["externalAccess", externalAccess(networking.expose, notes)],
    ["policy", policy(networking, notes)],
  ]);
  return {
    ...(network ? { network } : {}),
    ...(certificates.length > 0 ? { tls: { trust: { caCertificates: certificates } } } : {}),
  };
}

export function monitoringToOgx(monitoring: unknown, notes: Notes): JsonMap {
  if (!isPlainObject(monitoring)) {
    notes.warn(
      "spec.monitoring",
      "written as enabled: false: the peer turns metrics on when spec.monitoring is absent, llsd-hooks only when it is set",
    );
    return { enabled: false };
  }
  if (monitoring.allowedFrom !== undefined)
    notes.warn(
      "spec.monitoring.allowedFrom",
      "not converted (kept in the annotation): the peer lets only namespaces labelled network.openshift.io/policy-group: monitoring scrape",
    );
  return (
    compactOrNone([
      ["enabled", monitoring.enabled],
      ["metricsPort", monitoring.port],
    ]) ?? {}
  );
}

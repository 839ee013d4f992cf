/**
 * Where the cluster's API server answers, for the NetworkPolicy's egress when the server checks
 * callers' tokens with it (`auth.kubernetes`). A policy cannot name a Service outside the pod's
 * selectors, and CNIs apply egress rules after the Service's address is translated, so the rule
 * needs the endpoints' own addresses and port: customize asks for the `kubernetes` Service's
 * EndpointSlices in `default` (hook version v2 reads across namespaces), and the sync reads them here.
 */
import { isIP } from "node:net";
import type { CanonicalSpec } from "../api/canonical";
import type { ApiServerEgress } from "../children/network-policy-egress";
import { authEgressTargets } from "../config/auth-egress";
import { isPlainObject } from "../json";
import { KEYS, objectsOf, type ObjectMap, type RelatedResourceRule } from "../wire/metacontroller";

const SERVICE_NAME_LABEL = "kubernetes.io/service-name";
const API_SERVER_SERVICE = { namespace: "default", name: "kubernetes" } as const;

/** Customize's rule, when the policy limits egress and the server calls the in-cluster API server. */
export function apiServerRule(spec: CanonicalSpec): RelatedResourceRule[] {
  const policy = spec.networking.policy;
  const limited = policy?.enabled !== false && policy?.egress !== undefined;
  if (!limited || !authEgressTargets(spec).some((t) => t.kind === "apiServer")) return [];
  return [
    {
      apiVersion: "discovery.k8s.io/v1",
      resource: "endpointslices",
      namespace: API_SERVER_SERVICE.namespace,
      labelSelector: { matchLabels: { [SERVICE_NAME_LABEL]: API_SERVER_SERVICE.name } },
    },
  ];
}

const asList = (value: unknown): readonly unknown[] => (Array.isArray(value) ? value : []);

/** A slice's ready addresses as CIDRs of one address, and its TCP ports. */
function sliceParts(slice: { readonly [k: string]: unknown }): { cidrs: string[]; ports: number[] } {
  const cidrs = asList(slice.endpoints).flatMap((e) => {
    const ready = isPlainObject(e) && isPlainObject(e.conditions) ? e.conditions.ready !== false : true;
    return ready && isPlainObject(e) ? asList(e.addresses) : [];
  });
  const ports = asList(slice.ports).flatMap((p) =>
    isPlainObject(p) && typeof p.port === "number" && (p.protocol ?? "TCP") === "TCP" ? [p.port] : [],
  );
  return {
    cidrs: cidrs.flatMap((a) => (typeof a === "string" && isIP(a) ? [`${a}/${isIP(a) === 4 ? 32 : 128}`] : [])),
    ports,
  };
}

/** The API server's endpoints from the related EndpointSlices, or undefined when none were sent. */
export function apiServerEgressOf(related: ObjectMap | undefined): ApiServerEgress | undefined {
  const slices = objectsOf(related, KEYS.endpointSlice).filter(
    (s) =>
      s.metadata.namespace === API_SERVER_SERVICE.namespace &&
      s.metadata.labels?.[SERVICE_NAME_LABEL] === API_SERVER_SERVICE.name,
  );
  const parts = slices.map((s) => sliceParts(s));
  const cidrs = [...new Set(parts.flatMap((p) => p.cidrs))].sort();
  const ports = [...new Set(parts.flatMap((p) => p.ports))].sort((a, b) => a - b);
  return cidrs.length > 0 && ports.length > 0 ? { cidrs, ports } : undefined;
}

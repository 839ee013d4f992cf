/**
 * What a server's object makes its operator enforce, in words both APIs share: authentication,
 * TLS, each NetworkPolicy rule, each store. `llsdGuards` reads a v1alpha2 LLSD spec,
 * `ogxGuards` an OGXServer spec, each with its operator's semantics (the peer's from
 * ogx-ai/ogx-k8s-operator controllers/ at commit 1784464: it has no authentication settings,
 * never serves TLS with network.tls, applies egress rules only beside ingress rules, and its
 * ingress rules replace its defaults, and its Ingress has no TLS). weaker.ts compares two lists.
 */
import { asList, flatSecretRef } from "./json";
import { isPlainObject, type JsonMap, own } from "../json";

export interface Guard {
  /** What is enforced, and its value: two guards are the same when both are equal. */
  readonly kind: string;
  readonly value?: unknown;
  /** Where this side's object says it. */
  readonly path: string;
}

const DEFAULT_CA_KEY = "ca-bundle.crt";

/** The KV and SQL backends: the type (sqlite when unset, on both sides) and where it is. */
function stores(storage: unknown): Guard[] {
  const kv = own(storage, "kv");
  const sql = own(storage, "sql");
  return [
    {
      kind: "a KV store",
      value: [own(kv, "type") ?? "sqlite", own(kv, "endpoint")],
      path: "spec.storage.kv",
    },
    {
      kind: "an SQL store",
      value: [own(sql, "type") ?? "sqlite", flatSecretRef(own(sql, "connectionString"))],
      path: "spec.storage.sql",
    },
  ];
}

function volume(workload: unknown): Guard[] {
  const storage = own(workload, "storage");
  return storage === undefined ? [] : [{ kind: "persistent storage (a PVC)", path: "spec.workload.storage" }];
}

/** Each rule of a list, at its index. */
const rules = (kind: string, list: unknown, path: string): Guard[] =>
  asList(list).map((value, i) => ({ kind, value, path: `${path}[${i}]` }));

const caGuard = (name: unknown, key: unknown, path: string): Guard => ({
  kind: "trusted CA certificates",
  value: [name, key],
  path,
});

function llsdNetworkPolicy(networking: unknown, monitoring: unknown): Guard[] {
  const policy = own(networking, "policy");
  if (own(policy, "enabled") === false) return [];
  const from = own(networking, "allowedFrom");
  const egress = own(policy, "egress");
  return [
    { kind: "a NetworkPolicy", path: "spec.networking.policy" },
    ...(own(policy, "defaultIngress") === false
      ? [{ kind: "ingress from the listed rules only", path: "spec.networking.policy.defaultIngress" }]
      : []),
    ...rules("an ingress peer (namespace)", own(from, "namespaces"), "spec.networking.allowedFrom.namespaces"),
    ...rules("an ingress peer (namespace label)", own(from, "labels"), "spec.networking.allowedFrom.labels"),
    ...rules("an ingress rule", own(policy, "ingress"), "spec.networking.policy.ingress"),
    ...(egress === undefined
      ? []
      : [{ kind: "egress limited to the listed rules", path: "spec.networking.policy.egress" }]),
    ...rules("an egress rule", egress, "spec.networking.policy.egress"),
    ...rules(
      "a metrics scraper peer",
      own(own(monitoring, "allowedFrom"), "namespaces"),
      "spec.monitoring.allowedFrom.namespaces",
    ),
  ];
}

/**
 * TLS at the edge of an exposed server, like serving TLS: the certificate clients see (a Secret,
 * or the issuer that writes it) and how a Gateway checks the server's. Unexposed, neither is used.
 */
function edgeTls(expose: unknown): Guard[] {
  if (!isPlainObject(expose) || expose.enabled === false) return [];
  const path = "spec.networking.expose";
  return [
    ...(expose.tls === undefined ? [] : [{ kind: "TLS at the edge", value: expose.tls, path: `${path}.tls` }]),
    ...(expose.backendTLS === undefined
      ? []
      : [
          {
            kind: "the Gateway's check of the server's certificate",
            value: expose.backendTLS,
            path: `${path}.backendTLS`,
          },
        ]),
  ];
}

export function llsdGuards(spec: JsonMap): Guard[] {
  const networking = own(spec, "networking");
  const tls = own(networking, "tls");
  const bundles = asList(own(tls, "caBundle"));
  const bundlePath = (i: number): string =>
    Array.isArray(own(tls, "caBundle")) ? `spec.networking.tls.caBundle[${i}]` : "spec.networking.tls.caBundle";
  return [
    ...(spec.auth === undefined ? [] : [{ kind: "authentication", path: "spec.auth" }]),
    ...(own(tls, "enabled") === true ? [{ kind: "serving TLS", path: "spec.networking.tls.enabled" }] : []),
    ...edgeTls(own(networking, "expose")),
    ...bundles.flatMap((bundle, i) =>
      asList(own(bundle, "configMapKeys") ?? DEFAULT_CA_KEY).map((key) =>
        caGuard(own(bundle, "configMapName"), key, bundlePath(i)),
      ),
    ),
    ...llsdNetworkPolicy(networking, own(spec, "monitoring")),
    ...stores(own(spec, "storage")),
    ...volume(own(spec, "workload")),
  ];
}

function ogxNetworkPolicy(policy: unknown): Guard[] {
  if (own(policy, "enabled") === false) return [];
  const ingress = own(policy, "ingress");
  const path = "spec.network.policy";
  // Without ingress rules (`[]` too: Go's len() > 0) the peer writes its default rules and no egress at all.
  const replaces = asList(ingress).length > 0;
  const egress = replaces ? own(policy, "egress") : undefined;
  return [
    { kind: "a NetworkPolicy", path },
    ...(replaces ? [{ kind: "ingress from the listed rules only", path: `${path}.ingress` }] : []),
    ...rules("an ingress rule", ingress, `${path}.ingress`),
    ...(egress === undefined ? [] : [{ kind: "egress limited to the listed rules", path: `${path}.egress` }]),
    ...rules("an egress rule", egress, `${path}.egress`),
  ];
}

export function ogxGuards(spec: JsonMap): Guard[] {
  const certificates = asList(own(own(own(spec, "tls"), "trust"), "caCertificates"));
  return [
    ...certificates.map((ref, i) => caGuard(own(ref, "name"), own(ref, "key"), `spec.tls.trust.caCertificates[${i}]`)),
    ...ogxNetworkPolicy(own(own(spec, "network"), "policy")),
    ...stores(own(spec, "storage")),
    ...volume(own(spec, "workload")),
  ];
}

/**
 * NetworkPolicy `<name>-network-policy`: the server is locked down by default and
 * `networking.allowedFrom` opens it. `networking.policy` switches it off, adds native ingress
 * rules after the default one (`defaultIngress: false`: in place of its same-namespace peer),
 * and limits egress (network-policy-egress.ts); unset, only ingress to the server port is limited and egress stays open (providers, registries, model
 * hubs live anywhere). None for a CR taken over from a Go operator that ran it without one,
 * until its owner opts in (lib/sync/network-access.ts).
 */
import type { V1NetworkPolicy, V1NetworkPolicySpec } from "@kubernetes/client-node";
import type {
  NetworkPolicyIngressRuleInput as IngressRule,
  NetworkPolicyPeerInput,
} from "../api/v1alpha2-network-policy";
import { listenPort } from "../defaults";
import { copyJson } from "../json-copy";
import { names } from "../names";
import { podSelectorLabels } from "./selector";
import type { ChildContext } from "./context";
import { childMeta } from "./meta";
import { metricsOn, NO_SERVICE_MONITORS } from "../distributions/monitoring";
import { egressRules, type EgressRule } from "./network-policy-egress";
import { trustsHeaders } from "../api/validate-auth-trust";
import type { AllowedFromInput } from "../api/v1alpha2";

/**
 * The rules in their wire shape (client-node names the ingress rule's `from` field `_from`, a
 * TypeScript keyword workaround its own serializer renames; this object goes straight to JSON).
 */
export type { EgressRule, IngressRule };
export type NetworkPolicy = Omit<V1NetworkPolicy, "spec"> & {
  spec: Omit<V1NetworkPolicySpec, "ingress" | "egress"> & { ingress: IngressRule[]; egress?: EgressRule[] };
};

/** Set by the apiserver on every namespace: selects a namespace by name. */
export const NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name";
/** `allowedFrom.namespaces` entry that admits every namespace. */
export const ALL_NAMESPACES = "*";
/** OpenShift labels the router's (host-network) namespace with this policy group. */
export const OPENSHIFT_INGRESS_POLICY_GROUP = { "network.openshift.io/policy-group": "ingress" };
/** Where the community ingress-nginx controller runs by default. */
export const INGRESS_NGINX_NAMESPACE = "ingress-nginx";

/**
 * The peers in order, each listed once (e.g. the hooks namespace also in allowedFrom), by what
 * tells it apart from the others built here.
 */
class Peers {
  readonly list: NetworkPolicyPeerInput[] = [];
  private readonly seen = new Set<string>();

  add(key: string, peer: NetworkPolicyPeerInput): void {
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.list.push(peer);
  }

  namespace(namespace: string): void {
    this.add(`namespace ${namespace}`, {
      namespaceSelector: { matchLabels: { [NAMESPACE_NAME_LABEL]: namespace } },
    });
  }
}

/**
 * Who makes the server believe a gateway's identity headers: `spec.auth.upstreamHeader`, or the
 * mounted overrideConfig's `upstream_header` provider. Undefined when nobody does.
 */
export function headersTrusted(ctx: Pick<ChildContext, "spec" | "gatewayHeaders">): string | undefined {
  if (trustsHeaders(ctx.spec)) return "spec.auth.upstreamHeader";
  return ctx.gatewayHeaders === undefined ? undefined : `upstream_header auth in ConfigMap ${ctx.gatewayHeaders}`;
}

/** False for `networking.policy.defaultIngress: false`: the user's ingress rules say who calls the server. */
export function defaultIngressOn(spec: ChildContext["spec"]): boolean {
  return spec.networking.policy?.defaultIngress !== false;
}

/**
 * Which peers of the default rule a reduced policy keeps. upstreamHeader: the server believes
 * whoever sends its headers, so only the gateway (allowedFrom) may, not the routers.
 * defaultIngress false: the user's rules replace the same-namespace peer; allowedFrom and
 * exposure stay, as the CR asks for them by name.
 */
function admits(ctx: Pick<ChildContext, "spec" | "gatewayHeaders">): { sameNamespace: boolean; exposure: boolean } {
  const gatewayOnly = headersTrusted(ctx) !== undefined;
  return { sameNamespace: !gatewayOnly && defaultIngressOn(ctx.spec), exposure: !gatewayOnly };
}

function peers(ctx: ChildContext): NetworkPolicyPeerInput[] {
  const { allowedFrom } = ctx.spec.networking;
  if (allowedFrom?.namespaces?.includes(ALL_NAMESPACES)) return [{ namespaceSelector: {} }];
  const kept = admits(ctx);
  const peers = new Peers();
  // Same namespace: the apps deployed next to the server (Go operator PR #267).
  if (kept.sameNamespace) peers.add("same namespace", { podSelector: {} });
  // The hooks' namespace: the hooks read /v1/health and /v1/version for the status (kept in every
  // reduced policy: whoever runs pods there already controls every server's Deployment).
  peers.namespace(ctx.hooksNamespace);
  allowedPeers(allowedFrom, peers);
  if (kept.exposure) exposurePeers(ctx, peers);
  return peers.list;
}

function allowedPeers(allowedFrom: AllowedFromInput | undefined, peers: Peers): void {
  for (const namespace of allowedFrom?.namespaces ?? []) peers.namespace(namespace);
  // `labels` are namespace label KEYS (the Go operator's README example `team=frontend` misled users).
  for (const key of allowedFrom?.labels ?? [])
    peers.add(`label ${key}`, { namespaceSelector: { matchExpressions: [{ key, operator: "Exists" }] } });
}

/**
 * An exposed server must be reachable from whatever carries the Route, Ingress or HTTPRoute traffic:
 * the OpenShift router (host network, matched by its namespace's policy group; a pod
 * selector inside would not match, Go operator PR #227) or ingress-nginx's namespace.
 * A v1alpha1 CR admits the router whenever it set `spec.network`, as the Go operator did.
 */
function exposurePeers(ctx: ChildContext, peers: Peers): void {
  const exposed = ctx.spec.networking.expose.enabled;
  if (exposed || ctx.legacy?.networkSet)
    peers.add("router", { namespaceSelector: { matchLabels: { ...OPENSHIFT_INGRESS_POLICY_GROUP } } });
  if (exposed) peers.namespace(INGRESS_NGINX_NAMESPACE);
  // Many Gateway implementations run the proxy beside its Gateway (a parentRef without a namespace is the CR's own).
  if (exposed && ctx.exposeWith === "gateway")
    for (const ref of ctx.spec.networking.expose.parentRefs ?? []) if (ref.namespace) peers.namespace(ref.namespace);
}

/**
 * `spec.monitoring`: the metrics port, from the scraper's namespace only (the CR's
 * `monitoring.allowedFrom.namespaces`, else the hooks' scraper namespace; `*` = every namespace).
 */
function metricsRule(ctx: ChildContext): IngressRule[] {
  const m = ctx.spec.monitoring;
  if (!metricsOn(m)) return [];
  const scrapers = m.allowedFrom ?? [(ctx.serverMonitoring ?? NO_SERVICE_MONITORS).scraperNamespace];
  const from: NetworkPolicyPeerInput[] = scrapers.includes(ALL_NAMESPACES)
    ? [{ namespaceSelector: {} }]
    : scrapers.map((n) => ({ namespaceSelector: { matchLabels: { [NAMESPACE_NAME_LABEL]: n } } }));
  return [{ ports: [{ protocol: "TCP", port: m.port }], from }];
}

/** On the CR: `enabled` opts a taken-over CR in. On its Deployment: `kept-open-after-takeover`, the mark later syncs read back. */
export const NETWORK_POLICY_ANNOTATION = "llamastack.io/network-policy";
export const NETWORK_POLICY_OPT_IN = "enabled";
export const KEPT_OPEN = "kept-open-after-takeover";

/** False for `networking.policy.enabled: false`: no NetworkPolicy, and Metacontroller deletes a running one. */
export function policyEnabled(ctx: Pick<ChildContext, "spec">): boolean {
  return ctx.spec.networking.policy?.enabled !== false;
}

export function buildNetworkPolicy(ctx: ChildContext): NetworkPolicy | undefined {
  if (ctx.keptOpen || !policyEnabled(ctx)) return undefined;
  // A policy names the pod's port, which differs from the Service's below 1024.
  const defaults: IngressRule = {
    ports: [{ protocol: "TCP", port: listenPort(ctx.spec.networking.port) }],
    from: peers(ctx),
  };
  const policy: NetworkPolicy = {
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: childMeta(ctx, names.networkPolicy(ctx.name)),
    spec: {
      podSelector: { matchLabels: podSelectorLabels(ctx) },
      policyTypes: ["Ingress"],
      // The user's rules add sources and ports after the default rule (reduced by `admits`).
      ingress: [defaults, ...metricsRule(ctx), ...copyJson(ctx.spec.networking.policy?.ingress ?? [])],
    },
  };
  const egress = egressRules(ctx);
  if (egress) {
    policy.spec.policyTypes = ["Ingress", "Egress"];
    policy.spec.egress = egress;
  }
  return policy;
}

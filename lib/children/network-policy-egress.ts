/**
 * The egress half of the server's NetworkPolicy. Egress stays open unless the CR sets
 * `networking.policy.egress`; then the policy limits it to those rules plus what every
 * server needs whatever its providers: DNS to the cluster resolver, and (with Kubernetes auth,
 * through `platformEgress`) the API server. The server's other traffic is inbound (probes, the
 * hooks' live status check) or local (init containers of external providers copy files and pull
 * nothing), so nothing else is added: provider and storage endpoints are the user's rules, and
 * the status says which of them the rules do not cover (network-policy-coverage.ts).
 */
import { authEgressTargets } from "../config/auth-egress";
import type { CanonicalSpec } from "../api/canonical";
import type {
  NetworkPolicyEgressRuleInput as EgressRule,
  NetworkPolicyPeerInput,
} from "../api/v1alpha2-network-policy";
import { copyJson } from "../json-copy";
import type { ApiServerEgress, ChildContext } from "./context";

export type { ApiServerEgress } from "./context";

export type { EgressRule };

/** Set by the apiserver on every namespace: selects a namespace by name. */
const NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name";

/**
 * The cluster resolver as kubeadm, kind, EKS, GKE and AKS deploy it: CoreDNS (or kube-dns)
 * pods labelled `k8s-app: kube-dns` in kube-system, on port 53. A policy names the pod's port,
 * after the Service's translation.
 */
export const KUBE_DNS_PEER: NetworkPolicyPeerInput = {
  namespaceSelector: { matchLabels: { [NAMESPACE_NAME_LABEL]: "kube-system" } },
  podSelector: { matchLabels: { "k8s-app": "kube-dns" } },
};
export const DNS_PORT = 53;
/** OpenShift's resolver: the DNS operator's pods in openshift-dns listen on 5353 behind the Service's 53. */
export const OPENSHIFT_DNS_PEER: NetworkPolicyPeerInput = {
  namespaceSelector: { matchLabels: { [NAMESPACE_NAME_LABEL]: "openshift-dns" } },
};
export const OPENSHIFT_DNS_PORT = 5353;

const udpAndTcp = (port: number): EgressRule["ports"] => [
  { protocol: "UDP", port },
  { protocol: "TCP", port },
];

/** DNS: the resolver of a vanilla cluster, and OpenShift's when the hooks run with the OpenShift overlay. */
export function dnsEgress(ctx: Pick<ChildContext, "exposeWith">): EgressRule[] {
  const rules: EgressRule[] = [{ to: [KUBE_DNS_PEER], ports: udpAndTcp(DNS_PORT) }];
  if (ctx.exposeWith === "route") rules.push({ to: [OPENSHIFT_DNS_PEER], ports: udpAndTcp(OPENSHIFT_DNS_PORT) });
  return copyJson(rules);
}

export interface PlatformNeeds {
  /** The server checks callers' tokens against the API server (`auth.kubernetes`). */
  readonly kubernetesAuth: boolean;
  /** Absent: no EndpointSlice of the API server reached the hooks, and `platformNotes` says so. */
  readonly apiServer?: ApiServerEgress;
}

/**
 * What the spec makes the server itself reach beyond DNS: the cluster's API server when it checks
 * callers' tokens there (lib/config/auth-egress.ts), at the endpoints the sync read
 * (lib/sync/api-server.ts); without them `platformNotes` asks the user for the rule.
 */
export function platformNeeds(spec: CanonicalSpec, apiServer?: ApiServerEgress): PlatformNeeds {
  const kubernetesAuth = authEgressTargets(spec).some((t) => t.kind === "apiServer");
  return apiServer ? { kubernetesAuth, apiServer } : { kubernetesAuth };
}

/** The rules for `needs`: the API server by the addresses given, when the server calls it. */
export function platformEgress(needs: PlatformNeeds): EgressRule[] {
  const api = needs.apiServer;
  if (!needs.kubernetesAuth || !api || api.cidrs.length === 0) return [];
  return [
    {
      to: api.cidrs.map((cidr) => ({ ipBlock: { cidr } })),
      ports: api.ports.map((port) => ({ protocol: "TCP", port })),
    },
  ];
}

export const API_SERVER_UNKNOWN_NOTE =
  "networking.policy.egress: the server checks tokens with the API server (auth.kubernetes), and no EndpointSlice of the kubernetes Service in default reached the hooks (Metacontroller needs to list endpointslices): add an egress rule with an ipBlock for the addresses of `kubectl get endpointslices -n default -l kubernetes.io/service-name=kubernetes` and their port";

export function platformNotes(needs: PlatformNeeds): string[] {
  return needs.kubernetesAuth && !needs.apiServer?.cidrs.length ? [API_SERVER_UNKNOWN_NOTE] : [];
}

/**
 * The policy's egress, or undefined to leave egress open (`policy.egress` unset): DNS and the
 * platform's rules first, like the default ingress rule, then the user's as written. An empty
 * list is a choice too: no egress but DNS.
 */
export function egressRules(
  ctx: Pick<ChildContext, "spec" | "exposeWith" | "apiServer">,
  needs: PlatformNeeds = platformNeeds(ctx.spec, ctx.apiServer),
): EgressRule[] | undefined {
  const user = ctx.spec.networking.policy?.egress;
  if (user === undefined) return undefined;
  return [...dnsEgress(ctx), ...platformEgress(needs), ...copyJson(user)];
}

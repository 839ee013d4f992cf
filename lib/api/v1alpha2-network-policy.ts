/**
 * `spec.networking.policy`: the server's NetworkPolicy, switched off or extended with native
 * Kubernetes rules (networking.k8s.io/v1 NetworkPolicyIngressRule / NetworkPolicyEgressRule,
 * field for field, so rules users already write paste in unchanged). The rule types are
 * written out with the Kubernetes API's own field descriptions, so the CRD types them
 * (structural, pruned, `kubectl explain`-able) instead of keeping them as opaque objects. Lists
 * are bounded so that the CRD's CEL rules on their items stay within the apiserver's cost budget.
 */
import { Type, type TSchema } from "@sinclair/typebox";
import { bool, int, intOrString, list as describedList, mapOf, obj, str, strList, type TypeOf } from "./schema-parts";

/** Rules per direction, and peers or ports per rule: far above what hand-written policies use. */
export const MAX_RULES = 32;
export const MAX_PEERS = 32;
export const MAX_PORTS = 32;

const list = <S extends TSchema>(description: string, items: S, maxItems: number) =>
  describedList(description, items, { maxItems });

const labelSelector = (description: string) =>
  obj(description, {
    matchLabels: mapOf("Labels the object must carry, each with exactly this value.", Type.String()),
    matchExpressions: list(
      "Label requirements, all of which must hold.",
      obj(
        "A label requirement.",
        {
          key: str("The label key."),
          operator: str("How the key relates to the values.", { enum: ["In", "NotIn", "Exists", "DoesNotExist"] }),
          values: strList("Values for In and NotIn (non-empty); empty for Exists and DoesNotExist."),
        },
        ["key", "operator"],
      ),
      MAX_PEERS,
    ),
  });

const ipBlock = obj(
  "An IP range (CIDR). Cluster pod IPs are not meant here: select pods instead.",
  {
    cidr: str("The range, e.g. `10.0.0.0/16` or `2001:db8::/64`."),
    except: strList("Ranges inside cidr that are excluded."),
  },
  ["cidr"],
);

const peer = obj("A NetworkPolicyPeer: ipBlock alone, or podSelector and/or namespaceSelector.", {
  podSelector: labelSelector(
    "Pods selected by labels; with namespaceSelector, in the namespaces it selects, else in the CR's namespace.",
  ),
  namespaceSelector: labelSelector("Namespaces selected by labels; `{}` selects every namespace."),
  ipBlock,
});

const port = obj("A NetworkPolicyPort.", {
  protocol: str("TCP (the default), UDP or SCTP.", { enum: ["TCP", "UDP", "SCTP"] }),
  port: intOrString("A port number, or the name of a port on the selected pods; unset means every port."),
  endPort: int("With a numeric port: the last port of the range port..endPort.", { minimum: 1, maximum: 65535 }),
});

const ports = list("Ports this rule opens; unset or empty means every port.", port, MAX_PORTS);

const ingressRule = obj("A NetworkPolicyIngressRule.", {
  from: list("Sources; unset or empty means every source.", peer, MAX_PEERS),
  ports: ports,
});

const egressRule = obj("A NetworkPolicyEgressRule.", {
  to: list("Destinations; unset or empty means every destination.", peer, MAX_PEERS),
  ports: ports,
});

export const NETWORK_POLICY_SCHEMA = obj(
  "The server's NetworkPolicy: switch it off, or add native NetworkPolicy rules to the hooks' defaults (or in place of them).",
  {
    enabled: bool("`false`: no NetworkPolicy (a running one is deleted). Defaults to true."),
    defaultIngress: bool(
      "`false`: the server port admits only the ingress rules, allowedFrom, the ingress controllers of expose and the hooks' namespace (status reads), not the CR's own namespace. Defaults to true.",
    ),
    ingress: list(
      "NetworkPolicyIngressRules added after the default rule (the hooks, allowedFrom, exposure, and the same namespace unless defaultIngress is false).",
      ingressRule,
      MAX_RULES,
    ),
    egress: list(
      "NetworkPolicyEgressRules. When set (`[]` too), egress is limited to them plus DNS to the cluster resolver; unset leaves egress open.",
      egressRule,
      MAX_RULES,
    ),
  },
);

export type NetworkPolicyInput = TypeOf<typeof NETWORK_POLICY_SCHEMA>;
/** networkingv1.NetworkPolicyIngressRule. */
export type NetworkPolicyIngressRuleInput = TypeOf<typeof ingressRule>;
/** networkingv1.NetworkPolicyEgressRule. */
export type NetworkPolicyEgressRuleInput = TypeOf<typeof egressRule>;
/** networkingv1.NetworkPolicyPeer: `ipBlock` alone, or pod and/or namespace selectors. */
export type NetworkPolicyPeerInput = TypeOf<typeof peer>;
/** networkingv1.NetworkPolicyPort. */
export type NetworkPolicyPortInput = TypeOf<typeof port>;
/** metav1.LabelSelector; `{}` selects everything. */
export type LabelSelector = TypeOf<ReturnType<typeof labelSelector>>;
/** networkingv1.IPBlock. */
export type IpBlock = TypeOf<typeof ipBlock>;

/**
 * `spec.networking.policy`: the server's NetworkPolicy, switched off or extended with native
 * Kubernetes rules (networking.k8s.io/v1 NetworkPolicyIngressRule / NetworkPolicyEgressRule,
 * field for field, so rules users already write paste in unchanged).
 */

/** metav1.LabelSelectorRequirement. */
export interface LabelSelectorRequirement {
  readonly key: string;
  readonly operator: "In" | "NotIn" | "Exists" | "DoesNotExist";
  readonly values?: readonly string[];
}

/** metav1.LabelSelector; `{}` selects everything. */
export interface LabelSelector {
  readonly matchLabels?: { readonly [key: string]: string };
  readonly matchExpressions?: readonly LabelSelectorRequirement[];
}

/** networkingv1.IPBlock. */
export interface IpBlock {
  readonly cidr: string;
  readonly except?: readonly string[];
}

/** networkingv1.NetworkPolicyPeer: `ipBlock` alone, or pod and/or namespace selectors. */
export interface NetworkPolicyPeerInput {
  readonly podSelector?: LabelSelector;
  readonly namespaceSelector?: LabelSelector;
  readonly ipBlock?: IpBlock;
}

/** networkingv1.NetworkPolicyPort. */
export interface NetworkPolicyPortInput {
  /** @default "TCP" */
  readonly protocol?: "TCP" | "UDP" | "SCTP";
  /** A number, or the name of a port of the selected pods. */
  readonly port?: number | string;
  readonly endPort?: number;
}

/** networkingv1.NetworkPolicyIngressRule. */
export interface NetworkPolicyIngressRuleInput {
  readonly from?: readonly NetworkPolicyPeerInput[];
  readonly ports?: readonly NetworkPolicyPortInput[];
}

/** networkingv1.NetworkPolicyEgressRule. */
export interface NetworkPolicyEgressRuleInput {
  readonly to?: readonly NetworkPolicyPeerInput[];
  readonly ports?: readonly NetworkPolicyPortInput[];
}

export interface NetworkPolicyInput {
  /** `false`: no NetworkPolicy at all. @default true */
  readonly enabled?: boolean;
  /**
   * `false`: the same namespace is not admitted, so `ingress` says who may call the server (with
   * allowedFrom, exposure and the hooks' namespace). The peer operator's replace semantics.
   * @default true
   */
  readonly defaultIngress?: boolean;
  /** Added after the hooks' own rule. */
  readonly ingress?: readonly NetworkPolicyIngressRuleInput[];
  /** Any given: the policy limits egress to these, plus DNS (and what the server itself needs). */
  readonly egress?: readonly NetworkPolicyEgressRuleInput[];
}

import { buildNetworkPolicy as build, type NetworkPolicy } from "../../../lib/children/network-policy";
import type { ChildContext } from "../../../lib/children/context";
import { names, selectorLabels } from "../../../lib/names";
import { aContext, HOOKS_NAMESPACE, NAME, type ContextOverrides } from "./context-builder";

/** The policy, which every context here has (only a CR kept open after a takeover has none). */
function buildNetworkPolicy(ctx: ChildContext): NetworkPolicy {
  const policy = build(ctx);
  if (!policy) throw new Error("no NetworkPolicy");
  return policy;
}

const byName = (ns: string): object => ({ namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": ns } } });
const SAME_NAMESPACE = { podSelector: {} };
const HOOKS = byName(HOOKS_NAMESPACE);
const OPENSHIFT_ROUTER = { namespaceSelector: { matchLabels: { "network.openshift.io/policy-group": "ingress" } } };
const INGRESS_NGINX = byName("ingress-nginx");

const peersOf = (overrides: ContextOverrides): unknown => buildNetworkPolicy(aContext(overrides)).spec.ingress[0]?.from;

describe("buildNetworkPolicy()", () => {
  it("given a minimal context, admits only the namespace and the hooks, on the server port, ingress only", () => {
    const policy = buildNetworkPolicy(aContext());
    expect(policy.metadata?.name).toBe(names.networkPolicy(NAME));
    expect(policy.spec.podSelector?.matchLabels).toEqual(selectorLabels(NAME));
    expect(policy.spec.policyTypes).toEqual(["Ingress"]);
    expect(policy.spec.ingress).toEqual([{ ports: [{ protocol: "TCP", port: 8321 }], from: [SAME_NAMESPACE, HOOKS] }]);
  });

  it("uses the wire name `from` (not client-node's `_from`)", () => {
    expect(Object.keys(buildNetworkPolicy(aContext()).spec.ingress[0]!)).toEqual(["ports", "from"]);
  });

  it.each([
    [
      "namespaces",
      { allowedFrom: { namespaces: ["frontend", "batch"] } },
      [SAME_NAMESPACE, HOOKS, byName("frontend"), byName("batch")],
    ],
    [
      "label keys (Exists)",
      { allowedFrom: { labels: ["team.example.com/ai", "tier"] } },
      [
        SAME_NAMESPACE,
        HOOKS,
        { namespaceSelector: { matchExpressions: [{ key: "team.example.com/ai", operator: "Exists" }] } },
        { namespaceSelector: { matchExpressions: [{ key: "tier", operator: "Exists" }] } },
      ],
    ],
    [
      '"*" (every namespace, nothing else)',
      { allowedFrom: { namespaces: ["frontend", "*"], labels: ["tier"] }, expose: true },
      [{ namespaceSelector: {} }],
    ],
    [
      "expose (routers and ingress controllers)",
      { expose: true },
      [SAME_NAMESPACE, HOOKS, OPENSHIFT_ROUTER, INGRESS_NGINX],
    ],
    [
      "the hooks namespace again in allowedFrom (listed once)",
      { allowedFrom: { namespaces: [HOOKS_NAMESPACE] } },
      [SAME_NAMESPACE, HOOKS],
    ],
  ])("given %s, the peers are exactly these", (_title, networking, peers) => {
    expect(peersOf({ spec: { networking } })).toEqual(peers);
  });

  it("given a CR kept open after a takeover, builds none", () => {
    expect(build({ ...aContext(), keptOpen: true })).toBeUndefined();
  });

  it("given a custom port, admits that port", () => {
    expect(buildNetworkPolicy(aContext({ spec: { networking: { port: 9000 } } })).spec.ingress[0]?.ports).toEqual([
      { protocol: "TCP", port: 9000 },
    ]);
  });
});

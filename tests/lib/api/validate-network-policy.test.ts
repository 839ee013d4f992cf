/**
 * `networking.policy` rules are checked as the apiserver checks a NetworkPolicy's rules, so a
 * policy it would refuse is refused at admission, with the path the user wrote.
 */
import fc from "fast-check";
import { validate } from "../../../lib/api/validate";
import type { NetworkPolicyInput } from "../../../lib/api/v1alpha2-network-policy";
import { aNetworkPolicy } from "../children/network-policy-arbitraries";

const P = "spec.networking.policy";
const check = (policy: NetworkPolicyInput) => validate({ distribution: { name: "starter" }, networking: { policy } });
const errorsOf = (policy: NetworkPolicyInput) => check(policy).errors.map((e) => `${e.path}: ${e.message}`);

const ipBlock = (cidr: string, except?: string[]) => ({ to: [{ ipBlock: except ? { cidr, except } : { cidr } }] });
const nsLabels = (matchLabels: Record<string, string>) => ({ from: [{ namespaceSelector: { matchLabels } }] });

describe("networking.policy checks", () => {
  it.each<[string, NetworkPolicyInput, string]>([
    [
      "an empty peer",
      { egress: [{ to: [{}] }] },
      `${P}.egress[0].to[0]: a peer needs podSelector, namespaceSelector or ipBlock`,
    ],
    [
      "ipBlock with a selector",
      { ingress: [{ from: [{ ipBlock: { cidr: "10.0.0.0/8" }, podSelector: {} }] }] },
      `${P}.ingress[0].from[0]: ipBlock cannot be combined with podSelector or namespaceSelector`,
    ],
    ["a bad CIDR", { egress: [ipBlock("10.0.0.0")] }, `${P}.egress[0].to[0].ipBlock.cidr: "10.0.0.0" is not a CIDR`],
    ["a prefix too long", { egress: [ipBlock("10.0.0.0/33")] }, `${P}.egress[0].to[0].ipBlock.cidr:`],
    [
      "except outside cidr",
      { egress: [ipBlock("10.0.0.0/8", ["11.0.0.0/16"])] },
      `${P}.egress[0].to[0].ipBlock.except[0]: "11.0.0.0/16" must be a CIDR strictly inside cidr 10.0.0.0/8`,
    ],
    [
      "except equal to cidr",
      { egress: [ipBlock("10.0.0.0/8", ["10.0.0.0/8"])] },
      `${P}.egress[0].to[0].ipBlock.except[0]:`,
    ],
    [
      "except of the other family",
      { egress: [ipBlock("10.0.0.0/8", ["::/64"])] },
      `${P}.egress[0].to[0].ipBlock.except[0]:`,
    ],
    [
      "a bad label key",
      { ingress: [nsLabels({ "team=a": "x" })] },
      `${P}.ingress[0].from[0].namespaceSelector.matchLabels: "team=a" is not a label key`,
    ],
    [
      "a bad label value",
      { ingress: [nsLabels({ team: "a b" })] },
      `${P}.ingress[0].from[0].namespaceSelector.matchLabels.team: "a b" is not a label value`,
    ],
    [
      "In without values",
      { ingress: [{ from: [{ podSelector: { matchExpressions: [{ key: "app", operator: "In" }] } }] }] },
      `${P}.ingress[0].from[0].podSelector.matchExpressions[0].values: operator In needs at least one value`,
    ],
    [
      "Exists with values",
      {
        ingress: [
          { from: [{ podSelector: { matchExpressions: [{ key: "app", operator: "Exists", values: ["x"] }] } }] },
        ],
      },
      `${P}.ingress[0].from[0].podSelector.matchExpressions[0].values: operator Exists takes no values`,
    ],
    ["port 0", { egress: [{ ports: [{ port: 0 }] }] }, `${P}.egress[0].ports[0].port: 0 is not a port`],
    [
      "endPort below port",
      { egress: [{ ports: [{ port: 9000, endPort: 8000 }] }] },
      `${P}.egress[0].ports[0].endPort: endPort 8000 is below port 9000`,
    ],
    [
      "endPort without port",
      { egress: [{ ports: [{ endPort: 8000 }] }] },
      `${P}.egress[0].ports[0].endPort: endPort needs port`,
    ],
    [
      "endPort with a named port",
      { egress: [{ ports: [{ port: "https", endPort: 8000 }] }] },
      `${P}.egress[0].ports[0].endPort: endPort needs a numeric port`,
    ],
    [
      "a bad port name",
      { egress: [{ ports: [{ port: "HTTPS" }] }] },
      `${P}.egress[0].ports[0].port: "HTTPS" is not a port name`,
    ],
    [
      "an ingress port the server lacks, near a real one",
      { ingress: [{ ports: [{ port: "htp" }] }] },
      `${P}.ingress[0].ports[0].port: the server has no port named "htp": did you mean "http"?`,
    ],
    [
      "an ingress port the server lacks",
      { ingress: [{ ports: [{ port: "grpc" }] }] },
      `${P}.ingress[0].ports[0].port: the server has no port named "grpc"; its ports are "http"`,
    ],
  ])("refuses %s", (_title, policy, expected) => {
    expect(errorsOf(policy)).toEqual([expect.stringContaining(expected)]);
  });

  it.each<[string, NetworkPolicyInput]>([
    ["a mesh namespace", { ingress: [nsLabels({ "kubernetes.io/metadata.name": "istio-system" })] }],
    ["the server's port by name", { ingress: [{ ports: [{ port: "http" }] }] }],
    [
      "a model endpoint range",
      { egress: [{ ...ipBlock("10.0.0.0/8", ["10.1.0.0/16"]), ports: [{ port: 8000, endPort: 8010 }] }] },
    ],
    ["IPv6", { egress: [ipBlock("2001:db8::/32", ["2001:db8:1::/48"])] }],
    ["a named egress port", { egress: [{ ports: [{ port: "https" }] }] }],
    ["[] egress", { egress: [] }],
  ])("accepts %s", (_title, policy) => {
    expect(check(policy)).toMatchObject({ errors: [], warnings: [] });
  });

  it.each<[string, unknown]>([
    ["ingress", []],
    ["egress", []],
    ["defaultIngress", false],
  ])("warns that %s is ignored while enabled is false", (side, value) => {
    expect(check({ enabled: false, [side]: value }).warnings).toEqual([
      { path: `${P}.${side}`, message: `ignored while ${P}.enabled is false; remove it, or remove enabled: false` },
    ]);
  });

  it("accepts every rule the arbitraries build (the property tests' rules are valid ones)", () => {
    fc.assert(
      fc.property(aNetworkPolicy, (policy) => check(policy).errors.length === 0),
      { numRuns: 100 },
    );
  });
});

/**
 * `networking.policy.defaultIngress: false`: the user's ingress rules replace the default rule's
 * same-namespace peer, so the server port admits only them, allowedFrom, expose's ingress
 * controllers and the hooks' namespace (status reads). The metrics port keeps its scrapers.
 * The status says so. Each policy is checked against the real schema.
 */
import { buildNetworkPolicy, type NetworkPolicy } from "../../../lib/children/network-policy";
import { networkPolicyNotes, replacedDefaultNote } from "../../../lib/children/network-policy-notes";
import type { KubeObject } from "../../../lib/wire/metacontroller";
import { aContext, HOOKS_NAMESPACE, type ContextOverrides } from "./context-builder";
import { validateChild } from "./models";

const byName = (ns: string): object => ({ namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": ns } } });
const HOOKS = byName(HOOKS_NAMESPACE);
const ROUTER = { namespaceSelector: { matchLabels: { "network.openshift.io/policy-group": "ingress" } } };
const SERVER_PORT = [{ protocol: "TCP", port: 8321 }];
const TEAM = { from: [{ namespaceSelector: { matchLabels: { team: "a" } } }], ports: [{ port: 8321 }] };
const OFF = { defaultIngress: false, ingress: [TEAM] };

function policyOf(overrides: ContextOverrides): NetworkPolicy {
  const policy = buildNetworkPolicy(aContext(overrides));
  if (!policy) throw new Error("no NetworkPolicy");
  validateChild(policy as unknown as KubeObject);
  return policy;
}

describe("the NetworkPolicy with defaultIngress: false", () => {
  it.each<[string, object, object, object[]]>([
    ["only rules", { policy: OFF }, {}, [{ ports: SERVER_PORT, from: [HOOKS] }, TEAM]],
    [
      "rules and allowedFrom (asked for by name, kept)",
      { policy: OFF, allowedFrom: { namespaces: ["web"], labels: ["tier"] } },
      {},
      [
        {
          ports: SERVER_PORT,
          from: [
            HOOKS,
            byName("web"),
            { namespaceSelector: { matchExpressions: [{ key: "tier", operator: "Exists" }] } },
          ],
        },
        TEAM,
      ],
    ],
    [
      "expose (its ingress controllers kept, or the Route could not reach the server)",
      { policy: OFF, expose: true },
      {},
      [{ ports: SERVER_PORT, from: [HOOKS, ROUTER, byName("ingress-nginx")] }, TEAM],
    ],
    [
      "monitoring (the metrics rule as today)",
      { policy: OFF },
      { monitoring: { enabled: true } },
      [
        { ports: SERVER_PORT, from: [HOOKS] },
        { ports: [{ protocol: "TCP", port: 9464 }], from: [byName("monitoring")] },
        TEAM,
      ],
    ],
    [
      "upstreamHeader too (the gateway-only rule, which also drops exposure)",
      { policy: OFF, expose: true, allowedFrom: { namespaces: ["gw"] } },
      { auth: { upstreamHeader: { principalHeader: "x-user" } } },
      [{ ports: SERVER_PORT, from: [HOOKS, byName("gw")] }, TEAM],
    ],
    [
      "defaultIngress: true (as unset: the same namespace)",
      { policy: { defaultIngress: true, ingress: [TEAM] } },
      {},
      [{ ports: SERVER_PORT, from: [{ podSelector: {} }, HOOKS] }, TEAM],
    ],
  ])("given %s, the ingress rules are exactly these", (_t, networking, spec, ingress) => {
    expect(policyOf({ spec: { ...spec, networking } }).spec.ingress).toEqual(ingress);
  });

  it("changes nothing else: the same policy as unset, but for the same-namespace peer", () => {
    const unset = policyOf({ spec: { networking: { policy: { ingress: [TEAM] } } } });
    const off = policyOf({ spec: { networking: { policy: OFF } } });
    expect(off.spec.ingress[0]?.from).toEqual(unset.spec.ingress[0]?.from?.slice(1));
    expect({ ...off.spec, ingress: [] }).toEqual({ ...unset.spec, ingress: [] });
  });
});

describe("the status note", () => {
  const prefix = "spec.networking.policy.defaultIngress is false: the NetworkPolicy admits to port 8321 only";
  const suffix = `the hooks' namespace ${HOOKS_NAMESPACE} (status reads), not the CR's own namespace`;
  it.each<[string, object, string | undefined]>([
    ["rules", { networking: { policy: OFF } }, `${prefix} the networking.policy.ingress rules and ${suffix}`],
    ["no rules", { networking: { policy: { defaultIngress: false } } }, `${prefix} ${suffix}`],
    [
      "allowedFrom and expose",
      { networking: { policy: OFF, allowedFrom: { namespaces: ["web"] }, expose: true } },
      `${prefix} namespace web, the networking.policy.ingress rules, the ingress controllers of expose and ${suffix}`,
    ],
    [
      "upstreamHeader (its own note says it)",
      {
        auth: { upstreamHeader: { principalHeader: "x" } },
        networking: { policy: OFF, allowedFrom: { namespaces: ["gw"] } },
      },
      undefined,
    ],
    ["unset", { networking: { policy: { ingress: [TEAM] } } }, undefined],
  ])("given %s", (_t, spec, note) => {
    const ctx = aContext({ spec });
    expect(replacedDefaultNote(ctx)).toEqual(note === undefined ? [] : [note]);
    if (note) expect(networkPolicyNotes(ctx)).toEqual([note]);
  });
});

/**
 * With `auth.upstreamHeader` the server believes whoever sends its headers, so the NetworkPolicy
 * admits to its port only the gateway (`allowedFrom`, the user's own ingress rules) and the
 * hooks' namespace: not the CR's namespace, not the routers. The metrics port keeps its scrapers
 * (it serves no API). The status says so. Each policy is checked against the real schema.
 */
import {
  buildNetworkPolicy,
  KEPT_OPEN,
  NETWORK_POLICY_ANNOTATION,
  type NetworkPolicy,
} from "../../../lib/children/network-policy";
import { sync } from "../../../lib/sync/sync";
import { aConfigMap, aParent, aRequest, deps, observedFrom } from "../../sync-builders";
import { gatewayOnlyNote, networkPolicyNotes } from "../../../lib/children/network-policy-notes";
import type { KubeObject } from "../../../lib/wire/metacontroller";
import { aContext, HOOKS_NAMESPACE, type ContextOverrides } from "./context-builder";
import { validateChild } from "./models";

const HEADER = { upstreamHeader: { principalHeader: "x-auth-user" } };
const byName = (ns: string): object => ({ namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": ns } } });
const HOOKS = byName(HOOKS_NAMESPACE);
const labelled = (key: string): object => ({ namespaceSelector: { matchExpressions: [{ key, operator: "Exists" }] } });

function policyOf(overrides: ContextOverrides): NetworkPolicy {
  const policy = buildNetworkPolicy(aContext(overrides));
  if (!policy) throw new Error("no NetworkPolicy");
  validateChild(policy as unknown as KubeObject);
  return policy;
}

describe("the NetworkPolicy of an upstreamHeader server", () => {
  it.each<[string, object, object[]]>([
    ["a gateway namespace", { allowedFrom: { namespaces: ["gateway"] } }, [HOOKS, byName("gateway")]],
    ["namespaces by label key", { allowedFrom: { labels: ["gateway"] } }, [HOOKS, labelled("gateway")]],
    [
      "a legacy CR that set spec.network (no router without expose either)",
      { allowedFrom: { namespaces: ["gateway", HOOKS_NAMESPACE] } },
      [HOOKS, byName("gateway")],
    ],
  ])("given %s, the server port admits exactly the hooks and the gateway", (_t, networking, peers) => {
    const policy = policyOf({ spec: { auth: HEADER, networking }, legacy: { containerName: "x", networkSet: true } });
    expect(policy.spec.ingress[0]).toEqual({ ports: [{ protocol: "TCP", port: 8321 }], from: peers });
  });

  it("keeps the user's rules after the default one, and the metrics port's scrapers", () => {
    const gatewayPods = { podSelector: { matchLabels: { app: "gateway" } } };
    const policy = policyOf({
      spec: {
        auth: HEADER,
        networking: { policy: { ingress: [{ from: [gatewayPods] }] } },
        monitoring: { enabled: true },
      },
    });
    expect(policy.spec.ingress).toEqual([
      { ports: [{ protocol: "TCP", port: 8321 }], from: [HOOKS] },
      { ports: [{ protocol: "TCP", port: 9464 }], from: [byName("monitoring")] },
      { from: [gatewayPods] },
    ]);
  });

  it("another provider keeps the CR's own namespace (unchanged)", () => {
    const policy = policyOf({ spec: { auth: { kubernetes: {} }, networking: { allowedFrom: { namespaces: ["g"] } } } });
    expect(policy.spec.ingress[0]?.from).toEqual([{ podSelector: {} }, HOOKS, byName("g")]);
  });
});

describe("the status note", () => {
  it.each<[string, object, string | undefined]>([
    [
      "namespaces, labels and rules",
      {
        auth: HEADER,
        networking: {
          allowedFrom: { namespaces: ["gateway"], labels: ["edge"] },
          policy: { ingress: [{ from: [{ podSelector: {} }] }] },
        },
      },
      `spec.auth.upstreamHeader: the NetworkPolicy admits to port 8321 only the gateway (namespace gateway, namespaces labelled edge, the networking.policy.ingress rules) and the hooks' namespace ${HOOKS_NAMESPACE} (status reads), not the CR's own namespace nor an ingress controller: the server believes the headers of whoever reaches it`,
    ],
    ["another provider", { auth: { kubernetes: {} } }, undefined],
    ["no auth", {}, undefined],
  ])("given %s", (_t, spec, note) => {
    const ctx = aContext({ spec });
    expect(gatewayOnlyNote(ctx)).toEqual(note === undefined ? [] : [note]);
    // It reaches the status with the policy's other notes.
    expect(networkPolicyNotes(ctx)).toEqual(note === undefined ? [] : [note]);
  });
});

describe("a CR kept open after a Go operator takeover", () => {
  const parent = aParent({
    distribution: { name: "starter" },
    auth: HEADER,
    networking: { allowedFrom: { namespaces: ["gateway"] } },
  });
  /** What the cluster holds for a CR kept open: the Deployment marked, no NetworkPolicy. */
  const keptOpen = (children: readonly KubeObject[]): KubeObject[] =>
    observedFrom(children)
      .filter((c) => c.kind !== "NetworkPolicy")
      .map((c) =>
        c.kind === "Deployment"
          ? {
              ...c,
              metadata: {
                ...c.metadata,
                annotations: { ...c.metadata.annotations, [NETWORK_POLICY_ANNOTATION]: KEPT_OPEN },
              },
            }
          : c,
      );

  it("gets the gateway-only NetworkPolicy once it trusts headers: adding upstreamHeader opts in", () => {
    const first = sync(aRequest(parent), deps());
    const after = sync(aRequest(parent, keptOpen(first.children)), deps());
    expect(after.status.phase).not.toBe("Failed");
    expect(after.children.find((c) => c.kind === "NetworkPolicy")).toBeDefined();
    const deployment = after.children.find((c) => c.kind === "Deployment");
    expect(deployment?.metadata.annotations?.[NETWORK_POLICY_ANNOTATION]).toBeUndefined();
  });

  it("without upstreamHeader, stays open (unchanged)", () => {
    const open = aParent({ distribution: { name: "starter" } });
    const first = sync(aRequest(open), deps());
    const after = sync(aRequest(open, keptOpen(first.children)), deps());
    expect(after.children.find((c) => c.kind === "NetworkPolicy")).toBeUndefined();
  });
});

describe("an overrideConfig whose server believes a gateway's headers", () => {
  const config = (type: string): string =>
    `version: 2\napis: [inference]\nproviders:\n  inference: []\nserver:\n  auth:\n    provider_config:\n      type: ${type}\n`;
  const parent = aParent({
    distribution: { name: "starter" },
    overrideConfig: { configMapName: "cfg" },
    networking: { allowedFrom: { namespaces: ["gateway"] } },
  });
  const policyAndNotes = (type: string): { from: unknown; notes: readonly string[] } => {
    const answer = sync(aRequest(parent, [], [aConfigMap("cfg", { "config.yaml": config(type) })]), deps());
    const policy = answer.children.find((c) => c.kind === "NetworkPolicy") as NetworkPolicy | undefined;
    if (!policy) throw new Error(`no NetworkPolicy: ${JSON.stringify(answer.status.conditions)}`);
    validateChild(policy as unknown as KubeObject);
    return {
      from: policy.spec.ingress[0]?.from,
      notes: Array.isArray(answer.status.notes) ? (answer.status.notes as string[]) : [],
    };
  };

  it.each<[string, string, object[], boolean]>([
    ["upstream_header: only the hooks and the gateway", "upstream_header", [HOOKS, byName("gateway")], true],
    [
      "another provider: the CR's own namespace too (unchanged)",
      "kubernetes",
      [{ podSelector: {} }, HOOKS, byName("gateway")],
      false,
    ],
  ])("%s", (_t, type, peers, noted) => {
    const { from, notes } = policyAndNotes(type);
    expect(from).toEqual(peers);
    const note = notes.find((n) => n.startsWith("upstream_header auth in ConfigMap cfg: the NetworkPolicy admits"));
    expect(note !== undefined).toBe(noted);
  });
});

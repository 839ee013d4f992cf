/**
 * `networking.policy`: off, ingress rules added after the default one, egress limited to the
 * user's rules plus DNS. Every policy built here goes through kubernetes-models; the ports the
 * server serves on are always admitted, whatever rules the user adds.
 */
import fc from "fast-check";
import type { V1Container, V1Deployment } from "@kubernetes/client-node";
import { desiredChildren } from "../../../lib/children";
import type { ChildContext } from "../../../lib/children/context";
import { buildNetworkPolicy, type NetworkPolicy } from "../../../lib/children/network-policy";
import { KUBE_DNS_PEER, OPENSHIFT_DNS_PEER } from "../../../lib/children/network-policy-egress";
import type { NetworkPolicyInput } from "../../../lib/api/v1alpha2-network-policy";
import type { KubeObject } from "../../../lib/wire/metacontroller";
import { aContext, aFullContext, type ContextOverrides } from "./context-builder";
import { only, validateChild } from "./models";
import { anEgressRule, anIngressRule, aNetworkPolicy } from "./network-policy-arbitraries";

const withPolicy = (policy: NetworkPolicyInput | undefined, overrides: ContextOverrides = {}): ChildContext =>
  aContext({
    ...overrides,
    spec: { ...overrides.spec, networking: { ...overrides.spec?.networking, ...(policy ? { policy } : {}) } },
  });
const policyOf = (ctx: ChildContext): NetworkPolicy | undefined => buildNetworkPolicy(ctx);
const mustHave = (ctx: ChildContext): NetworkPolicy => {
  const policy = policyOf(ctx);
  if (!policy) throw new Error("no NetworkPolicy");
  return policy;
};

const MESH = { from: [{ namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "istio-system" } } }] };
const MODEL = { to: [{ ipBlock: { cidr: "10.20.0.0/16" } }], ports: [{ protocol: "TCP" as const, port: 8000 }] };
const DNS = [
  {
    to: [KUBE_DNS_PEER],
    ports: [
      { protocol: "UDP", port: 53 },
      { protocol: "TCP", port: 53 },
    ],
  },
];

describe("networking.policy", () => {
  it.each([
    ["{}", {}],
    ["{enabled: true}", { enabled: true }],
  ])("given %s, the policy is byte for byte the one of an unset policy", (_title, policy) => {
    expect(JSON.stringify(policyOf(withPolicy(policy)))).toBe(JSON.stringify(policyOf(withPolicy(undefined))));
  });

  it("given enabled: false, builds no NetworkPolicy (and the other children are unchanged)", () => {
    const ctx = withPolicy({ enabled: false, ingress: [MESH] });
    expect(policyOf(ctx)).toBeUndefined();
    const others = (c: ChildContext) => desiredChildren(c).filter((k) => k.kind !== "NetworkPolicy");
    expect(others(ctx)).toEqual(others(withPolicy(undefined)));
  });

  it("given ingress rules, appends them after the default rule, which stays as it was", () => {
    const plain = mustHave(withPolicy(undefined));
    const policy = mustHave(withPolicy({ ingress: [MESH, { ports: [{ port: "http" }] }] }));
    expect(policy.spec.ingress).toEqual([...plain.spec.ingress, MESH, { ports: [{ port: "http" }] }]);
    expect(policy.spec.policyTypes).toEqual(["Ingress"]);
    expect(policy.spec.egress).toBeUndefined();
  });

  it.each([
    ["a model endpoint", [MODEL], [...DNS, MODEL]],
    ["[] (no egress but DNS)", [], DNS],
  ])("given egress %s, limits egress to DNS and the rules", (_title, egress, expected) => {
    const policy = mustHave(withPolicy({ egress }));
    expect(policy.spec.policyTypes).toEqual(["Ingress", "Egress"]);
    expect(policy.spec.egress).toEqual(expected);
  });

  it("with the OpenShift overlay, also allows OpenShift's resolver on 5353", () => {
    const policy = mustHave(withPolicy({ egress: [MODEL] }, { exposeWith: "route" }));
    expect(policy.spec.egress?.[1]).toEqual({
      to: [OPENSHIFT_DNS_PEER],
      ports: [
        { protocol: "UDP", port: 5353 },
        { protocol: "TCP", port: 5353 },
      ],
    });
  });

  it("copies the user's rules: editing the policy does not edit the spec", () => {
    const ctx = withPolicy({ ingress: [MESH], egress: [MODEL] });
    const policy = mustHave(ctx);
    Object.assign(policy.spec.ingress[1]!.from![0]!, { podSelector: {} });
    Object.assign(policy.spec.egress![1]!.to![0]!, { ipBlock: { cidr: "0.0.0.0/0" } });
    Object.assign(policy.spec.egress![0]!.to![0]!, { ipBlock: { cidr: "0.0.0.0/0" } });
    expect(ctx.spec.networking.policy).toEqual({ ingress: [MESH], egress: [MODEL] });
    expect(mustHave(ctx).spec.egress).toEqual([...DNS, MODEL]);
  });
});

/** Whether some ingress rule of `policy` opens `port` (a container port) over TCP. */
function admits(
  policy: NetworkPolicy,
  port: V1Container["ports"] extends (infer P)[] | undefined ? P : never,
): boolean {
  return policy.spec.ingress.some(
    (rule) =>
      !rule.ports?.length ||
      rule.ports.some(
        (p) =>
          (p.protocol ?? "TCP") === (port.protocol ?? "TCP") &&
          (p.port === undefined ||
            p.port === port.name ||
            p.port === port.containerPort ||
            (typeof p.port === "number" &&
              p.endPort !== undefined &&
              port.containerPort >= p.port &&
              port.containerPort <= p.endPort)),
      ),
  );
}

/** The server container's ports the Service, the probes (and any other, e.g. metrics) use. */
function servedPorts(children: readonly KubeObject[]): NonNullable<V1Container["ports"]> {
  const pod = (only(children, "Deployment") as unknown as V1Deployment).spec!.template.spec!;
  const server = pod.containers[0]!;
  const probePorts = [server.startupProbe, server.readinessProbe, server.livenessProbe].flatMap((p) =>
    p?.httpGet ? [p.httpGet.port] : [],
  );
  for (const port of probePorts)
    expect(server.ports?.some((p) => p.name === port || p.containerPort === port)).toBe(true);
  return server.ports ?? [];
}

describe("every policy, whatever the rules (property)", () => {
  const BASES: [string, ContextOverrides][] = [
    ["minimal", {}],
    [
      "port 9000, exposed, allowedFrom",
      { spec: { networking: { port: 9000, expose: true, allowedFrom: { namespaces: ["web"] } } } },
    ],
    ["port 80 (listens on 8321)", { spec: { networking: { port: 80 } } }],
  ];

  it.each(BASES)(
    "given the %s context, is valid, keeps the default rule (reduced by defaultIngress) first and admits every served port",
    (_t, base) => {
      const plain = mustHave(withPolicy(undefined, base));
      fc.assert(
        fc.property(aNetworkPolicy, (policy) => {
          const children = desiredChildren(withPolicy(policy, base));
          const built = children.find((c) => c.kind === "NetworkPolicy");
          if (policy.enabled === false) return built === undefined;
          const np = built as unknown as NetworkPolicy;
          validateChild(built!);
          // defaultIngress: false drops the same-namespace peer ({podSelector: {}}) only.
          const first = plain.spec.ingress[0]!;
          const sameNamespace = (p: object): boolean => JSON.stringify(p) === '{"podSelector":{}}';
          const kept = policy.defaultIngress === false ? first.from?.filter((p) => !sameNamespace(p)) : first.from;
          expect(np.spec.ingress[0]).toEqual({ ...first, from: kept });
          expect(np.spec.ingress.slice(1)).toEqual(policy.ingress ?? []);
          for (const port of servedPorts(children))
            expect({ port, admitted: admits(np, port) }).toEqual({ port, admitted: true });
          expect(np.spec.egress?.slice(0, 1)).toEqual(policy.egress ? DNS.slice(0, 1) : undefined);
          return true;
        }),
        { numRuns: 60 },
      );
    },
  );

  it("the full context with rules is valid too", () => {
    fc.assert(
      fc.property(
        fc.array(anIngressRule, { maxLength: 2 }),
        fc.array(anEgressRule, { maxLength: 2 }),
        (ingress, egress) => {
          const full = aFullContext();
          const ctx = {
            ...full,
            spec: { ...full.spec, networking: { ...full.spec.networking, policy: { ingress, egress } } },
          };
          validateChild(mustHave(ctx) as unknown as KubeObject);
        },
      ),
      { numRuns: 30 },
    );
  });
});

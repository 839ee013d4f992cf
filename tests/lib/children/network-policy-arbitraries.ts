/**
 * fast-check arbitraries for `networking.policy`: native NetworkPolicy rules of every shape the
 * schema and validate() accept (selectors, ipBlocks with except, numeric, ranged and named
 * ports), for the policy property tests and the conversion round trip.
 */
import fc from "fast-check";
import type {
  NetworkPolicyEgressRuleInput,
  NetworkPolicyIngressRuleInput,
  NetworkPolicyInput,
  NetworkPolicyPeerInput,
  NetworkPolicyPortInput,
} from "../../../lib/api/v1alpha2-network-policy";

const labelKey = fc.constantFrom("app", "team", "example.com/tier", "kubernetes.io/metadata.name");
const labelValue = fc.constantFrom("web", "ingress-nginx", "istio-system", "a.b_c-1", "");
const matchLabels = fc.dictionary(labelKey, labelValue, { maxKeys: 2, noNullPrototype: true });
const requirement = fc.oneof(
  fc.record({
    key: labelKey,
    operator: fc.constantFrom("In" as const, "NotIn" as const),
    values: fc.array(labelValue, { minLength: 1, maxLength: 2 }),
  }),
  fc.record({ key: labelKey, operator: fc.constantFrom("Exists" as const, "DoesNotExist" as const) }),
);
const selector = fc.record(
  { matchLabels, matchExpressions: fc.array(requirement, { maxLength: 2 }) },
  { requiredKeys: [], noNullPrototype: true },
);
const ipBlock = fc.oneof(
  fc.record({ cidr: fc.constantFrom("10.0.0.0/8", "192.168.1.0/24", "0.0.0.0/0") }),
  fc.record({ cidr: fc.constant("10.0.0.0/8"), except: fc.constant(["10.1.0.0/16"]) }),
  fc.record({ cidr: fc.constantFrom("2001:db8::/64", "::/0") }),
);
const peer: fc.Arbitrary<NetworkPolicyPeerInput> = fc.oneof(
  fc.record({ ipBlock }),
  fc
    .record({ podSelector: selector, namespaceSelector: selector }, { requiredKeys: [], noNullPrototype: true })
    .filter((p) => p.podSelector !== undefined || p.namespaceSelector !== undefined),
);
const protocol = fc.constantFrom("TCP" as const, "UDP" as const, "SCTP" as const);
const port = (names: readonly string[]): fc.Arbitrary<NetworkPolicyPortInput> =>
  fc.oneof(
    fc.record(
      { protocol, port: fc.integer({ min: 1, max: 65535 }) },
      { requiredKeys: ["port"], noNullPrototype: true },
    ),
    fc
      .record({ port: fc.integer({ min: 1, max: 60000 }), span: fc.nat(5000) })
      .map(({ port, span }) => ({ port, endPort: port + span })),
    fc.record({ protocol, port: fc.constantFrom(...names) }, { requiredKeys: ["port"], noNullPrototype: true }),
    fc.record({ protocol }),
  );

/** Ingress names only the server's own ports (`http`); egress any valid port name. */
export const anIngressRule: fc.Arbitrary<NetworkPolicyIngressRuleInput> = fc.record(
  { from: fc.array(peer, { maxLength: 3 }), ports: fc.array(port(["http"]), { maxLength: 3 }) },
  { requiredKeys: [], noNullPrototype: true },
);
export const anEgressRule: fc.Arbitrary<NetworkPolicyEgressRuleInput> = fc.record(
  { to: fc.array(peer, { maxLength: 3 }), ports: fc.array(port(["https", "grpc"]), { maxLength: 3 }) },
  { requiredKeys: [], noNullPrototype: true },
);
export const aNetworkPolicy: fc.Arbitrary<NetworkPolicyInput> = fc.record(
  {
    enabled: fc.boolean(),
    defaultIngress: fc.boolean(),
    ingress: fc.array(anIngressRule, { maxLength: 3 }),
    egress: fc.array(anEgressRule, { maxLength: 3 }),
  },
  { requiredKeys: [], noNullPrototype: true },
);

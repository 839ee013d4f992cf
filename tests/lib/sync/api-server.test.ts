/**
 * `auth.kubernetes` under a policy that limits egress: customize asks for the API server's
 * EndpointSlices, the sync turns them into an egress rule (the endpoints' own addresses and port),
 * and without them the status asks the user for the rule.
 */
import { normalize } from "../../../lib/api/normalize";
import type { LlsdSpecV1alpha2 } from "../../../lib/api/v1alpha2";
import { API_SERVER_UNKNOWN_NOTE } from "../../../lib/children/network-policy-egress";
import { customize } from "../../../lib/sync/customize";
import { apiServerEgressOf, apiServerRule } from "../../../lib/sync/api-server";
import { sync } from "../../../lib/sync/sync";
import type { KubeObject } from "../../../lib/wire/metacontroller";
import { aParent, aRequest, deps } from "../../sync-builders";

const EGRESS = { egress: [{ to: [{ ipBlock: { cidr: "10.0.0.0/8" } }], ports: [{ port: 8000 }] }] };
const spec = (extra: Partial<LlsdSpecV1alpha2>): LlsdSpecV1alpha2 => ({ distribution: { name: "starter" }, ...extra });

function aSlice(
  endpoints: readonly object[],
  ports: readonly object[] = [{ name: "https", port: 6443, protocol: "TCP" }],
  at = { namespace: "default", service: "kubernetes" },
): KubeObject {
  return {
    apiVersion: "discovery.k8s.io/v1",
    kind: "EndpointSlice",
    metadata: {
      name: `${at.service}-abcde`,
      namespace: at.namespace,
      labels: { "kubernetes.io/service-name": at.service },
    },
    addressType: "IPv4",
    endpoints,
    ports,
  };
}

describe("customize: the API server's EndpointSlices", () => {
  it.each<[string, Partial<LlsdSpecV1alpha2>, boolean]>([
    ["auth.kubernetes with egress rules", { auth: { kubernetes: {} }, networking: { policy: EGRESS } }, true],
    ["auth.kubernetes, egress open", { auth: { kubernetes: {} } }, false],
    [
      "auth.kubernetes, policy off",
      { auth: { kubernetes: {} }, networking: { policy: { ...EGRESS, enabled: false } } },
      false,
    ],
    [
      "an API server outside the cluster",
      { auth: { kubernetes: { apiServerUrl: "https://api.example.com:6443" } }, networking: { policy: EGRESS } },
      false,
    ],
    [
      "oidc with egress rules",
      { auth: { oidc: { jwks: { uri: "https://idp/certs" } } }, networking: { policy: EGRESS } },
      false,
    ],
  ])("%s", (_what, extra, asked) => {
    const rules = customize({ parent: aParent(spec(extra)) }).relatedResources;
    const slices = rules.filter((r) => r.resource === "endpointslices");
    expect(slices).toEqual(apiServerRule(normalize(spec(extra))));
    expect(slices).toEqual(
      asked
        ? [
            {
              apiVersion: "discovery.k8s.io/v1",
              resource: "endpointslices",
              namespace: "default",
              labelSelector: { matchLabels: { "kubernetes.io/service-name": "kubernetes" } },
            },
          ]
        : [],
    );
  });
});

describe("apiServerEgressOf()", () => {
  const related = (...slices: KubeObject[]) => aRequest(aParent(spec({})), [], slices).related;
  it.each<[string, KubeObject[], object | undefined]>([
    ["none sent", [], undefined],
    ["one endpoint", [aSlice([{ addresses: ["172.18.0.2"] }])], { cidrs: ["172.18.0.2/32"], ports: [6443] }],
    [
      "several slices, IPv6, a not-ready endpoint left out, duplicates once",
      [
        aSlice([{ addresses: ["10.0.0.2"] }, { addresses: ["10.0.0.3"], conditions: { ready: false } }]),
        {
          ...aSlice([{ addresses: ["fd00::2", "10.0.0.2"] }], [{ port: 443 }]),
          metadata: { ...aSlice([]).metadata, name: "kubernetes-v6" },
        },
      ],
      { cidrs: ["10.0.0.2/32", "fd00::2/128"], ports: [443, 6443] },
    ],
    [
      "another Service's slice",
      [aSlice([{ addresses: ["10.0.0.9"] }], undefined, { namespace: "default", service: "other" })],
      undefined,
    ],
    [
      "a slice in another namespace",
      [aSlice([{ addresses: ["10.0.0.9"] }], undefined, { namespace: "x", service: "kubernetes" })],
      undefined,
    ],
    ["a UDP port only", [aSlice([{ addresses: ["10.0.0.9"] }], [{ port: 53, protocol: "UDP" }])], undefined],
    ["an address that is no IP", [aSlice([{ addresses: ["api.internal"] }])], undefined],
  ])("%s", (_what, slices, expected) => {
    expect(apiServerEgressOf(related(...slices))).toEqual(expected);
  });
});

describe("/sync with auth.kubernetes and egress rules", () => {
  const parent = aParent(spec({ auth: { kubernetes: {} }, networking: { policy: EGRESS } }));
  const policyOf = (children: readonly KubeObject[]) => children.find((c) => c.kind === "NetworkPolicy");

  it("given the API server's slices: an egress rule to its endpoints, and no note", () => {
    const answer = sync(aRequest(parent, [], [aSlice([{ addresses: ["172.18.0.2"] }])]), deps());
    const egress = JSON.stringify((policyOf(answer.children)?.spec as { egress?: unknown }).egress);
    expect(egress).toContain('{"to":[{"ipBlock":{"cidr":"172.18.0.2/32"}}],"ports":[{"protocol":"TCP","port":6443}]}');
    expect(answer.status.notes ?? []).not.toContain(API_SERVER_UNKNOWN_NOTE);
  });

  it("without them: no such rule, and the note asks for one", () => {
    const answer = sync(aRequest(parent), deps());
    expect(JSON.stringify(policyOf(answer.children)?.spec)).not.toContain("172.18.0.2");
    expect(answer.status.notes).toContain(API_SERVER_UNKNOWN_NOTE);
  });
});

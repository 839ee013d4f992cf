/**
 * The status notes of networking.expose: edge fields the hooks' exposure kind does not read,
 * and what the hooks cannot see of a Gateway (its listener's TLS, where its proxies run).
 */
import type { ExposeWith } from "../../../lib/api/expose-types";
import type { ExposeObject } from "../../../lib/api/v1alpha2";
import { exposeNotes, GATEWAY_LISTENER_NOTE, GATEWAY_POLICY_NOTE } from "../../../lib/children/expose-notes";
import { buildNetworkPolicy } from "../../../lib/children/network-policy";
import { aContext } from "./context-builder";

const GATEWAY = [{ name: "edge", namespace: "gateways" }];
const AUTH = { kubernetes: {} };
const networking = (expose: ExposeObject | boolean) => ({ networking: { expose } });

describe("exposeNotes()", () => {
  it.each<[string, object, ExposeWith, string[]]>([
    ["a plain exposure", networking(true), "ingress", []],
    ["not exposed, whatever it names", networking({ enabled: false, parentRefs: GATEWAY }), "gateway", []],
    [
      "Gateway fields on an Ingress",
      networking({ parentRefs: GATEWAY, backendTLS: {} }),
      "ingress",
      [
        "networking.expose.parentRefs is not used: they name Gateways, and these hooks expose through an Ingress",
        "networking.expose.backendTLS is not used: it configures a Gateway, and these hooks expose through an Ingress",
      ],
    ],
    [
      "a class and TLS on a Route",
      networking({ hostname: "h", className: "nginx", tls: { secretName: "s" } }),
      "route",
      [
        "networking.expose.className is not used: a Route has no class",
        "networking.expose.tls is not used: the Route terminates TLS with the router's certificate (edge), or passes it to the server (passthrough, with networking.tls)",
      ],
    ],
    [
      "TLS on a Gateway exposure, with auth",
      { auth: AUTH, ...networking({ hostname: "h", tls: { secretName: "s" }, parentRefs: GATEWAY }) },
      "gateway",
      [
        "networking.expose.tls is not used: TLS at the edge is the Gateway listener's (protocol HTTPS with certificateRefs; cert-manager annotates the Gateway)",
        GATEWAY_LISTENER_NOTE,
        GATEWAY_POLICY_NOTE,
      ],
    ],
    [
      "a Gateway exposure without a NetworkPolicy",
      { networking: { expose: { parentRefs: GATEWAY }, policy: { enabled: false } } },
      "gateway",
      [],
    ],
  ])("%s", (_title, spec, exposeWith, expected) => {
    expect(exposeNotes(aContext({ exposeWith, spec }))).toEqual(expected);
  });
});

describe("the NetworkPolicy of a Gateway exposure", () => {
  const namespacesOf = (exposeWith: ExposeWith, expose: ExposeObject) =>
    (buildNetworkPolicy(aContext({ exposeWith, spec: { networking: { expose } } }))?.spec?.ingress ?? [])
      .flatMap((rule) => rule.from ?? [])
      .map((peer) => peer.namespaceSelector?.matchLabels?.["kubernetes.io/metadata.name"])
      .filter((name) => name !== undefined);

  it.each<[string, ExposeWith, ExposeObject, string[]]>([
    [
      "admits each named Gateway's namespace once",
      "gateway",
      { parentRefs: [...GATEWAY, { name: "b", namespace: "gateways" }, { name: "c", namespace: "other" }] },
      ["gateways", "other"],
    ],
    ["adds nothing for a Gateway in the CR's own namespace", "gateway", { parentRefs: [{ name: "edge" }] }, []],
    ["adds nothing when the hooks expose through an Ingress", "ingress", { parentRefs: GATEWAY }, []],
  ])("%s", (_title, exposeWith, expose, added) => {
    const without = namespacesOf(exposeWith, { ...expose, parentRefs: [{ name: "x" }] });
    expect(namespacesOf(exposeWith, expose)).toEqual([...without, ...added]);
  });
});

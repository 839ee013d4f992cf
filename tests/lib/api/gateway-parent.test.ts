/**
 * The hooks' default Gateway (LLSD_GATEWAY_PARENT, lib/api/gateway-parent.ts): its text form, and
 * where it becomes an exposed spec's parentRefs (a gateway install, exposed, none named) and
 * where it changes nothing. `validate()` judges the spec with it, as /validate and /sync do.
 */
import type { CanonicalSpec } from "../../../lib/api/canonical";
import type { GatewayParentRefInput } from "../../../lib/api/expose-types";
import { parseGatewayParent, withGatewayParent, type ExposeSettings } from "../../../lib/api/gateway-parent";
import { normalize } from "../../../lib/api/normalize";
import { validate } from "../../../lib/api/validate";
import { aSpec } from "../../builders";

const PUBLIC: GatewayParentRefInput = { namespace: "gateways", name: "public", sectionName: "https" };

describe("parseGatewayParent", () => {
  it.each<[string, GatewayParentRefInput | undefined]>([
    ["gateways/public", { namespace: "gateways", name: "public" }],
    ["gateways/public/https", PUBLIC],
    ["gw/edge.example/listener.443", { namespace: "gw", name: "edge.example", sectionName: "listener.443" }],
    ["public", undefined],
    ["gateways/", undefined],
    ["/public", undefined],
    ["gateways/public/", undefined],
    ["gate.ways/public", undefined],
    ["gateways/Public", undefined],
    ["gateways/public/https/x", undefined],
    [`${"a".repeat(64)}/public`, undefined],
  ])("%j", (text, parsed) => {
    expect(parseGatewayParent(text)).toEqual(parsed);
  });
});

describe("withGatewayParent", () => {
  const specOf = (expose: unknown): CanonicalSpec => normalize(aSpec({ networking: { expose: expose as boolean } }));
  const OWN = [{ name: "own" }];
  const onGateway: ExposeSettings = { exposeWith: "gateway", gatewayParent: PUBLIC };
  it.each<[string, unknown, ExposeSettings, unknown]>([
    ["exposed on a gateway install, none named: the default", true, onGateway, [PUBLIC]],
    ["the CR's own parentRefs win", { parentRefs: OWN }, onGateway, OWN],
    ["no default: as before", true, { exposeWith: "gateway" }, undefined],
    ["not exposed", false, onGateway, undefined],
    ["an Ingress install", true, { ...onGateway, exposeWith: "ingress" }, undefined],
    ["a Route install", true, { ...onGateway, exposeWith: "route" }, undefined],
  ])("%s", (_title, expose, settings, parentRefs) => {
    const spec = specOf(expose);
    const given = withGatewayParent(spec, settings);
    expect(given.networking.expose.parentRefs).toEqual(parentRefs);
    // Unchanged means the same object: nothing else of the spec is touched.
    if (parentRefs === undefined || parentRefs === OWN) expect(given).toBe(spec);
    else expect({ ...given, networking: { ...given.networking, expose: spec.networking.expose } }).toEqual(spec);
  });
});

describe("validate() with the default Gateway", () => {
  const exposed = aSpec({ networking: { expose: true } });
  it.each<[string, GatewayParentRefInput | undefined, string[], unknown]>([
    [
      "without it, an exposure naming no Gateway is refused",
      undefined,
      ["spec.networking.expose.parentRefs"],
      undefined,
    ],
    ["with it, accepted and attached to it", PUBLIC, [], [PUBLIC]],
  ])("%s", (_title, gatewayParent, paths, parentRefs) => {
    const { errors, spec } = validate(exposed, { exposeWith: "gateway", ...(gatewayParent ? { gatewayParent } : {}) });
    expect(errors.map((e) => e.path)).toEqual(paths);
    expect(spec?.networking.expose.parentRefs).toEqual(parentRefs);
  });
});

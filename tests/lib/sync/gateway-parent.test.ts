/**
 * A v1alpha1 CR cannot name parentRefs: on a gateway install it is exposed through the hooks'
 * default Gateway (LLSD_GATEWAY_PARENT), and refused without one, as before.
 */
import { toHub } from "../../../lib/conversion/v1alpha1";
import type { GatewayParentRefInput } from "../../../lib/api/expose-types";
import { sync } from "../../../lib/sync/sync";
import type { KubeObject } from "../../../lib/wire/metacontroller";
import { aRequest, deps, NS } from "../../sync-builders";

function exposedV1alpha1(): KubeObject {
  const converted = toHub({
    apiVersion: "llamastack.io/v1alpha1",
    kind: "LlamaStackDistribution",
    metadata: { name: "demo", namespace: NS, uid: "uid-1", generation: 1 },
    spec: {
      server: { distribution: { name: "starter" }, containerSpec: { name: "llama-stack", port: 8321 } },
      network: { exposeRoute: true },
    },
  });
  if (!converted.ok) throw new Error(JSON.stringify(converted.errors));
  return converted.object as unknown as KubeObject;
}

const PUBLIC: GatewayParentRefInput = { namespace: "gateways", name: "public", sectionName: "https" };
const answerWith = (gatewayParent?: GatewayParentRefInput) =>
  sync(aRequest(exposedV1alpha1(), [], []), {
    ...deps(),
    exposeWith: "gateway",
    ...(gatewayParent ? { gatewayParent } : {}),
  });
const childOf = (children: readonly KubeObject[], kind: string) => children.find((c) => c.kind === kind);

describe("an exposed v1alpha1 CR on a gateway install", () => {
  it("with the default Gateway: an HTTPRoute attached to it, its namespace admitted by the NetworkPolicy", () => {
    const answer = answerWith(PUBLIC);
    expect(answer.status.phase).not.toBe("Failed");
    const route = childOf(answer.children, "HTTPRoute") as { spec: { parentRefs: unknown } } | undefined;
    expect(route?.spec.parentRefs).toEqual([PUBLIC]);
    const policy = JSON.stringify(childOf(answer.children, "NetworkPolicy"));
    expect(policy).toContain('"kubernetes.io/metadata.name":"gateways"');
  });

  it("without one: refused at parentRefs, no HTTPRoute", () => {
    const answer = answerWith();
    expect(answer.status.phase).toBe("Failed");
    expect(JSON.stringify(answer.status.conditions)).toContain("spec.networking.expose.parentRefs");
    expect(childOf(answer.children, "HTTPRoute")).toBeUndefined();
  });
});

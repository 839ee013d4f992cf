/**
 * metacontroller/components/gateway-api, added to the vanilla overlays and built offline by a
 * real `kubectl kustomize`: HTTPRoutes and BackendTLSPolicies become InPlace children, the hooks
 * read its setting as "expose with the Gateway API" (hooks/sync-settings.ts, the service's own
 * parser), and every Gateway API child the hooks then emit is a type the CompositeController
 * lists. Without it, no overlay lists a Gateway API type (their CRDs may be absent, which would
 * stop every LLSD). Its default Gateway is blank (none) until an overlay patches it.
 */
import { syncSettingsFromEnv } from "../../hooks/sync-settings";
import { sync } from "../../lib/sync/sync";
import { buildWithMonitoring, type Doc } from "../monitoring/support/build";
import { toHub } from "../../lib/conversion/v1alpha1";
import type { KubeObject } from "../../lib/wire/metacontroller";
import { aParent, aRequest, aSecret, deps, NS } from "../sync-builders";

const OVERLAYS = ["metacontroller", "metacontroller/overlays/cert-manager"];
const ALL_OVERLAYS = [
  ...OVERLAYS,
  "metacontroller/overlays/openshift",
  "metacontroller/overlays/openshift-cert-manager",
];
const GATEWAY = "metacontroller/components/gateway-api";
const GATEWAY_API = "gateway.networking.k8s.io/v1";

type Child = { apiVersion: string; resource: string; updateStrategy?: { method: string } };
const find = (docs: Doc[], kind: string, name: string): Doc => {
  const found = docs.find((d) => d.kind === kind && d.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in the build`);
  return found;
};
const controllerSpec = (docs: Doc[]) => find(docs, "CompositeController", "llamastackdistributions.llamastack.io").spec;
const childTypes = (docs: Doc[]): Child[] => controllerSpec(docs).childResources as Child[];
const hooksEnv = (docs: Doc[]): NodeJS.ProcessEnv => {
  const spec = find(docs, "Deployment", "llsd-hooks").spec as {
    template: { spec: { containers: { name: string; env?: { name: string; value?: string }[] }[] } };
  };
  const env = spec.template.spec.containers.find((c) => c.name === "hooks")?.env ?? [];
  return Object.fromEntries(env.filter((e) => e.value !== undefined).map((e) => [e.name, e.value]));
};
/** Metacontroller's resource name of a kind (the Gateway API's plurals are the lower-case kind plus "s" or "ies"). */
const plural = (kind: string): string => (kind.endsWith("y") ? `${kind.slice(0, -1)}ies` : `${kind}s`).toLowerCase();

describe.each(OVERLAYS)("%s + components/gateway-api", (overlay) => {
  const docs = buildWithMonitoring(overlay, [GATEWAY]);
  const alone = buildWithMonitoring(overlay, []);

  it("adds HTTPRoutes and BackendTLSPolicies as InPlace children, once each, and nothing else", () => {
    const added = childTypes(docs).filter((c) => c.apiVersion === GATEWAY_API);
    expect(added).toEqual([
      { apiVersion: GATEWAY_API, resource: "httproutes", updateStrategy: { method: "InPlace" } },
      { apiVersion: GATEWAY_API, resource: "backendtlspolicies", updateStrategy: { method: "InPlace" } },
    ]);
    expect(childTypes(docs).filter((c) => c.apiVersion !== GATEWAY_API)).toEqual(childTypes(alone));
    const { childResources: _a, ...rest } = controllerSpec(docs);
    const { childResources: _b, ...restAlone } = controllerSpec(alone);
    expect(rest).toEqual(restAlone);
  });

  it("tells the hooks to expose with the Gateway API, and lists every Gateway API child they then emit", () => {
    const settings = syncSettingsFromEnv(hooksEnv(docs));
    expect(settings.exposeWith).toBe("gateway");
    const parent = aParent({
      distribution: { name: "starter" },
      networking: { tls: { enabled: true, secretName: "tls" }, expose: { parentRefs: [{ name: "edge" }] } },
    });
    const tlsSecret = aSecret("tls", { "tls.crt": "c", "tls.key": "k" });
    const answer = sync(aRequest(parent, [], [tlsSecret]), { ...deps(), exposeWith: settings.exposeWith });
    expect(answer.status.phase).not.toBe("Failed");
    const emitted = answer.children.filter((c) => c.apiVersion === GATEWAY_API);
    expect(emitted.map((c) => c.kind).sort()).toEqual(["BackendTLSPolicy", "HTTPRoute"]);
    const listed = childTypes(docs).map((c) => `${c.resource}.${c.apiVersion}`);
    for (const child of emitted) expect(listed).toContain(`${plural(child.kind)}.${child.apiVersion}`);
  });
});

/** A user's overlay setting the default Gateway, as docs/install.md#gateway-api shows. */
const DEFAULT_GATEWAY_PATCH = `patches:
  - target: {kind: Deployment, name: llsd-hooks}
    patch: |-
      apiVersion: apps/v1
      kind: Deployment
      metadata:
        name: llsd-hooks
      spec:
        template:
          spec:
            containers:
              - name: hooks
                env:
                  - name: LLSD_GATEWAY_PARENT
                    value: gateways/public/https
`;

/** An exposed v1alpha1 CR, as the hooks receive it: it cannot name parentRefs. */
function exposedV1alpha1(): KubeObject {
  const converted = toHub({
    apiVersion: "llamastack.io/v1alpha1",
    kind: "LlamaStackDistribution",
    metadata: { name: "demo", namespace: NS, uid: "uid-1", generation: 1 },
    spec: { server: { distribution: { name: "starter" } }, network: { exposeRoute: true } },
  });
  if (!converted.ok) throw new Error(JSON.stringify(converted.errors));
  return converted.object as unknown as KubeObject;
}

describe("the default Gateway (LLSD_GATEWAY_PARENT)", () => {
  const overlay = "metacontroller/overlays/cert-manager";
  it.each<[string, string, boolean]>([
    ["blank in the component: none, an exposed v1alpha1 CR is refused", "", false],
    ["patched by an overlay: an exposed v1alpha1 CR attaches to it", DEFAULT_GATEWAY_PATCH, true],
  ])("%s", (_title, more, attached) => {
    const settings = syncSettingsFromEnv(hooksEnv(buildWithMonitoring(overlay, [GATEWAY], more)));
    const answer = sync(aRequest(exposedV1alpha1(), [], []), { ...deps(), ...settings });
    const routes = answer.children.filter((c) => c.kind === "HTTPRoute") as { spec?: { parentRefs?: unknown } }[];
    if (!attached) {
      expect([settings.gatewayParent, answer.status.phase, routes]).toEqual([undefined, "Failed", []]);
    } else {
      expect(settings.gatewayParent).toEqual({ namespace: "gateways", name: "public", sectionName: "https" });
      expect(answer.status.phase).not.toBe("Failed");
      expect(routes.map((r) => r.spec?.parentRefs)).toEqual([[settings.gatewayParent]]);
    }
  });
});

it.each(ALL_OVERLAYS)("%s alone lists no Gateway API child type", (overlay) => {
  expect(childTypes(buildWithMonitoring(overlay, [])).filter((c) => c.apiVersion.startsWith("gateway."))).toEqual([]);
});

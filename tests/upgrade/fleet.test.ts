import { LAST_APPLIED } from "../../lib/sync/keep";
import { asApplied, fleetRequest, settled } from "./fleet";

const deployment = (mounts: string[]) => ({
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name: "demo" },
  spec: { template: { spec: { volumes: mounts.map((name) => ({ name, configMap: { name } })) } } },
});
const configMap = (name: string) => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name } });
const namesOf = (children: readonly unknown[]) =>
  children.map((c) => (c as { metadata: { name: string } }).metadata.name).sort();

describe("the fleet an upgrade meets", () => {
  it.each([
    [
      "a config ConfigMap kept only for pods mid-rollout goes",
      ["demo-config-new"],
      ["demo-config-new", "demo-config-old"],
      ["demo", "demo-config-new"],
    ],
    ["the mounted config stays", ["demo-config-old"], ["demo-config-old"], ["demo", "demo-config-old"]],
    [
      "ConfigMaps that are not generated configs stay",
      ["demo-config-new"],
      ["demo-config-new", "demo-ca-bundle"],
      ["demo", "demo-ca-bundle", "demo-config-new"],
    ],
  ])("settled: %s", (_what, mounted, configMaps, expected) => {
    expect(namesOf(settled([deployment(mounted), ...configMaps.map(configMap)], "demo"))).toEqual(expected);
  });

  it("settled: without a Deployment nothing is dropped", () => {
    expect(namesOf(settled([configMap("demo-config-a"), configMap("demo-config-b")], "demo"))).toEqual([
      "demo-config-a",
      "demo-config-b",
    ]);
  });

  const request = {
    parent: { metadata: { name: "demo", namespace: "ns", uid: "u-1" } },
    children: {
      "Deployment.apps/v1": {
        "ns/demo": {
          ...deployment([]),
          metadata: { name: "demo", uid: "d-1", resourceVersion: "7" },
          status: { readyReplicas: 1 },
        },
      },
      "ConfigMap.v1": { "ns/demo-config-gone": configMap("demo-config-gone") },
    },
    related: {},
  };

  it("observes each child as Metacontroller applied it, keyed as Metacontroller sends it, with what the cluster added", () => {
    const golden = deployment(["demo-config-a"]);
    const fleet = fleetRequest(request, [golden, configMap("demo-config-a")]);
    const children = fleet.children as Record<string, Record<string, Record<string, unknown>>>;
    expect(Object.keys(children).sort()).toEqual(["ConfigMap.v1", "Deployment.apps/v1"]);
    expect(Object.keys(children["ConfigMap.v1"]!)).toEqual(["ns/demo-config-a"]);
    const observed = children["Deployment.apps/v1"]!["ns/demo"]!;
    const metadata = observed.metadata as { annotations: Record<string, string>; labels: Record<string, string> };
    expect(JSON.parse(metadata.annotations[LAST_APPLIED]!)).toEqual(asApplied(golden, "u-1"));
    expect(metadata.labels["controller-uid"]).toBe("u-1");
    expect(observed).toMatchObject({
      status: { readyReplicas: 1 },
      metadata: { uid: "d-1", resourceVersion: "7", namespace: "ns" },
    });
    expect(fleet.parent).toBe(request.parent);
  });
});

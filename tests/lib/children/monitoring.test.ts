/**
 * `spec.monitoring` in the children (lib/children/metrics.ts, service-monitor.ts and the metrics
 * rule of network-policy.ts): the variables the 1.3 server reads, the `metrics` port on the
 * container and the Service, the scraper's namespace admitted to it, and a ServiceMonitor only
 * where the hooks run with the server-monitoring component. Every object is checked against its
 * schema (kubernetes-models, and @kubernetes-models/prometheus-operator for the ServiceMonitor).
 */
import { desiredChildren } from "../../../lib/children";
import { buildServiceMonitor } from "../../../lib/children/service-monitor";
import type { LlsdSpecV1alpha2, MonitoringInput } from "../../../lib/api/v1alpha2";
import type { ServerMonitoringSettings } from "../../../lib/distributions/monitoring";
import type { KubeObject } from "../../../lib/wire/metacontroller";
import { serviceMonitorErrors } from "../../service-monitor-crd";
import { aContext, NAME, NAMESPACE } from "./context-builder";
import { only, validateChild } from "./models";

const WITH_COMPONENT: ServerMonitoringSettings = { serviceMonitors: true, scraperNamespace: "prometheus" };

function childrenWith(monitoring: MonitoringInput | undefined, settings?: ServerMonitoringSettings): KubeObject[] {
  const spec: Partial<LlsdSpecV1alpha2> = monitoring ? { monitoring } : {};
  return desiredChildren(aContext({ spec, ...(settings ? { serverMonitoring: settings } : {}) }));
}

type Container = { env?: { name: string; value?: string }[]; ports?: { name?: string; containerPort: number }[] };
const containerOf = (children: KubeObject[]): Container => {
  const spec = only(children, "Deployment").spec as { template: { spec: { containers: Container[] } } };
  return spec.template.spec.containers[0]!;
};
const metricsEnv = (children: KubeObject[]) =>
  (containerOf(children).env ?? []).filter((e) => e.name.startsWith("OGX_METRICS_"));
const servicePorts = (children: KubeObject[]) =>
  (only(children, "Service").spec as { ports: { name: string; port: number; targetPort: unknown }[] }).ports;
const policyRules = (children: KubeObject[]) =>
  (only(children, "NetworkPolicy").spec as { ingress: { ports: { port: number }[]; from: unknown[] }[] }).ingress;
const byName = (ns: string) => ({ namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": ns } } });

describe("monitoring on", () => {
  it.each<[string, MonitoringInput, number]>([
    ["`monitoring: {}` (the default port)", {}, 9464],
    ["enabled with a port of its own", { enabled: true, port: 9100 }, 9100],
  ])("%s: the server's variables, bound to every address, and the metrics port", (_title, monitoring, port) => {
    const children = childrenWith(monitoring);
    expect(metricsEnv(children)).toEqual([
      { name: "OGX_METRICS_ENDPOINT_ENABLED", value: "true" },
      { name: "OGX_METRICS_HOST", value: "::" },
      { name: "OGX_METRICS_PORT", value: String(port) },
    ]);
    expect(containerOf(children).ports).toEqual([
      { name: "http", containerPort: 8321, protocol: "TCP" },
      { name: "metrics", containerPort: port, protocol: "TCP" },
    ]);
    expect(servicePorts(children)).toEqual([
      { name: "http", port: 8321, targetPort: "http", protocol: "TCP" },
      { name: "metrics", port, targetPort: "metrics", protocol: "TCP" },
    ]);
    expect(policyRules(children)[1]).toEqual({ ports: [{ protocol: "TCP", port }], from: [byName("monitoring")] });
    for (const child of children) validateChild(child);
  });

  it("a user env entry of the same name wins (workload.overrides.env)", () => {
    const ctx = aContext({
      spec: { monitoring: {}, workload: { overrides: { env: [{ name: "OGX_METRICS_HOST", value: "0.0.0.0" }] } } },
    });
    expect(metricsEnv(desiredChildren(ctx))).toContainEqual({ name: "OGX_METRICS_HOST", value: "0.0.0.0" });
  });

  it.each<[string, MonitoringInput, ServerMonitoringSettings | undefined, unknown[]]>([
    ["the hooks' default scraper namespace", {}, undefined, [byName("monitoring")]],
    ["the scraper namespace the hooks are told", {}, WITH_COMPONENT, [byName("prometheus")]],
    [
      "the CR's own namespaces, over the hooks'",
      { allowedFrom: { namespaces: ["obs", "team-obs"] } },
      WITH_COMPONENT,
      [byName("obs"), byName("team-obs")],
    ],
    ["every namespace", { allowedFrom: { namespaces: ["obs", "*"] } }, undefined, [{ namespaceSelector: {} }]],
  ])("admits %s to the metrics port, and only to it", (_title, monitoring, settings, from) => {
    const rules = policyRules(childrenWith(monitoring, settings));
    expect(rules).toHaveLength(2);
    expect(rules[0]!.ports).toEqual([{ protocol: "TCP", port: 8321 }]);
    expect(rules[1]).toEqual({ ports: [{ protocol: "TCP", port: 9464 }], from });
  });
});

describe("monitoring off or unset", () => {
  it.each<[string, MonitoringInput | undefined]>([
    ["unset", undefined],
    ["enabled: false", { enabled: false, port: 9100 }],
  ])("%s: the children are those of a spec without it, with or without the component", (_title, monitoring) => {
    const without = childrenWith(undefined);
    expect(childrenWith(monitoring)).toEqual(without);
    expect(childrenWith(monitoring, WITH_COMPONENT)).toEqual(without);
  });
});

describe("buildServiceMonitor()", () => {
  it("without the component: none (Metacontroller cannot own the kind)", () => {
    expect(buildServiceMonitor(aContext({ spec: { monitoring: {} } }))).toBeUndefined();
    expect(childrenWith({}).map((c) => c.kind)).not.toContain("ServiceMonitor");
  });

  it("with the component: scrapes the Service's metrics port; every series gets the LLSD's name and the servers' job", () => {
    const children = childrenWith({ port: 9100 }, WITH_COMPONENT);
    const monitor = only(children, "ServiceMonitor");
    expect(monitor.apiVersion).toBe("monitoring.coreos.com/v1");
    expect(monitor.metadata).toMatchObject({ name: `${NAME}-service-monitor`, namespace: NAMESPACE });
    expect(monitor.spec).toEqual({
      selector: { matchLabels: { app: "llama-stack", "app.kubernetes.io/instance": NAME } },
      namespaceSelector: { matchNames: [NAMESPACE] },
      endpoints: [
        {
          port: "metrics",
          path: "/metrics",
          scheme: "http",
          interval: "30s",
          relabelings: [
            {
              action: "replace",
              sourceLabels: ["__meta_kubernetes_service_label_app_kubernetes_io_instance"],
              targetLabel: "name",
            },
            { action: "replace", targetLabel: "job", replacement: "llsd-server" },
          ],
        },
      ],
    });
    // The Service it selects carries the labels it selects on, and the port it names.
    expect(only(children, "Service").metadata.labels).toMatchObject(
      (monitor.spec as { selector: { matchLabels: object } }).selector.matchLabels,
    );
    expect(servicePorts(children).map((p) => p.name)).toContain("metrics");
    expect(serviceMonitorErrors(monitor)).toEqual([]);
  });

  it.each<[string, (m: Record<string, unknown>) => void, RegExp]>([
    ["a numeric endpoint port", (m) => ((m.endpoints as { port: unknown }[])[0]!.port = 9100), /port must be string/],
    [
      "an unknown relabel action",
      (m) => ((m.endpoints as { relabelings: { action: string }[] }[])[0]!.relabelings[0]!.action = "rename"),
      /action/,
    ],
    ["targetLabels as a string", (m) => (m.targetLabels = "name"), /must be array/],
  ])("the ServiceMonitor schema refuses %s (the check can fail)", (_title, mutate, expected) => {
    const monitor = structuredClone(only(childrenWith({}, WITH_COMPONENT), "ServiceMonitor"));
    mutate(monitor.spec as Record<string, unknown>);
    expect(serviceMonitorErrors(monitor).join("\n")).toMatch(expected);
  });
});

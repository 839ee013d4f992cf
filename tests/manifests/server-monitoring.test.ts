/**
 * metacontroller/components/server-monitoring, added to each overlay (alone, and beside
 * components/monitoring) and built offline by a real `kubectl kustomize`: ServiceMonitors become
 * InPlace children of the CompositeController, the hooks read the settings it sets as "emit them"
 * (hooks/sync-settings.ts, the same parser as the service), Prometheus may discover the servers
 * in every namespace, and the rules and dashboards are the component's files. Without it, no
 * overlay lists ServiceMonitors (their CRD may be absent, which would stop every LLSD).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { serverMonitoringFromEnv } from "../../hooks/sync-settings";
import { buildWithMonitoring, type Doc } from "../monitoring/support/build";
import { SERVER_COMPONENT } from "../monitoring/support/promtool";
import { SERVER_DASHBOARDS, serverDashboards } from "../monitoring/support/server";

const OVERLAYS = [
  "metacontroller",
  "metacontroller/overlays/openshift",
  "metacontroller/overlays/cert-manager",
  "metacontroller/overlays/openshift-cert-manager",
];
const SERVER = "metacontroller/components/server-monitoring";
const HOOKS = "metacontroller/components/monitoring";

const find = (docs: Doc[], kind: string, name: string): Doc => {
  const found = docs.find((d) => d.kind === kind && d.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in the build`);
  return found;
};
type Child = { apiVersion: string; resource: string; updateStrategy?: { method: string } };
const childTypes = (docs: Doc[]): Child[] =>
  find(docs, "CompositeController", "llamastackdistributions.llamastack.io").spec.childResources as Child[];
const hooksEnv = (docs: Doc[]): NodeJS.ProcessEnv => {
  const spec = find(docs, "Deployment", "llsd-hooks").spec as {
    template: { spec: { containers: { name: string; env?: { name: string; value?: string }[] }[] } };
  };
  const env = spec.template.spec.containers.find((c) => c.name === "hooks")?.env ?? [];
  return Object.fromEntries(env.filter((e) => e.value !== undefined).map((e) => [e.name, e.value]));
};

describe.each(
  OVERLAYS.flatMap((o) => [
    [o, [SERVER]],
    [o, [HOOKS, SERVER]],
  ]),
)("%s + %j", (overlay, components) => {
  const docs = buildWithMonitoring(overlay, components);

  it("makes ServiceMonitors InPlace children, and only once", () => {
    expect(childTypes(docs).filter((c) => c.resource === "servicemonitors")).toEqual([
      { apiVersion: "monitoring.coreos.com/v1", resource: "servicemonitors", updateStrategy: { method: "InPlace" } },
    ]);
  });

  it("tells the hooks to emit them, and where Prometheus runs (read as the service reads it)", () => {
    expect(serverMonitoringFromEnv(hooksEnv(docs))).toEqual({ serviceMonitors: true, scraperNamespace: "monitoring" });
  });

  it("lets that namespace's Prometheus discover the servers everywhere, read only", () => {
    const role = find(docs, "ClusterRole", "llsd-server-discovery");
    const verbs = (role as unknown as { rules: { verbs: string[] }[] }).rules.flatMap((r) => r.verbs);
    expect([...new Set(verbs)].sort()).toEqual(["get", "list", "watch"]);
    const binding = find(docs, "ClusterRoleBinding", "llsd-server-discovery") as unknown as {
      subjects: { kind: string; name: string; namespace: string }[];
    };
    expect(binding.subjects).toEqual([{ kind: "ServiceAccount", name: "prometheus-k8s", namespace: "monitoring" }]);
  });

  it("ships the component's rules and every dashboard (Grafana's sidecar label)", () => {
    const rule = find(docs, "PrometheusRule", "llsd-server");
    const file = parse(readFileSync(join(SERVER_COMPONENT, "prometheusrule.yaml"), "utf8")) as Doc;
    expect(rule.spec).toEqual(file.spec);
    const configMap = find(docs, "ConfigMap", "llsd-server-dashboards");
    expect(configMap.metadata.labels).toEqual({ grafana_dashboard: "1" });
    const shipped = Object.keys(configMap.data ?? {}).sort();
    expect(shipped).toEqual(serverDashboards().map((d) => d.file));
    for (const f of shipped)
      expect(JSON.parse(configMap.data![f]!)).toEqual(JSON.parse(readFileSync(join(SERVER_DASHBOARDS, f), "utf8")));
  });
});

it.each(OVERLAYS)("%s alone (or with components/monitoring) lists no ServiceMonitor child", (overlay) => {
  expect(childTypes(buildWithMonitoring(overlay)).map((c) => c.resource)).not.toContain("servicemonitors");
  expect(serverMonitoringFromEnv(hooksEnv(buildWithMonitoring(overlay))).serviceMonitors).toBe(false);
});

/**
 * metacontroller/components/monitoring: added to each overlay it builds offline (real `kubectl
 * kustomize`), its ServiceMonitor reaches the hooks' /metrics, Prometheus's namespace may reach
 * that port, and every metric its PrometheusRule names is one the hooks' /metrics really exposes
 * (listed by a real app after a /sync call), with the labels the rule groups by. Then the
 * per-parent phase gauge itself: latest phase per parent, expiry, bound. The dashboard ConfigMap
 * is checked here as built; its queries in tests/monitoring/dashboard.test.ts.
 */
import { readFileSync } from "node:fs";
import { Registry } from "prom-client";
import { PARENT_SEEN_METRIC, seenBytes, trackParentPhases } from "../../hooks/parent-phases";
import { buildWithMonitoring, type Doc } from "../monitoring/support/build";
import { DASHBOARD_FILE } from "../monitoring/support/dashboard";
import { exposedMetrics, knownSeries, unknownNames } from "../monitoring/support/promql";
import { aParent } from "../sync-builders";

const OVERLAYS = [
  "metacontroller",
  "metacontroller/overlays/openshift",
  "metacontroller/overlays/cert-manager",
  "metacontroller/overlays/openshift-cert-manager",
];

const find = (docs: Doc[], kind: string, name = "llsd-hooks"): Doc => {
  const found = docs.find((d) => d.kind === kind && d.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in the build`);
  return found;
};

describe.each(OVERLAYS)("%s + components/monitoring", (overlay) => {
  const docs = buildWithMonitoring(overlay);

  it("scrapes /metrics through a port of the hooks' Service whose labels it selects", () => {
    const monitor = find(docs, "ServiceMonitor");
    const service = find(docs, "Service");
    expect(monitor.metadata.namespace).toBe(service.metadata.namespace);
    for (const [k, v] of Object.entries((monitor.spec.selector as { matchLabels: Record<string, string> }).matchLabels))
      expect(service.metadata.labels?.[k]).toBe(v);
    const endpoint = (monitor.spec.endpoints as { path: string; port: string }[])[0]!;
    expect(endpoint.path).toBe("/metrics");
    const port = (service.spec.ports as { name: string; port: number }[]).find((p) => p.name === endpoint.port);
    expect(port?.port).toBe(8080);
  });

  it("lets the monitoring namespace reach that port, and Prometheus discover the pods", () => {
    const rules = find(docs, "NetworkPolicy").spec.ingress as {
      from?: { namespaceSelector?: { matchLabels?: Record<string, string> } }[];
      ports: { port: number }[];
    }[];
    const fromMonitoring = rules.filter((r) =>
      r.from?.some((f) => f.namespaceSelector?.matchLabels?.["kubernetes.io/metadata.name"] === "monitoring"),
    );
    expect(fromMonitoring.flatMap((r) => r.ports.map((p) => p.port))).toEqual([8080]);
    const binding = find(docs, "RoleBinding", "prometheus-k8s");
    expect([binding.metadata.namespace, binding.roleRef?.name]).toEqual([
      "llsd-hooks",
      find(docs, "Role", "prometheus-k8s").metadata.name,
    ]);
  });

  it("alerts on hook errors, 429s, 503s and Failed LLSDs, with metrics and labels /metrics really has", async () => {
    const rule = find(docs, "PrometheusRule");
    const rules = (rule.spec.groups as { rules: { record?: string; alert?: string; expr: string }[] }[]).flatMap(
      (g) => g.rules,
    );
    const known = knownSeries(await exposedMetrics(), rules);
    expect(rules.map((r) => ({ expr: r.expr, unknown: unknownNames(r.expr, known) }))).toEqual(
      rules.map((r) => ({ expr: r.expr, unknown: [] })),
    );
    const all = rules.map((r) => r.expr).join("\n");
    expect(all).toContain('outcome="overloaded"');
    expect(all).toContain('outcome="timeout"');
    expect(all).toContain("llsd_hook_errors_total");
    expect(rules.find((r) => r.alert === "LlsdFailed")?.expr).toContain('phase="Failed"');
  });

  it("ships the Grafana dashboard as a ConfigMap that kube-prometheus-stack's dashboard sidecar loads", () => {
    const configMap = find(docs, "ConfigMap", "llsd-hooks-dashboard");
    expect(configMap.metadata).toEqual({
      name: "llsd-hooks-dashboard",
      namespace: "monitoring",
      labels: { grafana_dashboard: "1" },
    });
    expect(Object.keys(configMap.data ?? {})).toEqual(["llsd-hooks-dashboard.json"]);
    expect(JSON.parse(configMap.data!["llsd-hooks-dashboard.json"]!)).toEqual(
      JSON.parse(readFileSync(DASHBOARD_FILE, "utf8")),
    );
  });

  it("keeps each LLSD's own namespace label (honorLabels), which the Failed alert and the counts group by", () => {
    const endpoints = find(docs, "ServiceMonitor").spec.endpoints as { honorLabels?: boolean }[];
    expect(endpoints.map((e) => e.honorLabels)).toEqual([true]);
  });
});

describe(`${PARENT_SEEN_METRIC}`, () => {
  const parent = (uid: string, name: string, phase?: string) => ({
    ...aParent({ distribution: { name: "starter" } }, { name, ...(phase ? { status: { phase } } : {}) }),
    metadata: { name, namespace: "team-a", uid },
  });
  async function series(registry: Registry): Promise<string[]> {
    return (await registry.metrics()).split("\n").filter((l) => l.startsWith(PARENT_SEEN_METRIC));
  }

  it("keeps each parent's latest phase only, as a unix time; a parent without status is Pending", async () => {
    let now = 1_000_000;
    const registry = new Registry();
    const phases = trackParentPhases(registry, { now: () => now });
    phases.record(parent("u1", "a", "Initializing"));
    phases.record(parent("u2", "b"));
    now += 5000;
    phases.record(parent("u1", "a", "Failed"));
    expect(await series(registry)).toEqual([
      `${PARENT_SEEN_METRIC}{namespace="team-a",name="b",phase="Pending"} 1000`,
      `${PARENT_SEEN_METRIC}{namespace="team-a",name="a",phase="Failed"} 1005`,
    ]);
  });

  it("drops parents not seen within the expiry, and the least recently seen beyond its bytes", async () => {
    let now = 0;
    const registry = new Registry();
    // Room for 32 parents of this size (no entry may take more than 1/32 of it).
    const one = seenBytes({ namespace: "team-a", name: "p00", phase: "Failed", at: 0 }, "u00");
    const phases = trackParentPhases(registry, { now: () => now, ttlMs: 60_000, cacheBytes: 32 * one });
    const ids = Array.from({ length: 33 }, (_, i) => String(i).padStart(2, "0"));
    for (const id of ids) phases.record(parent(`u${id}`, `p${id}`, "Failed"));
    expect((await series(registry)).map((l) => /name="(\w+)"/.exec(l)![1])).toEqual(ids.slice(1).map((id) => `p${id}`));
    now = 30_000;
    phases.record(parent("u05", "p05", "Failed"));
    now = 70_000;
    expect(await series(registry)).toEqual([`${PARENT_SEEN_METRIC}{namespace="team-a",name="p05",phase="Failed"} 30`]);
  });
});

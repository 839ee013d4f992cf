/**
 * metacontroller/components/monitoring: added to each overlay it builds offline (real `kubectl
 * kustomize`), its ServiceMonitor reaches the hooks' /metrics, Prometheus's namespace may reach
 * that port, and every metric its PrometheusRule names is one the hooks' /metrics really exposes
 * (listed by a real app after a /sync call), with the labels the rule groups by. Then the
 * per-parent phase gauge itself: latest phase per parent, expiry, bound.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { Registry } from "prom-client";
import request from "supertest";
import { parseAllDocuments } from "yaml";
import { PARENT_SEEN_METRIC, seenBytes, trackParentPhases } from "../../hooks/parent-phases";
import { aTestApp } from "../hooks/helpers";
import { aParent, aRequest } from "../sync-builders";

const ROOT = join(__dirname, "..", "..");
const OVERLAYS = [
  "metacontroller",
  "metacontroller/overlays/openshift",
  "metacontroller/overlays/cert-manager",
  "metacontroller/overlays/openshift-cert-manager",
];

type Doc = {
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  spec: { readonly [field: string]: unknown };
  roleRef?: { name: string };
};

/** The overlay plus the component, built from a directory outside the repository (as a user's own overlay would be). */
function buildWithMonitoring(overlay: string): Doc[] {
  const dir = mkdtempSync(join(tmpdir(), "llsd-monitoring-"));
  const up = (path: string) => relative(dir, join(ROOT, path));
  writeFileSync(
    join(dir, "kustomization.yaml"),
    `resources:\n  - ${up(overlay)}\ncomponents:\n  - ${up("metacontroller/components/monitoring")}\n`,
  );
  const text = execFileSync("kubectl", ["kustomize", dir], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, KUBECONFIG: join(ROOT, "no-such-kubeconfig") },
  });
  return parseAllDocuments(text).map((d) => d.toJS() as Doc);
}

const find = (docs: Doc[], kind: string, name = "llsd-hooks"): Doc => {
  const found = docs.find((d) => d.kind === kind && d.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in the build`);
  return found;
};

/** Metric names in a PromQL expression: identifiers left once strings, matchers, groupings, ranges and functions are taken out. */
const PROMQL_WORDS = new Set([
  "sum",
  "max",
  "min",
  "count",
  "rate",
  "absent",
  "by",
  "on",
  "group_left",
  "or",
  "and",
  "unless",
]);
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"[^"]*"/g, "")
    .replace(/\{[^}]*\}/g, "")
    .replace(/\[[^\]]*\]/g, "")
    .replace(/\b(by|on|group_left)\s*\([^)]*\)/g, "");
  return [...new Set((bare.match(/[a-zA-Z_:][a-zA-Z0-9_:]*/g) ?? []).filter((w) => !PROMQL_WORDS.has(w)))];
}
/** The labels an expression groups or joins by. */
function groupingLabels(expr: string): string[] {
  return [...expr.matchAll(/\b(?:by|on)\s*\(([^)]*)\)/g)].flatMap((m) =>
    m[1]!
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  );
}

/** Every metric the app's /metrics lists (after a /sync call), with the label names it is declared with. */
async function exposedMetrics(): Promise<Map<string, Set<string>>> {
  const { app, metrics } = aTestApp({
    handlers: { sync: () => Promise.resolve({ status: { phase: "Ready" }, children: [] }) },
  });
  await request(app)
    .post("/sync")
    .send(aRequest(aParent({ distribution: { name: "starter" } }, { status: { phase: "Failed" } })))
    .expect(200);
  const text = (await request(app).get("/metrics").expect(200)).text;
  const listed = new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!));
  const declared = metrics.registry.getMetricsAsArray() as unknown as { name: string; labelNames?: string[] }[];
  return new Map(declared.filter((m) => listed.has(m.name)).map((m) => [m.name, new Set(m.labelNames ?? [])]));
}

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
    const recorded = new Set(rules.flatMap((r) => (r.record ? [r.record] : [])));
    const exposed = await exposedMetrics();
    const used = rules.flatMap((r) => metricNames(r.expr));
    expect(used.filter((m) => !exposed.has(m) && !recorded.has(m) && m !== "up")).toEqual([]);
    // A recorded series has the labels its expression groups by; an exposed one those /metrics shows.
    const labelsOf = new Map([
      ...exposed,
      ...rules.flatMap((r) => (r.record ? [[r.record, new Set(groupingLabels(r.expr))] as const] : [])),
    ]);
    for (const r of rules) {
      const own = metricNames(r.expr).filter((m) => labelsOf.has(m));
      for (const label of groupingLabels(r.expr))
        expect({ expr: r.expr, label, known: own.some((m) => labelsOf.get(m)!.has(label)) }).toEqual({
          expr: r.expr,
          label,
          known: true,
        });
    }
    const all = rules.map((r) => r.expr).join("\n");
    expect(all).toContain('outcome="overloaded"');
    expect(all).toContain('outcome="timeout"');
    expect(all).toContain("llsd_hook_errors_total");
    expect(rules.find((r) => r.alert === "LlsdFailed")?.expr).toContain('phase="Failed"');
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

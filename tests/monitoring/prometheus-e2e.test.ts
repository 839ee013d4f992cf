/**
 * End to end, once: the real service (`node hooks/main.ts`) on 127.0.0.1 gets /sync calls for
 * two LLSDs named `chat` in two namespaces (one Failed) and a third LLSD; a real Prometheus
 * scrapes it as prometheus-operator would from the component's ServiceMonitor (target label
 * `namespace=llsd-hooks`, its honorLabels) and evaluates the component's rules. The recorded
 * series and the pending alert carry each LLSD's own namespace; the hooks' own series the
 * target's. Every query of the Grafana dashboard runs there too. Waits by polling, never on the
 * clock.
 */
import { parse } from "yaml";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startServiceProcess, type ServiceProcess } from "../reliability/process";
import { aParent, aRequest } from "../sync-builders";
import { dashboard, panelExprs } from "./support/dashboard";
import { COMPONENT, rulesDir } from "./support/promtool";
import { labelsOf, poll, startPrometheus, type PrometheusServer, type Sample } from "./support/prometheus";

const LLSDS = [
  { namespace: "team-a", name: "chat", phase: "Failed" },
  { namespace: "team-b", name: "chat", phase: "Ready" },
  { namespace: "team-b", name: "search", phase: "Ready" },
];

let hooks: ServiceProcess | undefined;
let prometheus: PrometheusServer | undefined;

/** The component's ServiceMonitor endpoint, as prometheus-operator reads it. */
function endpoint(): { path: string; honorLabels: boolean } {
  const monitor = parse(readFileSync(join(COMPONENT, "servicemonitor.yaml"), "utf8")) as {
    spec: { endpoints: { path: string; honorLabels?: boolean }[] };
  };
  const [first] = monitor.spec.endpoints;
  return { path: first!.path, honorLabels: first!.honorLabels ?? false };
}

async function sync(port: number, llsd: (typeof LLSDS)[number], uid: string): Promise<void> {
  const parent = aParent({ distribution: { name: "starter" } }, { name: llsd.name, status: { phase: llsd.phase } });
  const body = aRequest({ ...parent, metadata: { ...parent.metadata, namespace: llsd.namespace, uid } });
  const res = await fetch(`http://127.0.0.1:${port}/sync`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
}

beforeAll(async () => {
  hooks = await startServiceProcess({});
  for (const [i, llsd] of LLSDS.entries()) await sync(hooks.port, llsd, `uid-${i}`);
  const labels = { namespace: "llsd-hooks", service: "llsd-hooks", pod: "llsd-hooks-0", endpoint: "http" };
  const target = { address: `127.0.0.1:${hooks.port}`, ...endpoint(), labels };
  prometheus = await startPrometheus(target, join(rulesDir(), "rules.yaml"));
  const server = prometheus;
  // Scraped, then every recording rule and the pending alert evaluated once.
  await poll(async () => (await server.query('ALERTS{alertname="LlsdFailed"}')).length > 0, 30_000);
}, 60_000);

afterAll(async () => {
  await prometheus?.stop();
  await hooks?.kill();
});

it("records each LLSD under its own namespace and name, and counts three", async () => {
  const latest = await prometheus!.query("llsd:parent_phase:latest");
  expect(labelsOf(latest, "namespace", "name", "phase")).toEqual(LLSDS);
  const byPhase = await prometheus!.query("llsd:parents:count_by_phase");
  expect(byPhase.map((s) => [s.metric.phase, s.value[1]]).sort()).toEqual([
    ["Failed", "1"],
    ["Ready", "2"],
  ]);
  const byNamespace = await prometheus!.query("llsd:parents:count_by_namespace_phase");
  expect(byNamespace.map((s) => [s.metric.namespace, s.metric.phase, s.value[1]]).sort()).toEqual([
    ["team-a", "Failed", "1"],
    ["team-b", "Ready", "2"],
  ]);
});

it("LlsdFailed is pending for the Failed LLSD only, with its namespace", async () => {
  const alerts = await prometheus!.query('ALERTS{alertname="LlsdFailed"}');
  expect(labelsOf(alerts, "alertstate", "namespace", "name")).toEqual([
    { alertstate: "pending", namespace: "team-a", name: "chat" },
  ]);
});

it("the hooks' own series keep the target's namespace, and no label is renamed to exported_*", async () => {
  const calls = await prometheus!.query('llsd_hook_requests_total{hook="sync"}');
  expect(labelsOf(calls, "job", "namespace", "outcome")).toEqual([
    { job: "llsd-hooks", namespace: "llsd-hooks", outcome: "ok" },
  ]);
  expect(calls[0]?.value[1]).toBe(String(LLSDS.length));
  expect(await prometheus!.query('{__name__=~"llsd.*", exported_namespace=~".+"}')).toEqual([]);
});

it("runs every dashboard query; the LLSD panels show the three LLSDs, the hook panels the sync calls", async () => {
  const exprs = panelExprs(dashboard(), { hooks_namespace: "llsd-hooks", namespace: ".*" });
  const answers = await Promise.all(exprs.map(async (e) => ({ ...e, samples: await prometheus!.query(e.expr) })));
  const shown = (panel: string) => answers.filter((a) => a.panel === panel).flatMap((a) => a.samples);
  expect(labelsOf(shown("LLSDs by namespace and phase"), "namespace", "phase")).toEqual([
    { namespace: "team-a", phase: "Failed" },
    { namespace: "team-b", phase: "Ready" },
  ]);
  expect(labelsOf(shown("Failed LLSDs"), "namespace", "name")).toEqual([{ namespace: "team-a", name: "chat" }]);
  expect(shown("Replicas answering scrapes").map((sample) => sample.value[1])).toEqual(["1"]);
  // A rate needs two scrapes of the counter in its window: polled until there.
  const calls = exprs.find((e) => e.panel === "Calls by hook and outcome")!.expr;
  let rates: Sample[] = [];
  await poll(async () => (rates = await prometheus!.query(calls)).length > 0, 30_000);
  expect(labelsOf(rates, "hook", "outcome")).toEqual([{ hook: "sync", outcome: "ok" }]);
});

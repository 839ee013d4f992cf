/**
 * End to end, once: a stand-in for an OGX 1.3 server's scrape endpoint (every metric the 1.3
 * source defines, 10% of requests answered 500) scraped by a real Prometheus as
 * prometheus-operator would from the ServiceMonitor child the hooks build (its path, honorLabels
 * and relabelings: the LLSD's namespace and name, the servers' job), evaluating the
 * server-monitoring component's rules. The records and the pending error alert carry the LLSD's
 * namespace and name, and every query of every dashboard returns data. Waits by polling.
 */
import { join } from "node:path";
import { buildServiceMonitor } from "../../lib/children/service-monitor";
import { aContext } from "../lib/children/context-builder";
import { panelExprs } from "./support/dashboard";
import { labelsOf, poll, startPrometheus, type PrometheusServer } from "./support/prometheus";
import { rulesDir, SERVER_COMPONENT } from "./support/promtool";
import { serverDashboards } from "./support/server";
import { startStandIn, type StandIn } from "./support/stand-in-exporter";

const LLSD = { namespace: "team-a", name: "chat" };
let exporter: StandIn | undefined;
let prometheus: PrometheusServer | undefined;

/** The target as prometheus-operator builds it from the ServiceMonitor child: its endpoint and relabelings applied. */
function target(address: string) {
  const monitor = buildServiceMonitor(
    aContext({
      name: LLSD.name,
      namespace: LLSD.namespace,
      spec: { monitoring: {} },
      serverMonitoring: { serviceMonitors: true, scraperNamespace: "monitoring" },
    }),
  );
  const endpoint = monitor!.spec.endpoints[0]!;
  // prometheus-operator's own target labels, then the child's relabelings over them.
  const labels: Record<string, string> = {
    namespace: LLSD.namespace,
    service: `${LLSD.name}-service`,
    pod: `${LLSD.name}-0`,
    endpoint: endpoint.port,
    job: `${LLSD.name}-service`,
  };
  const meta: Record<string, string> = {
    __meta_kubernetes_service_label_app_kubernetes_io_instance: LLSD.name,
  };
  for (const r of endpoint.relabelings)
    labels[r.targetLabel] = "replacement" in r ? r.replacement : r.sourceLabels.map((s) => meta[s] ?? "").join(";");
  return { address, path: endpoint.path, honorLabels: false, labels };
}

beforeAll(async () => {
  exporter = await startStandIn();
  prometheus = await startPrometheus(target(exporter.address), join(rulesDir(SERVER_COMPONENT), "rules.yaml"));
  const server = prometheus;
  await poll(async () => (await server.query('ALERTS{alertname="LlsdServerErrors"}')).length > 0, 40_000);
}, 60_000);

afterAll(async () => {
  await prometheus?.stop();
  await exporter?.close();
});

it("the servers' series carry the job, the LLSD's namespace and name, and nothing is renamed", async () => {
  const up = await prometheus!.query('up{job="llsd-server"}');
  expect(labelsOf(up, "namespace", "name")).toEqual([LLSD]);
  expect(await prometheus!.query('{__name__=~"ogx_.*", exported_namespace=~".+"}')).toEqual([]);
});

it("records the request rate and the 5xx ratio per LLSD, and the error alert is pending for it", async () => {
  const ratio = await prometheus!.query("llsd_server:request_errors:ratio_rate5m");
  expect(labelsOf(ratio, "namespace", "name")).toEqual([LLSD]);
  expect(Number(ratio[0]!.value[1])).toBeCloseTo(0.1, 5);
  const alerts = await prometheus!.query('ALERTS{alertname="LlsdServerErrors"}');
  expect(labelsOf(alerts, "alertstate", "namespace", "name")).toEqual([{ alertstate: "pending", ...LLSD }]);
  expect(await prometheus!.query('ALERTS{alertname="LlsdServerDown"}')).toEqual([]);
});

it("every query of every dashboard returns data for the LLSD", async () => {
  const exprs = serverDashboards().flatMap(({ file, board }) =>
    panelExprs(board, { datasource: "prometheus", ...LLSD }).map((e) => ({ file, ...e })),
  );
  const empty = async () => {
    const answers = await Promise.all(exprs.map(async (e) => ({ ...e, n: (await prometheus!.query(e.expr)).length })));
    return answers.filter((a) => a.n === 0).map(({ file, panel, refId, expr }) => ({ file, panel, refId, expr }));
  };
  let left: Awaited<ReturnType<typeof empty>> = [];
  await poll(async () => (left = await empty()).length === 0, 20_000).catch(() => undefined);
  expect(left).toEqual([]);
}, 30_000);

/**
 * The Grafana dashboard's queries: each parses (promtool check rules on a rules file made of
 * them), and each metric and label it names is one a real app's /metrics exports after a /sync
 * (or a series the PrometheusRule records, or a target label). The variables' own queries
 * likewise. tests/monitoring/prometheus-e2e.test.ts runs every query in a real Prometheus.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import { BUILTIN_VARIABLES, dashboard, panelExprs, variablesIn } from "./support/dashboard";
import { exposedMetrics, knownSeries, metricNames, unknownNames } from "./support/promql";
import { promtool, requirePrometheus, ruleGroups, rulesDir } from "./support/promtool";

const board = dashboard();
const variables = board.templating.list.map((v) => v.name);
/** Any value parses; the values real queries use are in the e2e test. */
const exprs = panelExprs(board, Object.fromEntries(variables.map((name) => [name, "value"])));
const rules = ruleGroups().flatMap((g) => g.rules);

beforeAll(() => requirePrometheus());

it("every panel's query parses (promtool)", () => {
  const dir = rulesDir();
  const recorded = exprs.map((e, i) => ({ record: `dashboard:query_${i}`, expr: e.expr }));
  writeFileSync(join(dir, "dashboard.yaml"), stringify({ groups: [{ name: "dashboard", rules: recorded }] }));
  const run = promtool(["check", "rules", "dashboard.yaml"], dir);
  expect(run).toEqual({ status: 0, output: expect.stringContaining(`SUCCESS: ${exprs.length} rules found`) });
});

it("every metric and label a panel names is exported by the hooks, recorded by the rules, or a target label", async () => {
  const known = knownSeries(await exposedMetrics(), rules);
  expect(exprs.map((e) => ({ ...e, unknown: unknownNames(e.expr, known) }))).toEqual(
    exprs.map((e) => ({ ...e, unknown: [] })),
  );
});

it("the variables' label_values queries name known series and labels; panels use only defined variables", async () => {
  const known = knownSeries(await exposedMetrics(), rules);
  for (const v of board.templating.list.filter((v) => v.type === "query")) {
    const query = typeof v.query === "string" ? v.query : v.query!.query;
    const [, metric, label] = /^label_values\(([\w:]+), (\w+)\)$/.exec(query) ?? [];
    expect({ query, metric: known.has(metric!), label: unknownNames(`${metric}{${label}=""}`, known) }).toEqual({
      query,
      metric: true,
      label: [],
    });
  }
  const used = board.panels.flatMap((p) => [
    ...variablesIn(JSON.stringify(p.datasource ?? {})),
    ...(p.targets ?? []).flatMap((t) => variablesIn(t.expr)),
  ]);
  expect([...new Set(used)].filter((name) => !variables.includes(name) && !(name in BUILTIN_VARIABLES))).toEqual([]);
});

it("has the panels the monitoring docs promise, each with a query on the chosen data source", () => {
  const panels = board.panels.filter((p) => p.type !== "row");
  expect(new Set(board.panels.map((p) => p.id)).size).toBe(board.panels.length);
  for (const p of panels) {
    expect({ title: p.title, datasource: p.datasource?.uid, queries: (p.targets ?? []).length > 0 }).toEqual({
      title: p.title,
      datasource: "${datasource}",
      queries: true,
    });
  }
  const read = new Set(exprs.flatMap((e) => metricNames(e.expr)));
  for (const metric of [
    "llsd_hook_duration_seconds_bucket",
    "llsd_hook_errors_total",
    "llsd_hook_requests_total",
    "llsd_hook_reused_total",
    "llsd_image_reads_total",
    "llsd:parents:count_by_namespace_phase",
    "llsd:parent_phase:latest",
  ])
    expect({ metric, read: read.has(metric) }).toEqual({ metric, read: true });
  expect(exprs.some((e) => e.expr.includes('outcome=~"overloaded|timeout"'))).toBe(true);
});

describe("the name check itself", () => {
  it.each([
    ["rate(llsd_hook_requests_totl[5m])", ["llsd_hook_requests_totl"]],
    ['sum by (verb) (rate(llsd_hook_requests_total{outcome="ok"}[5m]))', ["label verb"]],
    ['llsd_image_reads_total{reads="base_config"}', ["label reads"]],
    ["histogram_quantile(0.9, sum by (le) (rate(llsd_hook_duration_seconds_bucket[5m])))", []],
    ["histogram_quantile(0.9, sum by (le) (rate(llsd_hook_duration_seconds_sum[5m])))", ["label le"]],
  ])("%s → unknown %j", async (expr, unknown) => {
    expect(unknownNames(expr, knownSeries(await exposedMetrics(), rules))).toEqual(unknown);
  });
});

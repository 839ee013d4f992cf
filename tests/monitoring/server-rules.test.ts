/**
 * metacontroller/components/server-monitoring's rules and dashboards, offline: the alert rules
 * run by `promtool test rules` on the scenarios in tests/fixtures/monitoring/server/ (each alert
 * fires for the right LLSD and resolves; 4xx and a single replica down stay quiet), every query
 * parses (promtool), and every metric and label they name is one OGX 1.3.0 serves
 * (tests/fixtures/monitoring/ogx-1.3.0-metrics.json) or one the ServiceMonitor child gives. The
 * dashboards are the generator's output (scripts/gen-server-dashboards.ts), the overview linking
 * to each detail.
 */
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import { serverDashboardFiles } from "../../scripts/gen-server-dashboards";
import { panelExprs, variablesIn, BUILTIN_VARIABLES } from "./support/dashboard";
import { labelsUsed } from "./support/promql";
import { promtool, requirePrometheus, ruleGroups, rulesDir, SERVER_COMPONENT } from "./support/promtool";
import {
  serverDashboards,
  serverSeries,
  SERVER_DASHBOARDS,
  SERVER_FIXTURES,
  SERVER_TARGET_LABELS,
  seriesNames,
} from "./support/server";

const SCENARIO_DIR = join(SERVER_FIXTURES, "server");
const SCENARIOS = readdirSync(SCENARIO_DIR).filter((f) => f.endsWith(".test.yaml"));
const rules = ruleGroups(SERVER_COMPONENT).flatMap((g) => g.rules);
const dashboards = serverDashboards();
const VALUES = { datasource: "prometheus", namespace: "team-a", name: "chat" };

/** Known series: the 1.3 metrics, the rules' records (with the labels they keep), and `up`. */
function known(): Map<string, ReadonlySet<string>> {
  return new Map<string, ReadonlySet<string>>([
    ...serverSeries(),
    ...rules.flatMap((r) => (r.record ? [[r.record, new Set(labelsUsed(r.expr))] as const] : [])),
    ["up", SERVER_TARGET_LABELS],
  ]);
}

/** What an expression names that neither OGX 1.3.0 nor the ServiceMonitor gives. */
function unknownIn(expr: string): string[] {
  const series = known();
  const names = seriesNames(expr);
  const labels = labelsUsed(expr).filter(
    (l) => l !== "__name__" && !SERVER_TARGET_LABELS.has(l) && !names.some((m) => series.get(m)?.has(l)),
  );
  return [...names.filter((m) => !series.has(m)), ...labels.map((l) => `label ${l}`)];
}

beforeAll(() => requirePrometheus());

describe("alert rules", () => {
  it("has a scenario per alert (down, error ratio, latency, first token, tool errors)", () => {
    expect(SCENARIOS.sort()).toEqual([
      "server-down.test.yaml",
      "server-errors.test.yaml",
      "server-first-token.test.yaml",
      "server-latency.test.yaml",
      "server-tool-errors.test.yaml",
    ]);
    expect(rules.filter((r) => r.alert).map((r) => r.alert)).toEqual([
      "LlsdServerDown",
      "LlsdServerErrors",
      "LlsdServerSlow",
      "LlsdServerSlowFirstToken",
      "LlsdServerToolErrors",
    ]);
  });

  it("the PrometheusRule's spec is a valid rules file", () => {
    const run = promtool(["check", "rules", "rules.yaml"], rulesDir(SERVER_COMPONENT));
    expect(run).toEqual({ status: 0, output: expect.stringContaining(`SUCCESS: ${rules.length} rules found`) });
  });

  it.each(SCENARIOS)("%s: each alert fires for the right LLSD, and resolves", (file) => {
    const dir = rulesDir(SERVER_COMPONENT);
    copyFileSync(join(SCENARIO_DIR, file), join(dir, file));
    expect(promtool(["test", "rules", file], dir)).toEqual({ status: 0, output: expect.stringContaining("SUCCESS") });
  });

  it("every alert and record groups by the LLSD's namespace and name", () => {
    for (const r of rules)
      expect({ rule: r.alert ?? r.record, by: r.expr }).toEqual({
        rule: r.alert ?? r.record,
        by: expect.stringMatching(/by \(namespace, name(, \w+)*\)|llsd_server:/),
      });
  });

  it.each(rules.map((r) => [r.alert ?? r.record!, r.expr] as const))(
    "%s reads only 1.3 metrics and labels",
    (_rule, expr) => {
      expect(unknownIn(expr)).toEqual([]);
    },
  );
});

describe.each(dashboards.map((d) => [d.file, d.board] as const))("dashboard %s", (file, board) => {
  const exprs = panelExprs(board, VALUES);

  it("every query parses (promtool)", () => {
    const dir = rulesDir(SERVER_COMPONENT);
    const recorded = exprs.map((e, i) => ({ record: `dashboard:query_${i}`, expr: e.expr }));
    writeFileSync(join(dir, "dashboard.yaml"), stringify({ groups: [{ name: file, rules: recorded }] }));
    const run = promtool(["check", "rules", "dashboard.yaml"], dir);
    expect(run).toEqual({ status: 0, output: expect.stringContaining(`SUCCESS: ${exprs.length} rules found`) });
  });

  it("every metric and label a query names is one OGX 1.3.0 serves or the ServiceMonitor gives", () => {
    expect(exprs.map((e) => ({ ...e, unknown: unknownIn(e.expr) }))).toEqual(exprs.map((e) => ({ ...e, unknown: [] })));
  });

  it("every query selects the servers' job and the chosen LLSDs, on the chosen data source", () => {
    for (const p of board.panels.filter((p) => (p.targets ?? []).length > 0)) {
      expect({ panel: p.title, uid: p.datasource?.uid }).toEqual({ panel: p.title, uid: "${datasource}" });
      for (const t of p.targets ?? [])
        expect({ panel: p.title, expr: t.expr }).toEqual({
          panel: p.title,
          expr: expect.stringContaining('job="llsd-server", namespace=~"$namespace", name=~"$name"'),
        });
    }
    const defined = board.templating.list.map((v) => v.name);
    const used = board.panels.flatMap((p) => (p.targets ?? []).flatMap((t) => variablesIn(t.expr)));
    expect([...new Set(used)].filter((v) => !defined.includes(v) && !(v in BUILTIN_VARIABLES))).toEqual([]);
  });
});

describe("the dashboards as a set", () => {
  it("are what npm run gen:dashboards writes, and nothing else", () => {
    const written = serverDashboardFiles();
    expect(dashboards.map((d) => d.file)).toEqual(written.map((w) => w.file).sort());
    for (const { file, text } of written)
      expect({ file, text: readFileSync(join(SERVER_DASHBOARDS, file), "utf8") }).toEqual({ file, text });
  });

  it("each is named after its uid, and the overview links to every other one", () => {
    for (const { file, board } of dashboards) expect(file).toBe(`${board.uid}.json`);
    const overview = dashboards.find((d) => d.board.uid === "llsd-server-overview")!.board as unknown as {
      panels: { fieldConfig?: { defaults: { links: { url: string }[] } } }[];
    };
    const linked = new Set(
      overview.panels.flatMap((p) =>
        (p.fieldConfig?.defaults.links ?? []).map((l) => /^\/d\/([\w-]+)\?/.exec(l.url)![1]!),
      ),
    );
    const others = dashboards.map((d) => d.board.uid).filter((uid) => uid !== "llsd-server-overview");
    expect([...linked].sort()).toEqual(others.sort());
  });
});

describe("the name check itself", () => {
  it.each([
    ['sum(ogx_ogx_requests_total{job="llsd-server"})', ["ogx_ogx_requests_total"]],
    [
      'sum(rate(ogx_vector_io_query_duration_seconds_sum{job="llsd-server"}[5m]))',
      ["ogx_vector_io_query_duration_seconds_sum"],
    ],
    ['sum by (route) (rate(ogx_requests_total{job="llsd-server"}[5m]))', ["label route"]],
    ['sum(rate({__name__=~"ogx_vector_io_(inserts|upserts)_total"}[5m]))', ["ogx_vector_io_upserts_total"]],
    ["histogram_quantile(0.5, sum by (name, le) (rate(ogx_request_duration_seconds_bucket[5m])))", []],
  ])("%s → unknown %j", (expr, unknown) => {
    expect(unknownIn(expr)).toEqual(unknown);
  });
});

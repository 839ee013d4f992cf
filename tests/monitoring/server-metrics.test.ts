/**
 * The list of the OGX 1.3.0 server's series (tests/fixtures/monitoring/ogx-1.3.0-metrics.json)
 * against what the real server served (ogx-1.3.0-scrape.prom: its scrape endpoint after a chat,
 * a streamed chat, vector store and Responses calls), against docs/monitoring.md's table, and
 * every selector of the server-monitoring component's rules and dashboards against the list:
 * each `metric{label...}` names a listed series and only labels that series has.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { panelExprs } from "./support/dashboard";
import { ROOT, ruleGroups, SERVER_COMPONENT } from "./support/promtool";
import {
  metricsFixture,
  serverDashboards,
  serverSeries,
  SERVER_FIXTURES,
  SERVER_TARGET_LABELS,
} from "./support/server";

const fixture = metricsFixture();
const scrape = readFileSync(join(SERVER_FIXTURES, "ogx-1.3.0-scrape.prom"), "utf8");

/** Each sample line of the scrape: its series name and label names. */
const samples = [...scrape.matchAll(/^([a-zA-Z_:][\w:]*)\{([^}]*)\}/gm)].map((m) => ({
  series: m[1]!,
  labels: [...m[2]!.matchAll(/(\w+)="/g)].map((l) => l[1]!),
}));

/** A sample's metric: the series name without a histogram's suffix. */
const metricOf = (series: string): string =>
  fixture.metrics[series] ? series : series.replace(/_(bucket|sum|count)$/, "");

describe("the list of series, against the real server's scrape", () => {
  const ogx = samples.filter((s) => s.series.startsWith("ogx_"));

  it("every ogx series the server served is listed, with only listed labels (and a histogram's le)", () => {
    const unlisted = ogx.flatMap(({ series, labels }) => {
      const metric = fixture.metrics[metricOf(series)];
      if (metric === undefined) return [series];
      const allowed = new Set([...metric.labels, ...fixture.commonLabels, "le"]);
      return labels.filter((l) => !allowed.has(l)).map((l) => `${series} label ${l}`);
    });
    expect(unlisted).toEqual([]);
  });

  it("every listed metric was served, but the chunk counter (its insert API was not called)", () => {
    const served = new Set(ogx.map((s) => metricOf(s.series)));
    expect(Object.keys(fixture.metrics).filter((m) => !served.has(m))).toEqual([
      "ogx_vector_io_chunks_processed_total",
    ]);
  });

  it("each listed metric's type is the one the server declares", () => {
    const declared = new Map([...scrape.matchAll(/^# TYPE (\w+) (\w+)$/gm)].map((m) => [m[1]!, m[2]!]));
    const differ = Object.entries(fixture.metrics).filter(
      ([m, { type }]) => declared.has(m) && declared.get(m) !== type,
    );
    expect(differ).toEqual([]);
  });
});

it("docs/monitoring.md lists every series with its labels, unit and source line", () => {
  const doc = readFileSync(join(ROOT, "docs", "monitoring.md"), "utf8");
  const rows = Object.keys(fixture.metrics).map((name) => ({
    name,
    row: doc.split("\n").find((line) => line.startsWith(`| \`${name}\` |`)),
  }));
  for (const { name, row } of rows) {
    const m = fixture.metrics[name]!;
    expect({ name, row }).toEqual({ name, row: expect.stringContaining(m.source) });
    expect({ name, row }).toEqual({ name, row: expect.stringContaining(`| ${m.type} |`) });
    for (const label of m.labels) expect({ name, row }).toEqual({ name, row: expect.stringContaining(`\`${label}\``) });
  }
});

/** Every `metric{matchers}` selector of an expression, with the labels its matchers name. */
function selectors(expr: string): { metric: string; labels: string[] }[] {
  return [...expr.matchAll(/([a-zA-Z_:][\w:]*)\{([^}]*)\}/g)].map((m) => ({
    metric: m[1]!,
    labels: [...m[2]!.matchAll(/(\w+)\s*(?:=~|!~|!=|=)/g)].map((l) => l[1]!),
  }));
}

const known = new Map<string, ReadonlySet<string>>([...serverSeries(), ["up", SERVER_TARGET_LABELS]]);

/** What the selectors of an expression name that the list has not: a series, or a label of a listed series. */
function wrongIn(expr: string): string[] {
  return selectors(expr).flatMap(({ metric, labels }) => {
    const has = known.get(metric);
    return has === undefined ? [metric] : labels.filter((l) => !has.has(l)).map((l) => `${metric} label ${l}`);
  });
}

const exprs = [
  ...ruleGroups(SERVER_COMPONENT).flatMap((g) => g.rules.map((r) => ({ where: r.alert ?? r.record!, expr: r.expr }))),
  ...serverDashboards().flatMap(({ file, board }) =>
    panelExprs(board, { datasource: "prometheus", namespace: ".*", name: ".*" }).map((e) => ({
      where: `${file} ${e.panel} ${e.refId}`,
      expr: e.expr,
    })),
  ),
];

// Alerts that only compare a recorded series have no selector; every other expression has one.
it.each(exprs.filter((e) => e.expr.includes("{")).map((e) => [e.where, e.expr] as const))(
  "%s: each selector names a listed series and its labels",
  (_w, expr) => {
    expect(selectors(expr).length).toBeGreaterThan(0);
    expect(wrongIn(expr)).toEqual([]);
  },
);

it.each([
  [
    'rate(ogx_tool_runtime_duration_seconds_bucket{job="x", search_mode="vector"}[5m])',
    ["ogx_tool_runtime_duration_seconds_bucket label search_mode"],
  ],
  ['ogx_vector_io_stores_total{status="error"}', ["ogx_vector_io_stores_total label status"]],
  ['ogx_requests_total{route="/v1/models"}', ["ogx_requests_total label route"]],
  ['http_server_request_duration_seconds_count{job="x"}', ["http_server_request_duration_seconds_count"]],
  ['ogx_requests_total{status_code=~"5..", api="inference"}', []],
])("the selector check itself: %s → wrong %j", (expr, wrong) => {
  expect(wrongIn(expr)).toEqual(wrong);
});

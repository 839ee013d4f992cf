/**
 * The few Grafana dashboard shapes the server dashboards use (schema 39: rows, time series, stats,
 * tables, dashboard links), built from plain values so that every panel gets the same data
 * source variable, the same LLSD selector and a layout computed rather than typed.
 */

/** Every query of every server dashboard selects the hooks' servers and the chosen LLSDs. */
export const LLSD = 'job="llsd-server", namespace=~"$namespace", name=~"$name"';

/** One selector for a series: the LLSD selector, then the query's own matchers. */
export const sel = (matchers = ""): string => `{${LLSD}${matchers === "" ? "" : `, ${matchers}`}}`;

export type Unit = "reqps" | "ops" | "s" | "percentunit" | "short" | "none";

export interface Query {
  readonly expr: string;
  readonly legend: string;
}

export interface PanelSpec {
  readonly title: string;
  readonly description: string;
  readonly kind: "timeseries" | "stat" | "table";
  readonly unit: Unit;
  readonly queries: readonly Query[];
  /** Stat panels: the value from which the number turns red (and, below it, orange at 80 %). */
  readonly redAt?: number;
  /** A detail dashboard this panel explains further (its uid). */
  readonly link?: string;
}

export interface RowSpec {
  readonly title: string;
  readonly panels: readonly PanelSpec[];
}

export interface DashboardSpec {
  readonly uid: string;
  readonly title: string;
  readonly description: string;
  readonly rows: readonly RowSpec[];
}

const DATASOURCE = { type: "prometheus", uid: "${datasource}" };
const WIDTH = 24;

function thresholds(redAt: number | undefined): object {
  const steps: object[] = [{ color: "green", value: null }];
  if (redAt !== undefined) steps.push({ color: "orange", value: redAt * 0.8 }, { color: "red", value: redAt });
  return { mode: "absolute", steps };
}

function panel(p: PanelSpec, id: number, gridPos: object): object {
  const targets = p.queries.map((q, i) => ({
    refId: String.fromCharCode(65 + i),
    datasource: DATASOURCE,
    expr: q.expr,
    legendFormat: q.legend,
    ...(p.kind === "table" ? { format: "table", instant: true } : {}),
  }));
  const links =
    p.link === undefined ? [] : [{ title: "Details", url: `/d/${p.link}?\${__url_time_range}&\${__all_variables}` }];
  return {
    id,
    type: p.kind,
    title: p.title,
    description: p.description,
    datasource: DATASOURCE,
    gridPos,
    fieldConfig: { defaults: { unit: p.unit, thresholds: thresholds(p.redAt), links }, overrides: [] },
    options: p.kind === "stat" ? { reduceOptions: { calcs: ["lastNotNull"] }, colorMode: "background" } : {},
    targets,
  };
}

/** A row header, then its panels laid out left to right: stats 4 wide and 4 high, the others 12 by 8 (a table takes the width). */
function layout(rows: readonly RowSpec[]): object[] {
  const out: object[] = [];
  let id = 1;
  let y = 0;
  for (const row of rows) {
    out.push({
      id: id++,
      type: "row",
      title: row.title,
      collapsed: false,
      gridPos: { h: 1, w: WIDTH, x: 0, y },
      panels: [],
    });
    y += 1;
    let x = 0;
    let rowHeight = 0;
    for (const p of row.panels) {
      const w = p.kind === "stat" ? 4 : p.kind === "table" ? WIDTH : 12;
      const h = p.kind === "stat" ? 4 : 8;
      if (x + w > WIDTH) [x, y, rowHeight] = [0, y + rowHeight, 0];
      out.push(panel(p, id++, { h, w, x, y }));
      x += w;
      rowHeight = Math.max(rowHeight, h);
    }
    y += rowHeight;
  }
  return out;
}

/** The variables every server dashboard has: the data source, then the LLSDs' namespaces and names, as `up` lists them. */
function templating(): object {
  const variable = (name: string, label: string, query: string) => ({
    name,
    label,
    type: "query",
    datasource: DATASOURCE,
    query: { query, refId: name },
    definition: query,
    refresh: 2,
    multi: true,
    includeAll: true,
    allValue: ".*",
    current: { text: "All", value: "$__all" },
    sort: 1,
  });
  return {
    list: [
      { name: "datasource", label: "Data source", type: "datasource", query: "prometheus", current: {} },
      variable("namespace", "Namespace", 'label_values(up{job="llsd-server"}, namespace)'),
      variable("name", "LLSD", 'label_values(up{job="llsd-server", namespace=~"$namespace"}, name)'),
    ],
  };
}

/** The dashboard as Grafana stores it; every server dashboard links to the others through the shared tag. */
export function dashboard(spec: DashboardSpec): object {
  return {
    uid: spec.uid,
    title: spec.title,
    description: spec.description,
    tags: ["llsd", "llsd-server"],
    editable: true,
    graphTooltip: 1,
    schemaVersion: 39,
    time: { from: "now-6h", to: "now" },
    refresh: "1m",
    links: [
      {
        title: "LLSD servers",
        type: "dashboards",
        tags: ["llsd-server"],
        asDropdown: true,
        includeVars: true,
        keepTime: true,
      },
    ],
    templating: templating(),
    panels: layout(spec.rows),
  };
}

/**
 * Panel shorthands of the detail dashboards: a time series whose legend follows the labels its
 * query sums by, and the usual percentiles of a histogram.
 */
import type { PanelSpec, Unit } from "./grafana";
import { quantile } from "./promql";

/** A series per value of the labels the query sums by (`{{a}} {{b}}`), or one named after the panel. */
export function legendOf(title: string, expr: string): string {
  const labels =
    /by \(([^)]*)\)/
      .exec(expr)?.[1]
      ?.split(", ")
      .filter((l) => l !== "le") ?? [];
  return labels.length === 0 ? title : labels.map((l) => `{{${l}}}`).join(" ");
}

export const ts = (title: string, description: string, unit: Unit, expr: string): PanelSpec => ({
  title,
  description,
  kind: "timeseries",
  unit,
  queries: [{ expr, legend: legendOf(title, expr) }],
});

/** p50, p95 and p99 of a histogram in one panel. */
export const percentiles = (title: string, description: string, histogram: string, matchers = ""): PanelSpec => ({
  title,
  description,
  kind: "timeseries",
  unit: "s",
  queries: [0.5, 0.95, 0.99].map((q) => ({
    expr: quantile(q, histogram, "", matchers),
    legend: `p${Math.round(q * 100)}`,
  })),
});

export const ERR = 'status="error"';

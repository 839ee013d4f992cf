/**
 * The LLSD servers' side of monitoring (metacontroller/components/server-monitoring): the metric
 * names OGX 1.3.0 serves (tests/fixtures/monitoring/ogx-1.3.0-metrics.json, with their sources),
 * as the series Prometheus stores from a ServiceMonitor child, and the component's dashboards.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Dashboard } from "./dashboard";
import { metricNames, TARGET_LABELS } from "./promql";
import { ROOT, SERVER_COMPONENT } from "./promtool";

export const SERVER_FIXTURES = join(ROOT, "tests", "fixtures", "monitoring");

export interface MetricsFixture {
  readonly commonLabels: readonly string[];
  readonly metrics: {
    readonly [name: string]: {
      readonly type: string;
      readonly unit: string;
      readonly labels: readonly string[];
      readonly source: string;
    };
  };
}

export function metricsFixture(): MetricsFixture {
  return JSON.parse(readFileSync(join(SERVER_FIXTURES, "ogx-1.3.0-metrics.json"), "utf8")) as MetricsFixture;
}

/** Labels every series of a server gets from its ServiceMonitor: the target's, plus the LLSD's `name`. */
export const SERVER_TARGET_LABELS: ReadonlySet<string> = new Set([...TARGET_LABELS, "name"]);

/** Every series name the 1.3 scrape endpoint serves, with its labels (a histogram's `_bucket` with `le`). */
export function serverSeries(): Map<string, ReadonlySet<string>> {
  const fixture = metricsFixture();
  return new Map(
    Object.entries(fixture.metrics).flatMap(([name, { type, labels }]) => {
      const own = new Set([...labels, ...fixture.commonLabels, ...SERVER_TARGET_LABELS]);
      if (type !== "histogram") return [[name, own] as const];
      return [
        [`${name}_bucket`, new Set([...own, "le"])] as const,
        [`${name}_sum`, own] as const,
        [`${name}_count`, own] as const,
      ];
    }),
  );
}

/** Metric names in an expression, those a `__name__=~"a_(b|c)_total"` matcher names included. */
export function seriesNames(expr: string): string[] {
  const matched = [...expr.matchAll(/__name__=~"([\w]*)\(([\w|]+)\)([\w]*)"/g)].flatMap((m) =>
    m[2]!.split("|").map((alt) => `${m[1]}${alt}${m[3]}`),
  );
  return [...new Set([...metricNames(expr), ...matched])];
}

export const SERVER_DASHBOARDS = join(SERVER_COMPONENT, "dashboards");

export function serverDashboards(): { file: string; board: Dashboard }[] {
  return readdirSync(SERVER_DASHBOARDS)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((file) => ({ file, board: JSON.parse(readFileSync(join(SERVER_DASHBOARDS, file), "utf8")) as Dashboard }));
}

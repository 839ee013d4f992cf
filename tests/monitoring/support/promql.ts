/**
 * What a PromQL expression names, read from its text (no PromQL parser in Node; promtool checks
 * that the expressions parse): the metrics it reads and the labels it groups, joins or matches
 * by. And what a real app's /metrics exposes, to compare them with.
 */
import request from "supertest";
import { aTestApp } from "../../hooks/helpers";
import { aParent, aRequest } from "../../sync-builders";

/** Labels Prometheus adds to every series of a ServiceMonitor's target (prometheus-operator's relabeling). */
export const TARGET_LABELS = new Set(["namespace", "job", "instance", "pod", "service", "endpoint", "container"]);

/** Functions, aggregations and keywords: the identifiers in an expression that are not metrics. */
const PROMQL_WORDS = new Set(
  [
    "sum max min avg count topk bottomk rate irate increase absent histogram_quantile clamp_min",
    "by without on ignoring group_left group_right or and unless bool",
  ].flatMap((line) => line.split(" ")),
);

/** Metric names in a PromQL expression: identifiers left once strings, matchers, groupings, ranges and numbers are taken out. */
export function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"[^"]*"/g, "")
    .replace(/\{[^}]*\}/g, "")
    .replace(/\[[^\]]*\]/g, "")
    .replace(/\b(by|on|without|ignoring|group_left|group_right)\s*\([^)]*\)/g, "")
    .replace(/\b\d+(\.\d+)?\b/g, "");
  return [...new Set((bare.match(/[a-zA-Z_:][a-zA-Z0-9_:]*/g) ?? []).filter((w) => !PROMQL_WORDS.has(w)))];
}

/** The labels an expression groups, joins or matches by. */
export function labelsUsed(expr: string): string[] {
  const grouped = [...expr.matchAll(/\b(?:by|on|without|ignoring)\s*\(([^)]*)\)/g)].flatMap((m) => m[1]!.split(","));
  const matched = [...expr.matchAll(/\{([^}]*)\}/g)].flatMap((m) =>
    [...m[1]!.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)\s*(?:=~|!~|!=|=)/g)].map((x) => x[1]!),
  );
  return [...new Set([...grouped, ...matched].map((s) => s.trim()).filter(Boolean))];
}

/**
 * Every series name a real app's /metrics lists after a /sync call, with the label names it is
 * declared with (a histogram's `_bucket` with `le` too, `_sum` and `_count`).
 */
export async function exposedMetrics(): Promise<Map<string, Set<string>>> {
  const { app, metrics } = aTestApp({
    handlers: { sync: () => Promise.resolve({ status: { phase: "Ready" }, children: [] }) },
  });
  await request(app)
    .post("/sync")
    .send(aRequest(aParent({ distribution: { name: "starter" } }, { status: { phase: "Failed" } })))
    .expect(200);
  const text = (await request(app).get("/metrics").expect(200)).text;
  const types = new Map([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => [m[1]!, m[2]!]));
  const declared = metrics.registry.getMetricsAsArray() as unknown as { name: string; labelNames?: string[] }[];
  return new Map(
    declared.flatMap((m) => {
      const labels = new Set(m.labelNames ?? []);
      if (types.get(m.name) !== "histogram") return types.has(m.name) ? [[m.name, labels] as const] : [];
      return [
        [`${m.name}_bucket`, new Set([...labels, "le"])] as const,
        [`${m.name}_sum`, labels] as const,
        [`${m.name}_count`, labels] as const,
      ];
    }),
  );
}

/** Every metric and recorded series an expression may read, with its labels: /metrics, the rules' records, and `up`. */
export function knownSeries(
  exposed: ReadonlyMap<string, ReadonlySet<string>>,
  rules: readonly { record?: string; expr: string }[],
): Map<string, ReadonlySet<string>> {
  return new Map<string, ReadonlySet<string>>([
    ...exposed,
    // A recorded series has the labels its expression groups by.
    ...rules.flatMap((r) => (r.record ? [[r.record, new Set(labelsUsed(r.expr))] as const] : [])),
    ["up", TARGET_LABELS],
  ]);
}

/** What an expression names that no known series has: metrics, and labels neither its metrics nor the target have. */
export function unknownNames(expr: string, known: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const metrics = metricNames(expr);
  const labels = labelsUsed(expr).filter(
    (label) => !TARGET_LABELS.has(label) && !metrics.some((m) => known.get(m)?.has(label)),
  );
  return [...metrics.filter((m) => !known.has(m)), ...labels.map((l) => `label ${l}`)];
}

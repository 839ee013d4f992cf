/**
 * The component's Grafana dashboard (llsd-hooks-dashboard.json) as the tests read it: its
 * panels, and every PromQL expression in it with Grafana's variables replaced by values, so
 * promtool and Prometheus can read them.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { COMPONENT } from "./promtool";

export const DASHBOARD_FILE = join(COMPONENT, "llsd-hooks-dashboard.json");

export interface Target {
  readonly refId: string;
  readonly expr: string;
  readonly datasource?: { uid?: string };
}

export interface Panel {
  readonly id: number;
  readonly type: string;
  readonly title: string;
  readonly datasource?: { type?: string; uid?: string };
  readonly targets?: Target[];
}

export interface Dashboard {
  readonly uid: string;
  readonly panels: Panel[];
  readonly templating: { list: { name: string; type: string; query?: string | { query: string } }[] };
}

export function dashboard(): Dashboard {
  return JSON.parse(readFileSync(DASHBOARD_FILE, "utf8")) as Dashboard;
}

/** Grafana's own variables in a query, with a value each that Prometheus accepts. */
export const BUILTIN_VARIABLES: Readonly<Record<string, string>> = { __rate_interval: "1m", __interval: "30s" };

/** `$name` and `${name}` in a text. */
export function variablesIn(text: string): string[] {
  return [...text.matchAll(/\$\{?(\w+)\}?/g)].map((m) => m[1]!);
}

/** Each panel's expressions, with every variable replaced by `values[name]` or a built-in's value; an unknown one throws. */
export function panelExprs(
  board: Dashboard,
  values: Readonly<Record<string, string>>,
): { panel: string; refId: string; expr: string }[] {
  const all = { ...BUILTIN_VARIABLES, ...values };
  return board.panels.flatMap((p) =>
    (p.targets ?? []).map((t) => ({
      panel: p.title,
      refId: t.refId,
      expr: t.expr.replace(/\$\{?(\w+)\}?/g, (_, name: string) => {
        const value = all[name];
        if (value === undefined) throw new Error(`${p.title} ${t.refId}: no value for the variable $${name}`);
        return value;
      }),
    })),
  );
}

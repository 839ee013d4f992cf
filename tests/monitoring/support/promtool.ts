/**
 * Debian's `prometheus` package (2.42: `prometheus` and `promtool`) for the monitoring tests,
 * and the rules they check: the `spec` of the component's real PrometheusRule, written as a
 * Prometheus rules file. Missing binary = failed suite, not a skip.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse, stringify } from "yaml";

export const ROOT = join(__dirname, "..", "..", "..");
export const COMPONENT = join(ROOT, "metacontroller", "components", "monitoring");
/** The LLSD servers' monitoring (spec.monitoring): ServiceMonitor children, alerts, dashboards. */
export const SERVER_COMPONENT = join(ROOT, "metacontroller", "components", "server-monitoring");

export const INSTALL_HINT =
  "The monitoring tests need Debian's prometheus package (prometheus, promtool): run `apt-get install -y prometheus`.";

export function requirePrometheus(): void {
  for (const tool of ["promtool", "prometheus"]) {
    const probe = spawnSync(tool, ["--version"], { encoding: "utf8" });
    if (probe.error !== undefined) throw new Error(`${INSTALL_HINT} (${tool}: ${probe.error.message})`);
  }
}

export interface Rule {
  readonly record?: string;
  readonly alert?: string;
  readonly expr: string;
}

/** The PrometheusRule's `spec` (its rule groups) as the component ships it. */
export function ruleGroups(component: string = COMPONENT): { name: string; rules: Rule[] }[] {
  const manifest = parse(readFileSync(join(component, "prometheusrule.yaml"), "utf8")) as {
    spec: { groups: { name: string; rules: Rule[] }[] };
  };
  return manifest.spec.groups;
}

/** A fresh directory holding `rules.yaml`: the PrometheusRule's spec, which is a rules file as is. */
export function rulesDir(component: string = COMPONENT): string {
  const dir = mkdtempSync(join(tmpdir(), "llsd-rules-"));
  writeFileSync(join(dir, "rules.yaml"), stringify({ groups: ruleGroups(component) }));
  return dir;
}

/** Runs promtool in `cwd`; its combined output is kept for the failure message. */
export function promtool(args: readonly string[], cwd: string): { status: number | null; output: string } {
  const run = spawnSync("promtool", args, { cwd, encoding: "utf8", timeout: 60_000 });
  if (run.error !== undefined) throw new Error(`${INSTALL_HINT} (${run.error.message})`);
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

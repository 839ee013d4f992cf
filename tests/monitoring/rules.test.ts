/**
 * The component's alert and recording rules, run by `promtool test rules` (Debian prometheus
 * 2.42) on the rules extracted from the real PrometheusRule at test time. The scenarios live in
 * tests/fixtures/monitoring/*.test.yaml: two same-named LLSDs in two namespaces (one Failed), a
 * hooks replica restart, 429/503 bursts, hooks down. Each fixture's series carry the labels
 * Prometheus stores with the ServiceMonitor's honorLabels; the same series as stored without
 * it (the LLSD's namespace moved to `exported_namespace`) must fail, as they did in the issue.
 */
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promtool, requirePrometheus, ROOT, ruleGroups, rulesDir } from "./support/promtool";

const FIXTURES = join(ROOT, "tests", "fixtures", "monitoring");
const SCENARIOS = readdirSync(FIXTURES).filter((f) => f.endsWith(".test.yaml"));

beforeAll(() => requirePrometheus());

it("has the four scenarios", () => {
  expect(SCENARIOS.sort()).toEqual([
    "bursts.test.yaml",
    "hooks-down.test.yaml",
    "replica-restart.test.yaml",
    "two-namespaces.test.yaml",
  ]);
});

it("the PrometheusRule's spec is a valid rules file", () => {
  const count = ruleGroups().flatMap((g) => g.rules).length;
  const run = promtool(["check", "rules", "rules.yaml"], rulesDir());
  expect(run).toEqual({ status: 0, output: expect.stringContaining(`SUCCESS: ${count} rules found`) });
});

it.each(SCENARIOS)("%s: every alert fires or stays quiet as expected, every recorded value is right", (file) => {
  const dir = rulesDir();
  copyFileSync(join(FIXTURES, file), join(dir, file));
  const run = promtool(["test", "rules", file], dir);
  expect(run).toEqual({ status: 0, output: expect.stringContaining("SUCCESS") });
});

it("without honorLabels (the LLSD's namespace stored as exported_namespace) the Failed LLSD is masked", () => {
  const dir = rulesDir();
  const honored = readFileSync(join(FIXTURES, "two-namespaces.test.yaml"), "utf8");
  const renamed = honored.replace(/namespace="(team-[ab])"/g, 'namespace="llsd-hooks",exported_namespace="$1"');
  expect(renamed).not.toBe(honored);
  writeFileSync(join(dir, "renamed.test.yaml"), renamed);
  const run = promtool(["test", "rules", "renamed.test.yaml"], dir);
  expect(run.status).toBe(1);
  // team-b/chat, seen a few seconds later, hides team-a/chat: no alert and two parents, not three.
  expect(run.output).toContain("alertname: LlsdFailed, time: 16m");
  expect(run.output).toMatch(/got:\s*\[\s*\]/);
  expect(run.output).toContain('got: {__name__="llsd:parents:count_by_phase", phase="Ready"} 2E+00\n');
});

/** `npm run bench`: bounded, in-process benchmarks that print figures and ratios to a same-process baseline. */
import { benchGenerate } from "./generate";

const BUDGET_MEDIAN_MS = 0.3;

function ms(n: number): string {
  return `${n.toFixed(3)} ms`;
}

const { generate, baseline } = benchGenerate();
const rows = [
  ["config generation (full-featured sample)", ms(generate.median), ms(generate.p99), `≤ ${BUDGET_MEDIAN_MS} ms median`, generate.median <= BUDGET_MEDIAN_MS ? "pass" : "FAIL"],
  ["baseline: parse + stringify the base config", ms(baseline.median), ms(baseline.p99), "", ""],
  ["ratio generation / baseline", (generate.median / baseline.median).toFixed(2), (generate.p99 / baseline.p99).toFixed(2), "", ""],
];
console.log(`Node ${process.version}, ${process.platform}/${process.arch}`);
console.log("| figure | median | p99 | budget | result |\n|---|---|---|---|---|");
for (const r of rows) console.log(`| ${r.join(" | ")} |`);
if (process.argv.includes("--check") && generate.median > BUDGET_MEDIAN_MS) process.exitCode = 1;

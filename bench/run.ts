/**
 * `npm run bench`: bounded, in-process benchmarks. Each figure is printed beside a baseline run
 * in the same process, so the ratio holds on a noisy machine. `--check` exits 1 on a missed budget.
 */
import { cpus } from "node:os";
import { benchGenerate, type Timing } from "./generate";

const BUDGET_MEDIAN_MS = 0.3;

function ms(n: number): string {
  return `${n.toFixed(3)} ms`;
}

function row(figure: string, t: Timing, budget: string, pass?: boolean): string {
  return `| ${figure} | ${ms(t.median)} | ${ms(t.p99)} | ${budget} | ${pass === undefined ? "" : pass ? "pass" : "FAIL"} |`;
}

const { generate, render, baseline } = benchGenerate();
const generatePass = generate.median <= BUDGET_MEDIAN_MS;
console.log(`Machine: ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}; Node ${process.version}; command: npm run bench`);
console.log("");
console.log("| figure | median | p99 | budget | result |");
console.log("|---|---|---|---|---|");
console.log(row("generate config.yaml, full-featured sample (samples/autoscaling-full.yaml)", generate, `median ≤ ${BUDGET_MEDIAN_MS} ms`, generatePass));
console.log(row("validate + generate (render) of the same sample", render, "(reported)"));
console.log(row("baseline: yaml parse + stringify of the starter base config", baseline, "(baseline)"));
console.log(`| ratio generate / baseline | ${(generate.median / baseline.median).toFixed(3)} | ${(generate.p99 / baseline.p99).toFixed(3)} | | |`);
if (process.argv.includes("--check") && !generatePass) process.exitCode = 1;

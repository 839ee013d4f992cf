/**
 * Benchmark: time to turn the full-featured sample into config.yaml (normalize, validate,
 * generate), against a baseline in the same process: parsing and re-serializing the same
 * base config with the same YAML library — the least any generator must do.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse, stringify } from "yaml";
import { render } from "../lib/config/render";
import { bundledBaseConfig } from "../lib/distributions/bundled";

export interface Timing {
  readonly median: number;
  readonly p99: number;
}

function measure(fn: () => void, iterations: number): Timing {
  for (let i = 0; i < Math.min(200, iterations); i++) fn(); // warm up the JIT and caches
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = process.hrtime.bigint();
    fn();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number): number => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? NaN;
  return { median: at(0.5), p99: at(0.99) };
}

export function sampleSpec(file = "autoscaling-full.yaml"): unknown {
  const text = readFileSync(join(__dirname, "..", "samples", file), "utf8");
  const doc = parse(text.split(/^---$/m).find((d) => d.includes("kind: LlamaStackDistribution")) ?? "") as { spec: unknown };
  return doc.spec;
}

export function benchGenerate(iterations = 2000): { generate: Timing; baseline: Timing } {
  const spec = sampleSpec();
  const base = bundledBaseConfig("starter", "0.7") ?? "";
  const check = render(spec, { name: "bench" });
  if (!check.ok) throw new Error(`the sample does not render: ${JSON.stringify(check.errors)}`);
  const generate = measure(() => void render(spec, { name: "bench" }), iterations);
  const baseline = measure(() => void stringify(parse(base)), iterations);
  return { generate, baseline };
}

/**
 * Benchmark: time to turn the full-featured sample into config.yaml (normalize, validate,
 * generate; the code as built, bench/built.ts), against a baseline in the same process: parsing and re-serializing the same
 * base config with the same YAML library — the least any generator must do.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse, stringify } from "yaml";
import { validate } from "../lib/api/validate";
import { own } from "../lib/json";
import { bundledBaseConfig } from "../lib/distributions/bundled";
import { builtGenerate, builtRender } from "./built";
import { measure, type Timing } from "./stats";

export function sampleSpec(file = "autoscaling-full.yaml"): unknown {
  const text = readFileSync(join(__dirname, "..", "samples", file), "utf8");
  const doc: unknown = parse(text.split(/^---$/m).find((d) => d.includes("kind: LlamaStackDistribution")) ?? "");
  return own(doc, "spec");
}

export interface GenerateBench {
  /** generate() alone: merge, resources, storage, serialize, hash. */
  readonly generate: Timing;
  /** render(): schema + semantic validation, normalize, then generate. */
  readonly render: Timing;
  readonly baseline: Timing;
}

export function benchGenerate(iterations = 3000): GenerateBench {
  const { generate } = builtGenerate();
  const { render } = builtRender();
  const raw = sampleSpec();
  const base = bundledBaseConfig("starter", "0.7") ?? "";
  const checked = validate(raw);
  if (!checked.spec || checked.errors.length > 0)
    throw new Error(`the sample is invalid: ${JSON.stringify(checked.errors)}`);
  const spec = checked.spec;
  const once = generate(spec, base, "0.7", { name: "bench" });
  if (!once.ok) throw new Error(`the sample does not generate: ${JSON.stringify(once.errors)}`);
  return {
    generate: measure(() => void generate(spec, base, "0.7", { name: "bench" }), iterations),
    render: measure(() => void render(raw, { name: "bench" }), iterations),
    // ~5 ms a call: fewer iterations give the same median.
    baseline: measure(() => void stringify(parse(base)), Math.ceil(iterations / 5)),
  };
}

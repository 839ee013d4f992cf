/**
 * Replays one endpoint's recorded traffic against the builds of several trees, interleaved:
 * pair 1 of every tree, then pair 2 of every tree (each round starting one tree further), so
 * the machine's load moves all of them alike. How a change's gain is measured
 * (docs/development.md, "Where a call's time goes"):
 *
 *   npx tsx bench/variants.ts --endpoint convert --pairs 6 /path/to/tree-a /path/to/tree-b
 *
 * Each tree must hold `dist/` (`npm run build` there). `--passes N` replays N passes per
 * process (default: the replay's); `--per-pass` prints every pass's CPU per call. Prints a
 * JSON line per pair, then each tree's median, lowest and highest steady and warm ratios.
 */
import { resolve } from "node:path";
import { deploymentArgs, MAIN } from "./service";
import { PASSES, replayPair, type EndpointReplay } from "./replay";
import { median } from "./stats";
import { ENDPOINTS, readTraffic, type Endpoint } from "./traffic";

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i < 0 ? fallback : (process.argv[i + 1] ?? fallback);
}

const isEndpoint = (name: string): name is Endpoint => ENDPOINTS.some((e) => e === name);

function settings() {
  const endpoint = option("--endpoint", "");
  if (!isEndpoint(endpoint)) throw new Error(`--endpoint: one of ${ENDPOINTS.join(", ")}`);
  const valued = new Set(["--endpoint", "--pairs", "--passes"]);
  const trees = process.argv
    .slice(2)
    .filter((arg, i, args) => !arg.startsWith("--") && !valued.has(args[i - 1] ?? ""))
    .map((tree) => resolve(tree));
  if (trees.length === 0) throw new Error("name at least one tree with dist/ built");
  return {
    endpoint,
    trees,
    pairs: Number(option("--pairs", "3")),
    passes: Number(option("--passes", String(PASSES))),
    perPass: process.argv.includes("--per-pass"),
  };
}

const fixed = (n: number): string => n.toFixed(3);

function summary(tree: string, pairs: readonly EndpointReplay[]): string {
  const range = (xs: number[]): string => `${fixed(median(xs))} (${fixed(Math.min(...xs))}–${fixed(Math.max(...xs))})`;
  const failed = Math.max(...pairs.map((p) => p.failed));
  return `${tree}: steady ${range(pairs.map((p) => p.ratio))}, warm ${range(pairs.map((p) => p.warmRatio))}, ${pairs.length} pairs, failed answers ${failed}`;
}

async function main(): Promise<void> {
  const { endpoint, trees, pairs, passes, perPass } = settings();
  const records = readTraffic(endpoint);
  const flags = deploymentArgs().slice(0, -1);
  const byTree = new Map<string, EndpointReplay[]>(trees.map((t) => [t, []]));
  for (let pair = 0; pair < pairs; pair++) {
    for (let k = 0; k < trees.length; k++) {
      const tree = trees[(pair + k) % trees.length];
      if (tree === undefined) continue;
      const result = await replayPair(endpoint, records, { serviceArgs: [...flags, resolve(tree, MAIN)], passes });
      byTree.get(tree)?.push(result);
      const { ratio, warmRatio, steadyMs, echoSteadyMs, failed } = result;
      const line = { tree, pair, ratio, warmRatio, steadyMs, echoSteadyMs, failed };
      console.log(JSON.stringify(perPass ? { ...line, passes: result.passes } : line));
    }
  }
  for (const [tree, results] of byTree) console.log(summary(tree, results));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});

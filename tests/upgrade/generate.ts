/**
 * Writes a release's upgrade goldens from that release's own code:
 *
 *   npx tsx tests/upgrade/generate.ts <checkout of the release> <version>
 *
 * The checkout (a `git worktree` of the release's tag, with `npm ci` run in it) provides the code,
 * the samples and the recorded traffic; this file, from the current tree, writes
 * tests/upgrade/releases/<version>/children.json.gz here. docs/releasing.md says when to run it.
 */
import { resolve } from "node:path";
import { goldenParent, RELEASES_DIR, writeGoldens } from "./releases";
import { phaseAndReason } from "./status";
import { loadTree, PINNED_CLOCK, sampleInputs, syncAnswer, trafficInputs } from "./tree";

async function main(): Promise<void> {
  const [root, version] = process.argv.slice(2);
  if (root === undefined || version === undefined)
    throw new Error("usage: npx tsx tests/upgrade/generate.ts <checkout of the release> <version>");
  const tree = await loadTree(resolve(root));
  const inputs = [...sampleInputs(root, tree), ...trafficInputs(root)];
  const parents = [];
  for (const input of inputs) {
    const { children, status } = await syncAnswer(tree, input.request);
    parents.push(goldenParent(input, children, phaseAndReason(status)));
  }
  const file = writeGoldens(resolve(RELEASES_DIR, version), { release: version, clock: PINNED_CLOCK, parents });
  console.log(`${file}: ${parents.length} parents`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

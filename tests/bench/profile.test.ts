/**
 * bench/profile.ts: self and inclusive counts of a hand-built V8 CPU profile, where each count
 * is read off the tree below (root → main → {parse, recur → recur}, plus idle).
 */
import { join } from "node:path";
import {
  addProfile,
  emptyTally,
  fileOf,
  frameOf,
  PROFILE_HEADING,
  profileSection,
  topLines,
} from "../../bench/profile";

const ROOT = join(__dirname, "..", "..");
const frame = (functionName: string, file = "", line = 0) => ({
  functionName,
  url: file === "" ? "" : `file://${join(ROOT, file)}`,
  lineNumber: line,
});

/** Node ids: 1 root, 2 main, 3 parse, 4 recur, 5 recur (called by 4), 6 idle. */
const PROFILE = {
  nodes: [
    { id: 1, callFrame: frame("(root)"), children: [2, 6] },
    { id: 2, callFrame: frame("main", "dist/hooks/main.js", 9), children: [3, 4] },
    { id: 3, callFrame: frame("parse", "node_modules/body-parser/lib/types/json.js", 102) },
    { id: 4, callFrame: frame("recur", "dist/lib/walk.js", 4), children: [5] },
    { id: 5, callFrame: frame("recur", "dist/lib/walk.js", 4) },
    { id: 6, callFrame: frame("(idle)") },
  ],
  // Times 1..8: main, parse, parse, recur(4), recur(5), idle, idle, parse.
  samples: [2, 3, 3, 4, 5, 6, 6, 3],
  timeDeltas: [1, 1, 1, 1, 1, 1, 1, 1],
};

describe("bench/profile.ts", () => {
  it.each([
    ["dist/hooks/main.js", "main dist/hooks/main.js:10"],
    ["", "main"],
  ])("names a frame of %j as %j", (file, key) => {
    expect(frameOf(frame("main", file, 9))).toBe(key);
  });

  it("names node's own code by its url and an unknown place as native", () => {
    expect(fileOf("node:internal/streams/readable")).toBe("node:internal/streams/readable");
    expect(fileOf("")).toBe("(native)");
  });

  it("counts self time at the leaf and inclusive time once per sample, idle left out", () => {
    const tally = addProfile(emptyTally(), PROFILE);
    expect(tally.samples).toBe(6);
    expect(Object.fromEntries(tally.self)).toEqual({
      "main dist/hooks/main.js:10": 1,
      "parse node_modules/body-parser/lib/types/json.js:103": 3,
      "recur dist/lib/walk.js:5": 2,
    });
    // recur on the stack twice in one sample counts once; main is under every non-idle sample.
    expect(tally.inclusive.get("recur dist/lib/walk.js:5")).toBe(2);
    expect(tally.inclusive.get("main dist/hooks/main.js:10")).toBe(6);
    expect(tally.selfByFile.get("dist/lib/walk.js")).toBe(2);
  });

  it.each([
    // From 0.5 of 8 time units: samples at times 4..8, of which recur, recur, parse are on a CPU.
    [0.5, undefined, 3],
    [0, "recur", 2],
    [0, "parse", 3],
  ])("keeps the samples after %d of the profile, under %j: %d", (from, focus, samples) => {
    expect(addProfile(emptyTally(), PROFILE, from, focus).samples).toBe(samples);
  });

  it("merges profiles and lists the largest counts first with their share", () => {
    const twice = addProfile(addProfile(emptyTally(), PROFILE), PROFILE);
    expect(twice.samples).toBe(12);
    expect(topLines(twice.self, twice.samples, 2)).toEqual([
      " 50.0 %  parse node_modules/body-parser/lib/types/json.js:103",
      " 33.3 %  recur dist/lib/walk.js:5",
    ]);
  });

  it.each([
    [
      "between two sections",
      `# B\n\n${PROFILE_HEADING}\n\ntext\n\n## Cache bounds\n`,
      `${PROFILE_HEADING}\n\ntext\n\n`,
    ],
    ["last in the file", `# B\n\n${PROFILE_HEADING}\n\ntext\n`, `${PROFILE_HEADING}\n\ntext\n`],
    ["absent", "# B\n\n## Cache bounds\n", ""],
  ])("keeps BENCHMARKS.md's profile section %s", (_, markdown, section) => {
    expect(profileSection(markdown)).toBe(section);
  });
});

/**
 * No import cycles in lib/ and hooks/, type-only ones included. A runtime cycle makes a module's
 * top-level constants depend on import order (a script built from `undefined`, or a crash); a
 * type-only one ties two modules together for no reason. Move what both need into a leaf module.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findCycles, importGraph, tsFiles, type ImportGraph } from "../import-graph";

const ROOT = join(__dirname, "..", "..");

const show = (cycles: ReturnType<typeof findCycles>): string[] =>
  cycles.map((c) => `${c.runtime ? "runtime" : "through a type import"}: ${[...c.modules, c.modules[0]].join(" → ")}`);

describe("the import graph of lib/ and hooks/", () => {
  const files = [...tsFiles(join(ROOT, "lib")), ...tsFiles(join(ROOT, "hooks"))];
  const graph = importGraph(ROOT, files);

  it("is read: every module is in it and the known edges are found", () => {
    expect(graph.size).toBe(files.length);
    expect(graph.get("hooks/main.ts")?.map((e) => e.to)).toContain("hooks/service.ts");
    expect(graph.get("lib/children/container.ts")).toContainEqual({ to: "lib/children/env.ts", typeOnly: false });
    expect(graph.get("lib/children/container.ts")).toContainEqual({ to: "lib/children/context.ts", typeOnly: true });
  });

  it("has no cycles", () => {
    expect(show(findCycles(graph))).toEqual([]);
  });
});

describe("findCycles", () => {
  const g = (edges: Record<string, [string, boolean][]>): ImportGraph =>
    new Map(Object.entries(edges).map(([from, to]) => [from, to.map(([t, typeOnly]) => ({ to: t, typeOnly }))]));

  it.each([
    ["a chain", g({ a: [["b", false]], b: [["c", false]], c: [] }), []],
    [
      "a diamond",
      g({
        a: [
          ["b", false],
          ["c", false],
        ],
        b: [["d", false]],
        c: [["d", false]],
        d: [],
      }),
      [],
    ],
    [
      "a runtime loop of three",
      g({ a: [["b", false]], b: [["c", false]], c: [["a", false]] }),
      ["runtime: a → b → c → a"],
    ],
    ["a type-only loop", g({ a: [["b", true]], b: [["a", true]] }), ["through a type import: a → b → a"]],
    [
      "a loop closed by one type import",
      g({ a: [["b", true]], b: [["a", false]] }),
      ["through a type import: a → b → a"],
    ],
    [
      "a runtime loop beside a type import",
      g({
        a: [
          ["b", true],
          ["c", false],
        ],
        b: [["a", false]],
        c: [["a", false]],
      }),
      ["runtime: a → c → a"],
    ],
    ["a module importing itself", g({ a: [["a", false]] }), ["runtime: a → a"]],
    [
      "two separate loops",
      g({ a: [["b", false]], b: [["a", false]], c: [["d", true]], d: [["c", true]] }),
      ["runtime: a → b → a", "through a type import: c → d → c"],
    ],
  ])("on %s", (_what, graph, expected) => {
    expect(show(findCycles(graph))).toEqual(expected);
  });
});

describe("a cycle injected into real files", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "cycles-"));
    mkdirSync(join(dir, "children"));
    const files: Record<string, string> = {
      "defaults.ts": 'export const CONFIG_PATH = "/etc/config.yaml";\n',
      "children/env.ts":
        'import { CONFIG_PATH } from "../defaults";\nimport { script } from "./script";\nexport const env = [CONFIG_PATH, script];\n',
      // The bug the cycle test guards against: script.ts reading a constant from env.ts.
      "children/script.ts": 'import { env } from "./env";\nexport const script = `config=${env[0]}`;\n',
      "children/types.ts": 'import type { Plan } from "./plan";\nexport interface Input { plan?: Plan }\n',
      "children/plan.ts": 'import { type Input } from "./types";\nexport interface Plan { input: Input }\n',
      "children/leaf.ts": 'export type { Plan } from "./plan";\nexport const leaf = require("../defaults");\n',
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("is found, runtime and type-only alike, with relative import paths resolved as tsc does", () => {
    expect(show(findCycles(importGraph(dir, tsFiles(dir))))).toEqual([
      "runtime: children/env.ts → children/script.ts → children/env.ts",
      "through a type import: children/plan.ts → children/types.ts → children/plan.ts",
    ]);
  });
});

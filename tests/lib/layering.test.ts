/**
 * The layers of lib/ and hooks/ (docs/development.md, "Layers"): a module imports modules of its
 * own unit and of the layers below, never of a layer above nor of another unit of its own layer.
 * Every import counts, type-only ones too: a type import is still a dependency a reader follows.
 * An offending import is fixed by moving what both sides need down, not by editing this table.
 */
import { join } from "node:path";
import { importGraph, tsFiles, type ImportGraph } from "../import-graph";

const ROOT = join(__dirname, "..", "..");

/**
 * Bottom first. A unit is a directory of lib/ (every file under it), `lib/*.ts` (the files
 * directly in lib/) or `hooks` (all of hooks/).
 */
const LAYERS: readonly (readonly string[])[] = [
  // Leaf helpers: JSON access and field paths, names, defaults, errors, caches.
  ["lib/*.ts"],
  // Facts and wire formats: the release table and what each server line accepts, Metacontroller's
  // hook format, the live server's answers.
  ["lib/distributions", "lib/wire", "lib/live"],
  // The LLSD API: types, schemas, normalization, the rules on a spec.
  ["lib/api"],
  // Read the API or the facts: version conversion, the CRD, status, the image registry client.
  ["lib/conversion", "lib/crd", "lib/status", "lib/oci"],
  // config.yaml generation and checks.
  ["lib/config"],
  // What a spec becomes: the children, and the OGXServer mapping.
  ["lib/children", "lib/ogx"],
  // The hooks as pure functions.
  ["lib/sync"],
  ["lib/admission"],
  ["lib/migrate"],
  // Entry points: the CLI and the HTTP shell.
  ["lib/cli", "hooks"],
];

/** The unit of a module path (relative to the repository root). */
function unitOf(path: string): string {
  const parts = path.split("/");
  if (parts[0] === "hooks") return "hooks";
  return parts.length === 2 ? "lib/*.ts" : `${parts[0]}/${parts[1]}`;
}

/** Each import that breaks the layers, as `from → to: the rule it breaks`. */
function layerViolations(graph: ImportGraph, layers: readonly (readonly string[])[]): string[] {
  const layerOf = new Map(layers.flatMap((units, i) => units.map((unit) => [unit, i] as const)));
  const found: string[] = [];
  for (const [from, edges] of graph) {
    const unit = unitOf(from);
    const mine = layerOf.get(unit);
    if (mine === undefined) {
      found.push(`${from}: ${unit} is in no layer (add it to LAYERS)`);
      continue;
    }
    for (const { to } of edges) {
      const other = unitOf(to);
      const theirs = layerOf.get(other);
      if (other === unit || theirs === undefined || theirs < mine) continue; // an unplaced target is reported as a `from`
      const where = theirs === mine ? "beside it" : "above it";
      found.push(`${from} → ${to}: ${unit} (layer ${mine}) may not import ${other} (layer ${theirs}, ${where})`);
    }
  }
  return found.sort();
}

describe("the layers of lib/ and hooks/", () => {
  const graph = importGraph(ROOT, [...tsFiles(join(ROOT, "lib")), ...tsFiles(join(ROOT, "hooks"))]);

  it("place every unit once", () => {
    const units = LAYERS.flat();
    expect(units.length).toBe(new Set(units).size);
    expect([...new Set([...graph.keys()].map(unitOf))].filter((u) => !units.includes(u))).toEqual([]);
  });

  it("are kept: no import goes up or sideways", () => {
    expect(layerViolations(graph, LAYERS)).toEqual([]);
  });

  it("leave lib/api on the leaf helpers and the facts alone", () => {
    const reached = new Set(
      [...graph].filter(([from]) => unitOf(from) === "lib/api").flatMap(([, edges]) => edges.map((e) => unitOf(e.to))),
    );
    expect([...reached].sort()).toEqual(["lib/*.ts", "lib/api", "lib/distributions"]);
  });
});

describe("layerViolations", () => {
  const g = (edges: Record<string, [string, boolean][]>): ImportGraph =>
    new Map(Object.entries(edges).map(([from, to]) => [from, to.map(([t, typeOnly]) => ({ to: t, typeOnly }))]));
  const layers = [["lib/*.ts"], ["lib/a", "lib/b"], ["lib/c"]];

  it.each([
    ["a downward import", g({ "lib/c/x.ts": [["lib/a/y.ts", false]], "lib/a/y.ts": [["lib/z.ts", false]] }), []],
    ["an import inside a unit", g({ "lib/a/x.ts": [["lib/a/y.ts", false]], "lib/z.ts": [["lib/w.ts", false]] }), []],
    [
      "an upward import",
      g({ "lib/a/x.ts": [["lib/c/y.ts", false]] }),
      ["lib/a/x.ts → lib/c/y.ts: lib/a (layer 1) may not import lib/c (layer 2, above it)"],
    ],
    [
      "a leaf helper importing a directory",
      g({ "lib/z.ts": [["lib/b/y.ts", true]] }),
      ["lib/z.ts → lib/b/y.ts: lib/*.ts (layer 0) may not import lib/b (layer 1, above it)"],
    ],
    [
      "a sideways import, type-only",
      g({ "lib/a/x.ts": [["lib/b/y.ts", true]] }),
      ["lib/a/x.ts → lib/b/y.ts: lib/a (layer 1) may not import lib/b (layer 1, beside it)"],
    ],
    [
      "a unit in no layer",
      g({ "lib/new/x.ts": [["lib/a/y.ts", false]] }),
      ["lib/new/x.ts: lib/new is in no layer (add it to LAYERS)"],
    ],
    [
      "every offence of a file",
      g({
        "hooks/x.ts": [],
        "lib/a/x.ts": [
          ["lib/c/y.ts", false],
          ["lib/b/y.ts", false],
          ["lib/z.ts", false],
        ],
      }),
      [
        "hooks/x.ts: hooks is in no layer (add it to LAYERS)",
        "lib/a/x.ts → lib/b/y.ts: lib/a (layer 1) may not import lib/b (layer 1, beside it)",
        "lib/a/x.ts → lib/c/y.ts: lib/a (layer 1) may not import lib/c (layer 2, above it)",
      ],
    ],
  ])("on %s", (_what, graph, expected) => {
    expect(layerViolations(graph, layers)).toEqual(expected);
  });
});

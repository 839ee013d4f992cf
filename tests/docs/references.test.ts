/**
 * Nothing a user reads cites what they do not have. Every file of README.md, docs/, samples/,
 * metacontroller/, crds/ and the bundled base configs is scanned for
 *
 * - relative Markdown links, and path mentions (`docs/parity.md`, `lib/crd/rules.ts`, a bare
 *   `install.md`), that name no file of the checkout;
 * - citations of notes that are not shipped: research files, `§` sections, the design card,
 *   the seed specification, FR numbers.
 *
 * Three kinds of path are not files of the checkout, and are allowed as such: `dist/…` (what
 * `npm run build` writes; its source must exist), a path right after the word "upstream" (the
 * server's repository), and the file a code block is, named in a comment on its first line.
 */
import { readdirSync, readFileSync, statSync, existsSync } from "node:fs";
import { dirname, join, normalize } from "node:path";

const ROOT = join(__dirname, "..", "..");

function walk(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((entry) => {
    const path = `${dir}/${entry}`;
    return statSync(join(ROOT, path)).isDirectory() ? walk(path) : [path];
  });
}

const FILES = [
  "README.md",
  "jest.config.js",
  ...["docs", "samples", "metacontroller", "crds", "lib/distributions/base"].flatMap(walk),
];

/** A path with at least one directory and a known extension, not part of a URL or a longer path. */
const PATH = /(?<![\w/:.@~-])((?:\.\.?\/)?(?:[\w.-]+\/)+[\w.-]+\.(?:md|ts|yaml|yml|js|json|sh|mjs))\b/g;
const BARE_MD = /(?<![\w/.-])([\w-]+\.md)\b/g;
const LINK = /\]\(([^)#\s]+)/g;
const CITATIONS: [RegExp, string][] = [
  [/§/, "a § section of notes that are not shipped"],
  [/\bresearch\s+[\w-]+\.md|\(research\b/i, "the research notes"],
  [/\bDESIGN\b/, "the design card"],
  [/seed spec/i, "the seed specification"],
  [/\bFR-?\d+/, "a requirement number"],
];

const exists = (path: string): boolean => existsSync(join(ROOT, normalize(path)));

/** A path mention is fine when it is a file of the checkout, or one of the three kinds above. */
function resolves(file: string, path: string, line: string): boolean {
  if (exists(path) || exists(join(dirname(file), path))) return true;
  if (path.startsWith("dist/")) return exists(path.slice("dist/".length).replace(/\.js$/, ".ts"));
  return new RegExp(`upstream\\s+\`?${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`, "i").test(line);
}

/** The lines of a file that are first lines of a fenced block (they may name the file the block is). */
function blockHeads(lines: readonly string[]): Set<number> {
  const heads = new Set<number>();
  let open = false;
  lines.forEach((l, i) => {
    if (!l.startsWith("```")) return;
    if (!open) heads.add(i + 1);
    open = !open;
  });
  return heads;
}

/** Every problem of `text`, read as the file `file` (links and paths resolve from where it is). */
function problemsIn(file: string, text: string): string[] {
  const lines = text.split("\n");
  const heads = file.endsWith(".md") ? blockHeads(lines) : new Set<number>();
  const problems: string[] = [];
  lines.forEach((line, i) => {
    const at = `${file}:${i + 1}`;
    for (const [pattern, what] of CITATIONS) if (pattern.test(line)) problems.push(`${at}: cites ${what}`);
    if (heads.has(i) && /^#\s/.test(line)) return; // `# my-overlay/kustomization.yaml`: the file this block is
    for (const [, path = ""] of line.matchAll(PATH))
      if (!resolves(file, path, line)) problems.push(`${at}: ${path} does not exist`);
    for (const [, name = ""] of line.matchAll(BARE_MD))
      if (![dirname(file), ".", "docs"].some((d) => exists(join(d, name))))
        problems.push(`${at}: ${name} does not exist`);
    if (!file.endsWith(".md")) return;
    for (const [, target = ""] of line.matchAll(LINK))
      if (!/^[a-z]+:/.test(target) && !exists(join(dirname(file), target)))
        problems.push(`${at}: the link to ${target} leads nowhere`);
  });
  return problems;
}

it("scans the files a user reads", () => {
  expect(FILES).toEqual(expect.arrayContaining(["README.md", "docs/cli.md", "samples/minimal.yaml", "crds/README.md"]));
  expect(FILES.filter((f) => f.startsWith("lib/distributions/base/")).length).toBeGreaterThan(3);
});

it.each(FILES)("%s cites only what a user has", (file) => {
  expect(problemsIn(file, readFileSync(join(ROOT, file), "utf8"))).toEqual([]);
});

it.each([
  ["a missing doc", "docs/x.md", "See docs/parity.md for the rows.", ["docs/x.md:1: docs/parity.md does not exist"]],
  [
    "a broken link",
    "docs/x.md",
    "See [parity](parity.md).",
    ["docs/x.md:1: parity.md does not exist", "docs/x.md:1: the link to parity.md leads nowhere"],
  ],
  [
    "a research citation",
    "samples/x.yaml",
    "# (research operator.md §2.2)",
    [
      "samples/x.yaml:1: cites a § section of notes that are not shipped",
      "samples/x.yaml:1: cites the research notes",
      "samples/x.yaml:1: operator.md does not exist",
    ],
  ],
  [
    "the design card",
    "jest.config.js",
    "/** jest (DESIGN §12) */",
    ["jest.config.js:1: cites a § section of notes that are not shipped", "jest.config.js:1: cites the design card"],
  ],
])("finds %s", (_what, file, text, expected) => {
  expect(problemsIn(file, text)).toEqual(expected);
});

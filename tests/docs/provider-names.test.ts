/**
 * docs/spec-reference.md's table of provider names is the code's: the doc holds exactly what
 * `providerNamesTable()` writes (`UPDATE_GOLDEN=1` rewrites the doc's table; review the diff).
 * And the table says what the servers have, read from their own provider registries
 * (tests/fixtures/server-schemas/<tag>/providers/index.json), not from the code's tables: every
 * type a cell names is one the line registers, and every type a line registers under a
 * section is reached by some name of the table.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SERVER_API } from "../../lib/api/apis";
import { providerNameRows, providerNamesTable } from "../../lib/config/provider-names";
import { RELEASES } from "../../lib/distributions/table";

const DOC = join(__dirname, "..", "..", "docs", "spec-reference.md");
const BEGIN = /^<!-- provider-names: .* -->\n/m;
const END = "<!-- end provider-names -->";

/** The doc's table, and the doc with another table in its place. */
function docTable(text: string): { table: string; replaced: (table: string) => string } {
  const begin = BEGIN.exec(text);
  const end = text.indexOf(END);
  if (begin === null || end < begin.index) throw new Error("docs/spec-reference.md has no provider-names markers");
  const from = begin.index + begin[0].length;
  return { table: text.slice(from, end), replaced: (table) => text.slice(0, from) + table + text.slice(end) };
}

/** Each line's registered types of the four sections, from its registry, deprecated-to-error ones left out. */
const TAGS = { "0.7": "v0.7.3", "0.8": "v0.8.0", "1.2": "v1.2.2", "1.3": "v1.3.0" } as const;
type Entry = { api: string; provider_type: string; deprecation_error: string | null };
function registry(release: (typeof RELEASES)[number]): Entry[] {
  const file = join(__dirname, "..", "fixtures", "server-schemas", TAGS[release], "providers", "index.json");
  return (JSON.parse(readFileSync(file, "utf8")) as Entry[]).filter((e) => e.deprecation_error === null);
}

/** The types a cell names: `remote`/`inline` stand for that prefix with the row's name. */
function typesOf(name: string, cell: string): string[] {
  const full = [...cell.matchAll(/`([a-z]+::[^`]+)`/g)].map((m) => m[1]!);
  const short = [...cell.replace(/`[^`]*`/g, "").matchAll(/\b(remote|inline)\b/g)].map((m) => `${m[1]}::${name}`);
  return [...full, ...short];
}

describe("docs/spec-reference.md, Provider names", () => {
  it("is the table the code writes", () => {
    const text = readFileSync(DOC, "utf8");
    const doc = docTable(text);
    if (process.env.UPDATE_GOLDEN === "1") writeFileSync(DOC, doc.replaced(providerNamesTable()));
    else expect(doc.table).toBe(providerNamesTable());
  });

  it.each(RELEASES)("names on %s only types the line registers, and reaches every one", (release) => {
    const index = RELEASES.indexOf(release);
    const named = providerNameRows().flatMap((row) =>
      typesOf(row.name, row.cells[index]!).map((type) => `${SERVER_API[row.section]} ${type}`),
    );
    const sections = new Set(Object.values(SERVER_API));
    const registered = registry(release)
      .filter((e) => sections.has(e.api))
      .map((e) => `${e.api} ${e.provider_type}`);
    expect(named.filter((t) => !registered.includes(t))).toEqual([]);
    // 0.7 registers the old spelling too; the name `sqlite_vec` means the new one, the old is written in full.
    const unreached = registered.filter((t) => !named.includes(t) && t !== "vector_io inline::sqlite_vec");
    expect(unreached).toEqual([]);
  });
});

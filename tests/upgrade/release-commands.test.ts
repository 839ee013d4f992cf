/**
 * The upgrade and rollback commands of docs/upgrading.md, read against the release files they
 * name: each `kubectl apply -f releases/${V}/<file> [-l key=value]` of a block that sets `V`
 * must select, in every overlay of that release, what its step says. A selector that matches
 * nothing makes `kubectl apply` exit 1 ("no objects passed to apply"), which is how rolling back
 * to 0.2.0 failed while the rollback reused the upgrade's split (0.2.0 does not label its hooks'
 * objects); without a selector the whole file is applied. Commands run on a cluster are not
 * run here: this checks the files, not kubectl.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseAllDocuments } from "yaml";
import { OVERLAYS, RELEASES, ROOT } from "../../scripts/release-manifests";

interface Apply {
  readonly version: string;
  readonly file: string;
  readonly selector?: readonly [string, string];
  readonly line: string;
}

type Labelled = { kind: string; metadata: { name: string; labels?: Record<string, string> } };

/** The `sh cluster` blocks of a doc, each with the `V=` it sets. */
function applies(markdown: string): Apply[] {
  const blocks = [...markdown.matchAll(/^```sh cluster\n([\s\S]*?)^```/gm)].map((m) => m[1] ?? "");
  return blocks.flatMap((block) => {
    const version = /^V=(\S+)/m.exec(block)?.[1];
    if (version === undefined) return [];
    return [...block.matchAll(/^kubectl apply -f releases\/\$\{V\}\/(\S+)(?: -l (\S+)=(\S+))?$/gm)].map((m) => ({
      version,
      file: m[1] ?? "",
      selector: m[2] === undefined ? undefined : ([m[2], m[3] ?? ""] as const),
      line: m[0],
    }));
  });
}

const objectsOf = (version: string, file: string): Labelled[] =>
  parseAllDocuments(readFileSync(join(RELEASES, version, file), "utf8"))
    .map((d) => d.toJS() as Labelled | null)
    .filter((o): o is Labelled => o !== null);

const selected = (objects: readonly Labelled[], selector: Apply["selector"]): string[] =>
  objects
    .filter((o) => selector === undefined || o.metadata.labels?.[selector[0]] === selector[1])
    .map((o) => `${o.kind}/${o.metadata.name}`);

const documented = applies(readFileSync(join(ROOT, "docs", "upgrading.md"), "utf8"));

it("reads the upgrade's split and the rollback's whole apply from docs/upgrading.md", () => {
  expect(documented.map((a) => [a.version, a.selector?.join("=") ?? "whole file"])).toEqual([
    ["0.3.0", "app.kubernetes.io/component=hooks"],
    ["0.3.0", "whole file"],
    ["0.2.0", "whole file"],
  ]);
});

describe.each(documented)("$line with V=$version", ({ version, file, selector }) => {
  it.each(OVERLAYS.map((o) => o.file))("selects the hooks' Deployment in %s, or everything", (overlay) => {
    const objects = objectsOf(version, file === "cert-manager.yaml" ? overlay : file);
    const names = selected(objects, selector);
    expect(names).toContain("Deployment/llsd-hooks");
    if (selector === undefined) expect(names).toHaveLength(objects.length);
    else expect(names).not.toContain("CompositeController/llamastackdistributions.llamastack.io");
  });
});

describe("applies", () => {
  it.each([
    ["a block without V", "```sh cluster\nkubectl apply -f releases/${V}/a.yaml\n```\n", []],
    [
      "a selector",
      "```sh cluster\nV=9.9.9\nkubectl apply -f releases/${V}/a.yaml -l k=v\n```\n",
      [{ version: "9.9.9", file: "a.yaml", selector: ["k", "v"] }],
    ],
    [
      "no selector",
      "```sh cluster\nV=1.0.0\nkubectl apply -f releases/${V}/b.yaml\n```\n",
      [{ version: "1.0.0", file: "b.yaml", selector: undefined }],
    ],
  ])("%s", (_, markdown, expected) => {
    expect(applies(markdown).map(({ version, file, selector }) => ({ version, file, selector }))).toEqual(expected);
  });

  it("finds that the upgrade's selector matches nothing in 0.2.0's files", () => {
    expect(selected(objectsOf("0.2.0", "cert-manager.yaml"), ["app.kubernetes.io/component", "hooks"])).toEqual([]);
  });
});

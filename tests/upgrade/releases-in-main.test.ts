/**
 * Every release CHANGELOG.md lists exists in `main` (the repository publishes no tags): its
 * section names the commit it was cut from, releases/<version>/ holds that commit and the
 * manifests rendered from it, and they build offline. With the history (any clone but a shallow
 * one: `git rev-parse --is-shallow-repository`), the commit resolves, its package.json has that
 * version, and the stored files are what its own tree renders, byte for byte.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseAllDocuments } from "yaml";
import { packageVersion } from "../../lib/package-version";
import { kustomize, OVERLAYS, RELEASES, renderRelease, ROOT } from "../../scripts/release-manifests";

const changelog = readFileSync(join(ROOT, "CHANGELOG.md"), "utf8");
const VERSION = packageVersion(ROOT);

/** Each dated section of CHANGELOG.md (a release; `unreleased` is not one) and its text. */
const released = [
  ...changelog.matchAll(/^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})\n([\s\S]*?)(?=^## |(?![\s\S]))/gm),
].map((m) => ({ version: m[1]!, text: m[3]! }));
const read = (version: string, file: string): string => readFileSync(join(RELEASES, version, file), "utf8");
const git = (args: readonly string[]) => spawnSync("git", ["-C", ROOT, ...args], { encoding: "utf8" });
/** No commits to check: a shallow clone, or a copy without git. */
const shallow = git(["rev-parse", "--is-shallow-repository"]).stdout.trim() !== "false";

// The release commit itself dates its section; releases/<version>/ names that commit, so it can
// only come in the next one (docs/releasing.md, "Cutting a release").
const cutting = (version: string): boolean => version === VERSION && !existsSync(join(RELEASES, version));

it("CHANGELOG.md lists released versions, and releases/ has a directory for each and no other", () => {
  expect(released.map((r) => r.version)).toEqual(expect.arrayContaining(["0.1.0", "0.2.0"]));
  const kept = released.map((r) => r.version).filter((v) => !cutting(v));
  expect(readdirSync(RELEASES).sort()).toEqual(kept.sort());
});

describe.each(released.filter((r) => !cutting(r.version)))("release $version", ({ version, text }) => {
  const commit = read(version, "commit").trim();

  it("its section names the full commit it was cut from, the one releases/ keeps", () => {
    expect(commit).toMatch(/^[0-9a-f]{40}$/);
    expect(text).toMatch(new RegExp(`^Cut from commit \`${commit}\``, "m"));
  });

  it("keeps the commit, the CRD and one rendered file per overlay, nothing else", () => {
    const expected = ["commit", "crd.yaml", ...OVERLAYS.map((o) => o.file)];
    expect(readdirSync(join(RELEASES, version)).sort()).toEqual(expected.sort());
  });

  it.each(OVERLAYS.map((o) => o.file))("%s builds offline with the CRD, and runs this version's image", (file) => {
    const dir = mkdtempSync(join(tmpdir(), "llsd-release-"));
    try {
      writeFileSync(join(dir, "crd.yaml"), read(version, "crd.yaml"));
      writeFileSync(join(dir, file), read(version, file));
      writeFileSync(join(dir, "kustomization.yaml"), `resources:\n  - crd.yaml\n  - ${file}\n`);
      const objects = parseAllDocuments(kustomize(dir)).map(
        (d) => d.toJS() as { kind: string; metadata: { name: string }; spec?: unknown },
      );
      expect(objects.filter((o) => o.kind === "CustomResourceDefinition").map((o) => o.metadata.name)).toEqual([
        "llamastackdistributions.llamastack.io",
      ]);
      const hooks = objects.find((o) => o.kind === "Deployment" && o.metadata.name === "llsd-hooks");
      const images = (
        hooks?.spec as { template: { spec: { containers: { image: string }[] } } } | undefined
      )?.template.spec.containers.map((c) => c.image);
      expect(images).toEqual([`llsd-hooks:${version}`]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // A shallow clone has not the commits; a full one (what `git clone` makes) has.
  (shallow ? it.skip : it)("resolves to a commit of this history whose package.json is this version", () => {
    expect(git(["rev-parse", "--verify", "--quiet", `${commit}^{commit}`]).stdout.trim()).toBe(commit);
    const pkg = JSON.parse(git(["show", `${commit}:package.json`]).stdout) as { version: string };
    expect(pkg.version).toBe(version);
  });

  (shallow ? it.skip : it)(
    "its files are what that commit's tree renders",
    () => {
      const rendered = renderRelease(commit);
      for (const [file, text2] of rendered) expect({ file, text: read(version, file) }).toEqual({ file, text: text2 });
    },
    60_000,
  );
});

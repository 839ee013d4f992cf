/**
 * The commit `llsd --version` and GET /version print: what the build left in BUILD_COMMIT (a
 * `git archive` of the repository, or the Dockerfile's LLSD_COMMIT), else git's HEAD in a
 * checkout, else none. The substitution itself is checked with the real git on this repository.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commitFrom, commitIn, COMMIT_FILE } from "../../lib/build-commit";

const ROOT = join(__dirname, "..", "..");
const A = "0123456789abcdef0123456789abcdef01234567";
const B = "fedcba9876543210fedcba9876543210fedcba98";

describe("commitFrom", () => {
  it.each([
    ["a built file wins over git", `${A}\n`, B, A],
    ["the committed, unsubstituted file: git's HEAD", "$Format:%H$\n", `${B}\n`, B],
    ["no file: git's HEAD", undefined, B, B],
    ["neither", "$Format:%H$", undefined, undefined],
    ["a short id is not a commit id", A.slice(0, 7), undefined, undefined],
    ["an empty build argument left nothing", "", "not a commit", undefined],
  ])("%s", (_case, file, head, expected) => {
    expect(commitFrom(file, () => head)).toBe(expected);
  });
});

describe("an installed copy without .git (the image's /app)", () => {
  const dir = mkdtempSync(join(tmpdir(), "llsd-app-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "llsd-hooks", version: "9.9.9" }));

  it("reads the commit the build wrote", () => {
    writeFileSync(join(dir, COMMIT_FILE), `${A}\n`);
    expect(commitIn(dir)).toBe(A);
  });

  it("has none when the build wrote none", () => {
    writeFileSync(join(dir, COMMIT_FILE), "$Format:%H$\n");
    expect(commitIn(dir)).toBeUndefined();
  });
});

describe("this repository", () => {
  const git = (args: string[]): string => execFileSync("git", ["-C", ROOT, ...args], { encoding: "utf8" }).trim();

  it("commits BUILD_COMMIT unsubstituted, so a checkout answers with its HEAD", () => {
    expect(readFileSync(join(ROOT, COMMIT_FILE), "utf8")).toBe("$Format:%H$\n");
    expect(commitIn(ROOT)).toBe(git(["rev-parse", "HEAD"]));
  });

  it("git archive writes the archived commit into BUILD_COMMIT (.gitattributes export-subst)", () => {
    const archived = spawnSync("sh", ["-c", `git -C "${ROOT}" archive HEAD ${COMMIT_FILE} | tar -xO ${COMMIT_FILE}`], {
      encoding: "utf8",
    });
    expect([archived.status, archived.stdout]).toEqual([0, `${git(["rev-parse", "HEAD"])}\n`]);
  });
});

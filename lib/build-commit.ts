/**
 * The commit the running code was built from, printed beside the version by `llsd --version` and
 * `GET /version`: releases are commits of `main` (releases/<version>/commit), not tags.
 * The image has no .git, so the build leaves the commit in BUILD_COMMIT next to package.json:
 * `git archive` writes it there (the committed file holds `$Format:%H$`, which .gitattributes'
 * export-subst replaces), and the Dockerfile's LLSD_COMMIT build argument overrides it. In a
 * checkout (`npm start`, tests) the file is unsubstituted and git's HEAD answers.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "./package-version";

export const COMMIT_FILE = "BUILD_COMMIT";

const COMMIT_ID = /^[0-9a-f]{40}$/;

/** The first of what the build left and git's HEAD that is a full commit id; undefined when neither is. */
export function commitFrom(fileText: string | undefined, gitHead: () => string | undefined): string | undefined {
  const built = fileText?.trim();
  if (built !== undefined && COMMIT_ID.test(built)) return built;
  const head = gitHead()?.trim();
  return head !== undefined && COMMIT_ID.test(head) ? head : undefined;
}

function gitHeadIn(dir: string): string | undefined {
  if (!existsSync(join(dir, ".git"))) return undefined;
  try {
    return execFileSync("git", ["-C", dir, "rev-parse", "HEAD"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
  } catch {
    return undefined; // No git on the machine, or not a repository after all: no commit to show.
  }
}

/** The commit of the code installed in `root` (the directory of its package.json). */
export function commitIn(root: string): string | undefined {
  const file = join(root, COMMIT_FILE);
  return commitFrom(existsSync(file) ? readFileSync(file, "utf8") : undefined, () => gitHeadIn(root));
}

let cached: { commit: string | undefined } | undefined;

/** The commit of the code that runs (read once per process). */
export function buildCommit(): string | undefined {
  if (cached === undefined) {
    const root = packageRoot();
    cached = { commit: root === undefined ? undefined : commitIn(root) };
  }
  return cached.commit;
}

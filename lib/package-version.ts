/** The hooks' own version: the nearest package.json named llsd-hooks (the status and `llsd --version` report it). */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { isPlainObject } from "./json";

/** The `version` of `file` when it is llsd-hooks' package.json. */
function ourVersion(file: string): string | undefined {
  try {
    const pkg: unknown = JSON.parse(readFileSync(file, "utf8"));
    return isPlainObject(pkg) && pkg.name === "llsd-hooks" && typeof pkg.version === "string" ? pkg.version : undefined;
  } catch {
    return undefined; // Not JSON: keep looking up.
  }
}

/** The directory of the nearest package.json named llsd-hooks: the checkout, or the image's /app. */
export function packageRoot(from: string = __dirname): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const file = join(dir, "package.json");
    if (existsSync(file) && ourVersion(file) !== undefined) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/** The `version` of the nearest package.json named llsd-hooks (source and dist layouts differ). */
export function packageVersion(from: string = __dirname): string | undefined {
  const root = packageRoot(from);
  return root === undefined ? undefined : ourVersion(join(root, "package.json"));
}

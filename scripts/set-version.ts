/**
 * Sets the release version everywhere it is written: `npm run set-version -- 0.3.0`.
 * package.json is the source (lib/package-version.ts reads it for `llsd --version`, `GET /version`
 * and the status' operatorVersion); package-lock.json, the manifests' image, the Dockerfile's
 * label and the image tags in the docs are copies, and tests/upgrade/versions.test.ts fails
 * while one of them disagrees. CHANGELOG.md's section is written by hand (docs/releasing.md).
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(__dirname, "..");

/** Each copy of the version, and how to write the new one there. */
const COPIES: readonly [RegExp, (version: string) => string][] = [
  [/llsd-hooks:\d+\.\d+\.\d+/g, (v) => `llsd-hooks:${v}`],
  [/newTag: \d+\.\d+\.\d+/g, (v) => `newTag: ${v}`],
  [/org\.opencontainers\.image\.version="[^"]*"/g, (v) => `org.opencontainers.image.version="${v}"`],
];

function walk(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return walk(path);
    return /\.(md|ya?ml)$/.test(e.name) ? [path] : [];
  });
}

function setJsonVersions(file: string, version: string, paths: readonly (readonly string[])[]): void {
  const text = readFileSync(join(ROOT, file), "utf8");
  const json: unknown = JSON.parse(text);
  for (const path of paths) {
    let at: unknown = json;
    for (const key of path) at = typeof at === "object" && at !== null ? Reflect.get(at, key) : undefined;
    if (typeof at === "object" && at !== null) Reflect.set(at, "version", version);
  }
  writeFileSync(join(ROOT, file), `${JSON.stringify(json, null, 2)}\n`);
}

function main(): void {
  const version = process.argv[2];
  if (version === undefined || !/^\d+\.\d+\.\d+$/.test(version))
    throw new Error("usage: npm run set-version -- MAJOR.MINOR.PATCH");
  setJsonVersions("package.json", version, [[]]);
  setJsonVersions("package-lock.json", version, [[], ["packages", ""]]);
  for (const file of ["README.md", "Dockerfile", ...walk("docs"), ...walk("metacontroller")]) {
    const text = readFileSync(join(ROOT, file), "utf8");
    const next = COPIES.reduce((t, [pattern, write]) => t.replace(pattern, write(version)), text);
    if (next !== text) {
      writeFileSync(join(ROOT, file), next);
      console.log(`${file}: ${version}`);
    }
  }
}

main();

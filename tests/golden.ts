/**
 * Golden files: compare with tests/golden/<name>; `UPDATE_GOLDEN=1 npm test` rewrites them
 * (review the diff). Without the flag a missing golden file fails the test.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

const GOLDEN_DIR = join(__dirname, "golden");

export function expectGolden(name: string, actual: string): void {
  expectGoldenFile(join(GOLDEN_DIR, name), actual, name);
}

/** The same for a golden file kept elsewhere (tests/upgrade/releases/). */
export function expectGoldenFile(file: string, actual: string, name: string = file): void {
  if (process.env.UPDATE_GOLDEN === "1") {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  if (!existsSync(file)) throw new Error(`golden file ${name} is missing; run UPDATE_GOLDEN=1 npm test and review it`);
  expect(actual).toBe(readFileSync(file, "utf8"));
}

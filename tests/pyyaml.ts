/**
 * The real server reads config.yaml with PyYAML's `yaml.safe_load` (YAML 1.1 rules). These
 * helpers run Debian's python3-yaml on the text, so tests check what the server would read.
 */
import { execFileSync } from "node:child_process";

const PYTHON = "/usr/bin/python3";
const SCRIPT = "import json,sys,yaml; print(json.dumps([yaml.safe_load(d) for d in json.load(sys.stdin)]))";

/** Parse each YAML text with PyYAML; one python process for the whole batch. */
export function pyyamlLoadAll(texts: readonly string[]): unknown[] {
  try {
    return JSON.parse(
      execFileSync(PYTHON, ["-c", SCRIPT], { input: JSON.stringify(texts), encoding: "utf8" }),
    ) as unknown[];
  } catch (error) {
    throw new Error(`PyYAML is needed for this test (apt-get install -y python3-yaml): ${(error as Error).message}`, {
      cause: error,
    });
  }
}

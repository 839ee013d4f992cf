/** Run the `llsd` CLI in-process with captured output. */
import { readFileSync } from "node:fs";
import { runCli } from "../lib/cli/cli";

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export function llsd(args: string[], files: Record<string, string> = {}): CliRun {
  let stdout = "";
  let stderr = "";
  const code = runCli(args, {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    readFile: (path) => files[path] ?? readFileSync(path, "utf8"),
  });
  return { code, stdout, stderr };
}

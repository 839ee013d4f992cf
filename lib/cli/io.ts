/** The CLI's only contact with the outside world, injected so tests run it in-process. */
import { readFileSync } from "node:fs";
import { isPlainObject } from "../json";

export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly readFile: (path: string) => string;
}

export const processIo: CliIo = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  readFile: (path) => readFileSync(path === "-" ? 0 : path, "utf8"), // `-` is stdin, as in kubectl -f -
};

/** A problem with the command line itself (a missing file, a bad option): exit 2, one line. */
export class UsageError extends Error {}

const READ_PROBLEMS: { readonly [code: string]: string } = {
  ENOENT: "no such file",
  EISDIR: "is a directory, not a YAML file",
  EACCES: "permission denied",
  ENOTDIR: "a part of the path is not a directory",
};

/** The file's text, or a UsageError naming the file and what is wrong (never a raw errno or a stack). */
export function readText(io: CliIo, path: string): string {
  try {
    return io.readFile(path);
  } catch (error) {
    const code = isPlainObject(error) ? error.code : undefined; // duck-typed: fs errors may come from another realm
    throw new UsageError(`${path}: ${(typeof code === "string" && READ_PROBLEMS[code]) || "cannot be read"}`);
  }
}

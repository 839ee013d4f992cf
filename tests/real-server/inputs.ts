/**
 * The inputs the tier starts the server on: every file in samples/, and every CR that an example
 * in README.md and docs/*.md writes to a file (a heredoc `cat > F <<'TAG'`, or `printf … > F`),
 * which is how the docs' examples make the CRs they then validate or render.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const ROOT = join(__dirname, "..", "..");

export interface Input {
  /** Where it comes from: `samples/x.yaml`, or `docs/auth.md:120` (the line of the writing command). */
  readonly label: string;
  readonly text: string;
  /** Samples must make a config; a doc example may show a refusal on purpose. */
  readonly mustRender: boolean;
}

export function sampleInputs(): Input[] {
  return readdirSync(join(ROOT, "samples"))
    .filter((f) => f.endsWith(".yaml"))
    .sort()
    .map((f) => ({ label: `samples/${f}`, text: readFileSync(join(ROOT, "samples", f), "utf8"), mustRender: true }));
}

const DOC_FILES = (): string[] => [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((f) => `docs/${f}`),
];

/** Shell statements (continuation lines joined) of each `sh`/`bash` block, with their first line numbers. */
function shellStatements(text: string): { line: number; lines: string[] }[] {
  const lines = text.split("\n");
  const out: { line: number; lines: string[] }[] = [];
  let inShell = false;
  for (let i = 0; i < lines.length; i++) {
    const fence = /^```(\S*)/.exec(lines[i]!);
    if (fence) {
      inShell = !inShell && (fence[1] === "sh" || fence[1] === "bash");
      continue;
    }
    if (!inShell) continue;
    const start = i;
    const statement = [lines[i]!];
    while (statement.at(-1)!.endsWith("\\") && i + 1 < lines.length) statement.push(lines[++i]!);
    out.push({ line: start + 1, lines: statement });
    const heredoc = /<<-?'?(\w+)'?/.exec(lines[start]!)?.[1];
    if (heredoc === undefined) continue;
    while (i + 1 < lines.length && lines[i + 1] !== heredoc) statement.push(lines[++i]!);
    i++; // the closing tag
  }
  return out;
}

/** The text a file-writing statement writes, or undefined when the statement writes no YAML file. */
function writtenText(statement: string[], scratch: string): string | undefined {
  const first = statement[0]!;
  const heredoc = /^cat\s*>\s*\S+\.yaml\s+<<-?'?\w+'?\s*$/.test(first);
  if (heredoc) return `${statement.slice(1).join("\n")}\n`;
  const joined = statement.join("\n");
  const printf = /^printf [\s\S]*>\s*(\S+\.yaml)\s*$/.exec(joined);
  if (!printf) return undefined;
  // Only printf runs, and into the scratch directory: the docs' /tmp paths are shared with other runs.
  const out = join(scratch, "out.yaml");
  const run = spawnSync("bash", ["-c", `${joined.slice(0, joined.lastIndexOf(">"))} > '${out}'`], { encoding: "utf8" });
  return run.status === 0 ? readFileSync(out, "utf8") : undefined;
}

export function docInputs(): Input[] {
  const scratch = mkdtempSync(join(tmpdir(), "llsd-server-docs-"));
  try {
    return DOC_FILES().flatMap((file) =>
      shellStatements(readFileSync(join(ROOT, file), "utf8")).flatMap(({ line, lines }) => {
        const text = writtenText(lines, scratch);
        return text !== undefined && text.includes("LlamaStackDistribution")
          ? [{ label: `${file}:${line}`, text, mustRender: false }]
          : [];
      }),
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

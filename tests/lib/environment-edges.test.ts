/**
 * Only the edges read the environment: hooks/ (main.ts and the service setup) and the CLI
 * (lib/cli). Everything else in lib/ takes its settings as arguments, so a test or the CLI can run
 * it with any settings and an unrelated variable in the process cannot change its output.
 * (ESLint's no-restricted-properties says the same while editing; this test runs with `npm test`.)
 */
import { join, relative } from "node:path";
import * as ts from "typescript";
import { tsFiles } from "../import-graph";

const ROOT = join(__dirname, "..", "..");

/** `process.env` (also `process["env"]`, `globalThis.process.env`) and the `NodeJS.ProcessEnv` type, with line numbers. */
function environmentReads(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const at = (node: ts.Node): string => `${fileName}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const isProcess = (e: ts.Expression): boolean =>
    (ts.isIdentifier(e) && e.text === "process") || (ts.isPropertyAccessExpression(e) && e.name.text === "process");
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node) && node.name.text === "env" && isProcess(node.expression))
      found.push(`${at(node)} process.env`);
    if (
      ts.isElementAccessExpression(node) &&
      isProcess(node.expression) &&
      ts.isStringLiteral(node.argumentExpression) &&
      node.argumentExpression.text === "env"
    )
      found.push(`${at(node)} process.env`);
    if (ts.isQualifiedName(node) && node.right.text === "ProcessEnv") found.push(`${at(node)} NodeJS.ProcessEnv`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("environmentReads", () => {
  it.each([
    ["const port = process.env.PORT;", ["x.ts:1 process.env"]],
    ["const { PORT } = process.env;", ["x.ts:1 process.env"]],
    ['const env = process["env"];', ["x.ts:1 process.env"]],
    ["const e = globalThis.process.env;", ["x.ts:1 process.env"]],
    ["export function f(env: NodeJS.ProcessEnv) {}", ["x.ts:1 NodeJS.ProcessEnv"]],
    ["\nconst argv = process.argv; // the environment of a function: env.PORT", []],
    ["function f(env: Record<string, string>) { return env.PORT; }", []],
  ])("in %j finds %j", (text, expected) => {
    expect(environmentReads("x.ts", text)).toEqual(expected);
  });
});

describe("lib/", () => {
  it("reads the environment only in lib/cli", () => {
    const outsideCli = tsFiles(join(ROOT, "lib")).filter((f) => !relative(ROOT, f).startsWith("lib/cli/"));
    expect(outsideCli.length).toBeGreaterThan(50);
    const reads = outsideCli.flatMap((f) => environmentReads(relative(ROOT, f), ts.sys.readFile(f) ?? ""));
    expect(reads).toEqual([]);
  });
});

/**
 * The project's import graph, read with the TypeScript compiler (the same module resolution as
 * tsc), and its cycles. Every edge counts: `import`, `import type`, `export … from`, `require()`
 * and `import()`. A type-only cycle is harmless at run time but still ties two modules together,
 * so it is reported too, marked as such.
 */
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import * as ts from "typescript";

export interface Edge {
  readonly to: string;
  /** True when every import of `to` from this file is erased at compile time. */
  readonly typeOnly: boolean;
}
export type ImportGraph = ReadonlyMap<string, readonly Edge[]>;

/** Source files under `dir` (`.ts` without declarations, or another extension such as `.js`). */
export function tsFiles(dir: string, extension = ".ts"): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsFiles(path, extension);
    return name.endsWith(extension) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

function isTypeOnly(node: ts.Node): boolean {
  if (ts.isImportDeclaration(node)) {
    const clause = node.importClause;
    if (!clause) return false; // `import "./x"` runs x
    if (clause.isTypeOnly) return true;
    const bindings = clause.namedBindings;
    return (
      clause.name === undefined &&
      bindings !== undefined &&
      ts.isNamedImports(bindings) &&
      bindings.elements.length > 0 &&
      bindings.elements.every((e) => e.isTypeOnly)
    );
  }
  if (ts.isExportDeclaration(node)) {
    const clause = node.exportClause;
    return (
      node.isTypeOnly ||
      (clause !== undefined &&
        ts.isNamedExports(clause) &&
        clause.elements.length > 0 &&
        clause.elements.every((e) => e.isTypeOnly))
    );
  }
  return false;
}

/** Module specifiers in one file, with whether each use is type-only. */
function specifiers(source: ts.SourceFile): { text: string; typeOnly: boolean }[] {
  const found: { text: string; typeOnly: boolean }[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push({ text: node.moduleSpecifier.text, typeOnly: isTypeOnly(node) });
    } else if (
      ts.isCallExpression(node) &&
      node.arguments.length === 1 &&
      ts.isStringLiteral(node.arguments[0]!) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === "require"))
    ) {
      found.push({ text: node.arguments[0].text, typeOnly: false });
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      found.push({ text: node.argument.literal.text, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The graph of `files` (absolute paths), keeping only edges between them; keys relative to `root`. */
export function importGraph(root: string, files: readonly string[]): ImportGraph {
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    resolveJsonModule: true,
  };
  const inScope = new Set(files);
  const graph = new Map<string, Edge[]>();
  for (const file of files) {
    const source = ts.createSourceFile(file, ts.sys.readFile(file) ?? "", ts.ScriptTarget.ES2022, true);
    const edges = new Map<string, boolean>();
    for (const { text, typeOnly } of specifiers(source)) {
      const resolved = ts.resolveModuleName(text, file, options, ts.sys).resolvedModule?.resolvedFileName;
      if (resolved === undefined || !inScope.has(resolved)) continue;
      const to = relative(root, resolved);
      edges.set(to, (edges.get(to) ?? true) && typeOnly);
    }
    graph.set(
      relative(root, file),
      [...edges].map(([to, typeOnly]) => ({ to, typeOnly })).sort((a, b) => a.to.localeCompare(b.to)),
    );
  }
  return graph;
}

/**
 * One cycle: its modules in import order, and whether it is a runtime cycle (every import on the
 * loop stays in the JavaScript) or only closes through a type import (erased at compile time).
 */
export interface Cycle {
  readonly modules: readonly string[];
  readonly runtime: boolean;
}

/** The strongly connected components with more than one module, or a module importing itself (Tarjan). */
function components(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const strongConnect = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const { to } of graph.get(v) ?? []) {
      if (!index.has(to)) {
        strongConnect(to);
        low.set(v, Math.min(low.get(v)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(v, Math.min(low.get(v)!, index.get(to)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      onStack.delete(w);
      component.push(w);
      if (w === v) break;
    }
    const selfLoop = (graph.get(v) ?? []).some((e) => e.to === v);
    if (component.length > 1 || selfLoop) found.push(component.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) strongConnect(v);
  return found.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/**
 * Every tangle of modules that import each other, shown as one concrete loop: a runtime loop when
 * the tangle holds one, else a loop that closes through a type import.
 */
export function findCycles(graph: ImportGraph): Cycle[] {
  const runtimeGraph: ImportGraph = new Map(
    [...graph].map(([from, edges]) => [from, edges.filter((e) => !e.typeOnly)]),
  );
  const runtimeTangles = components(runtimeGraph);
  return components(graph).map((tangle) => {
    const runtime = runtimeTangles.find((r) => r.every((m) => tangle.includes(m)));
    return runtime
      ? { modules: loopThrough(runtimeGraph, runtime), runtime: true }
      : { modules: loopThrough(graph, tangle), runtime: false };
  });
}

/** A shortest loop from the component's first module back to itself, staying inside it. */
function loopThrough(graph: ImportGraph, component: readonly string[]): string[] {
  const start = component[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0 && !previous.has(start)) {
    const v = queue.shift()!;
    for (const { to } of graph.get(v) ?? []) {
      if (!component.includes(to) || previous.has(to)) continue;
      previous.set(to, v);
      queue.push(to);
    }
  }
  // Walk back from the import that closes the loop: start ← last ← … ← first ← start.
  const back: string[] = [];
  for (let from = previous.get(start)!; from !== start; from = previous.get(from)!) back.push(from);
  return [start, ...back.reverse()];
}

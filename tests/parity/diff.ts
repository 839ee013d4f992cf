/**
 * A readable structural diff for golden files: one line per changed leaf, `~ path: old → new`,
 * `+ path: new`, `- path: old`. Lists whose items all have a `name` are compared by name
 * (env, volumes, containers), as Metacontroller's apply merges them; other lists by position.
 */
type Json = unknown;

const isObject = (v: Json): v is Record<string, Json> => typeof v === "object" && v !== null && !Array.isArray(v);
const named = (v: Json): v is { name: string }[] =>
  Array.isArray(v) && v.length > 0 && v.every((i) => isObject(i) && typeof i.name === "string");
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

function show(value: Json): string {
  const text = JSON.stringify(value);
  return text.length > 110 ? `${text.slice(0, 100)}…(${text.length} chars)` : text;
}

function key(path: string, k: string): string {
  return IDENT.test(k) ? `${path}.${k}` : `${path}[${JSON.stringify(k)}]`;
}

export function diff(before: Json, after: Json, path = ""): string[] {
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  if (before === undefined) return [`+ ${path}: ${show(after)}`];
  if (after === undefined) return [`- ${path}: ${show(before)}`];
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys.flatMap((k) => diff(before[k], after[k], key(path, k)));
  }
  if (named(before) && named(after)) {
    const names = [...new Set([...before.map((i) => i.name), ...after.map((i) => i.name)])];
    const lines = names.flatMap((n) =>
      diff(
        before.find((i) => i.name === n),
        after.find((i) => i.name === n),
        `${path}[name=${n}]`,
      ),
    );
    const order = (list: { name: string }[]) =>
      list.map((i) => i.name).filter((n) => before.some((b) => b.name === n) && after.some((a) => a.name === n));
    if (JSON.stringify(order(before)) !== JSON.stringify(order(after)))
      lines.push(`~ ${path} (order): ${show(before.map((i) => i.name))} → ${show(after.map((i) => i.name))}`);
    return lines;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    return Array.from({ length: Math.max(before.length, after.length) }, (_, i) =>
      diff(before[i], after[i], `${path}[${i}]`),
    ).flat();
  }
  return [`~ ${path}: ${show(before)} → ${show(after)}`];
}

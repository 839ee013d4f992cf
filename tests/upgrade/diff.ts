/**
 * Where two JSON values differ, as field paths: `spec.template.metadata.annotations["llamastack.io/config-hash"]`.
 * A list whose items all have a string `name` (containers, env, volumes) is compared by name
 * (`containers[llama-stack].env[LLSD_VLLM_API_KEY]`), so one item added does not shift the rest;
 * other lists by position, and a list whose length changed is named once, as a whole.
 */
import { isPlainObject } from "../../lib/json";

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;

function member(path: string, key: string): string {
  const step = PLAIN_KEY.test(key) ? key : `[${JSON.stringify(key)}]`;
  return path === "" ? step : step.startsWith("[") ? `${path}${step}` : `${path}.${step}`;
}

function itemName(item: unknown): string | undefined {
  return isPlainObject(item) && typeof item.name === "string" ? item.name : undefined;
}

/** The list's items by name, when every item has a distinct one. */
function byName(list: readonly unknown[]): Map<string, unknown> | undefined {
  const named = new Map<string, unknown>();
  for (const item of list) {
    const name = itemName(item);
    if (name === undefined || named.has(name)) return undefined;
    named.set(name, item);
  }
  return named;
}

function listPaths(path: string, a: readonly unknown[], b: readonly unknown[], out: string[]): void {
  const [na, nb] = [byName(a), byName(b)];
  if (na && nb && (na.size > 0 || nb.size > 0)) {
    for (const name of new Set([...na.keys(), ...nb.keys()]))
      collect(`${path}[${name}]`, na.get(name), nb.get(name), out);
    return;
  }
  if (a.length !== b.length) {
    out.push(path);
    return;
  }
  a.forEach((item, i) => collect(`${path}[${i}]`, item, b[i], out));
}

function collect(path: string, a: unknown, b: unknown, out: string[]): void {
  if (Array.isArray(a) && Array.isArray(b)) return listPaths(path, a, b, out);
  if (isPlainObject(a) && isPlainObject(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) collect(member(path, key), a[key], b[key], out);
    return;
  }
  if (JSON.stringify(a) !== JSON.stringify(b)) out.push(path);
}

/** Every path where `after` differs from `before`, in the order the fields appear. */
export function differingPaths(before: unknown, after: unknown): string[] {
  const out: string[] = [];
  collect("", before, after, out);
  return out;
}

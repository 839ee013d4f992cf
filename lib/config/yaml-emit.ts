/**
 * A small block-style YAML emitter for JSON data. The general `yaml` library spends ~5 ms on a
 * distribution config; this takes a fraction of that, and its quoting is deliberately
 * conservative: a string is written plain only when both YAML 1.2 and PyYAML's YAML 1.1
 * resolver (the server's `yaml.safe_load`) must read it back as the same string. Everything
 * else is double-quoted with JSON escapes, which YAML accepts. Tests round-trip it.
 */
import { isJsonScalar } from "./doc";

/** Starts with a letter, `$`, `/` or `~/`; no spaces, no `#`, no `: `; nothing YAML could resolve to another type. */
const PLAIN = /^(?:[A-Za-z$/]|~\/)[A-Za-z0-9_./~${}:=+,@()[\]-]*$/;
/** Words PyYAML (YAML 1.1) or YAML 1.2 read as booleans or null. */
const SPECIAL = new Set(["y", "n", "yes", "no", "on", "off", "true", "false", "null"]);

/** Keys and values repeat across syncs; their quoting is decided once (bounded). */
const textOfString = new Map<string, string>();
const TEXT_CACHE_LIMIT = 20_000;

function stringText(value: string): string {
  const hit = textOfString.get(value);
  if (hit !== undefined) return hit;
  const plain = PLAIN.test(value) && !SPECIAL.has(value.toLowerCase()) && !value.endsWith(":");
  const text = plain ? value : quoted(value);
  if (textOfString.size >= TEXT_CACHE_LIMIT) textOfString.clear();
  textOfString.set(value, text);
  return text;
}

/**
 * JSON string escapes are valid YAML double-quoted escapes. JSON leaves DEL, C1 controls,
 * U+2028/2029 and non-characters raw; PyYAML treats those as line breaks or rejects them.
 */
function quoted(value: string): string {
  return JSON.stringify(value).replace(
    /[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** PyYAML (YAML 1.1) reads a float only with a dot and a signed exponent: 1e+21 → 1.0e+21. */
function numberText(value: number): string {
  const text = String(value);
  if (!/e/.test(text) || text.includes(".")) return text;
  return text.replace("e", ".0e");
}

export function scalarText(value: string | number | boolean | null): string {
  if (typeof value === "string") return stringText(value);
  if (value === null) return "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") {
    if (Number.isFinite(value)) return numberText(value);
    return Number.isNaN(value) ? ".nan" : value > 0 ? ".inf" : "-.inf";
  }
  return String(value);
}

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isEmptyCollection(value: unknown): boolean {
  return (Array.isArray(value) && value.length === 0) || (isMap(value) && Object.keys(value).length === 0);
}

function inline(value: unknown): string {
  if (Array.isArray(value)) return "[]";
  if (isMap(value)) return "{}";
  return isJsonScalar(value) ? scalarText(value) : nonDataText(value);
}

/** What no JSON holds (`undefined` in a list, a bigint, a function), as JavaScript prints it; callers pass JSON data. */
function nonDataText(value: unknown): string {
  if (value === undefined || typeof value === "bigint" || typeof value === "symbol") return String(value);
  return typeof value === "function" ? Function.prototype.toString.call(value) : "";
}

/** Orders a map's keys; `top` is true only for the document's root map. */
export type KeyOrder = (keys: string[], top: boolean) => string[];

/**
 * Frozen subtrees (a cached base config's untouched parts) always emit the same lines at the
 * same indent, so their lines are kept, joined into one chunk: the final join then copies a few
 * flat strings instead of hundreds of short ones. A chunk holds several lines, so `out` items
 * may contain "\n"; only the first line of an item is ever edited (`seq`), which a chunk allows.
 * Mutable objects are never memoized.
 */
const memo = new WeakMap<object, Map<string, readonly string[]>>();

const isFrozenObject = (value: unknown): value is object =>
  typeof value === "object" && value !== null && Object.isFrozen(value);

/** No lines stay no lines; otherwise one chunk. */
function chunkOf(lines: readonly string[]): readonly string[] {
  return lines.length <= 1 ? lines : [lines.join("\n")];
}

class Emitter {
  constructor(private readonly order: KeyOrder) {}

  node(value: unknown, indent: string, top: boolean, out: string[]): void {
    if (!isFrozenObject(value)) {
      this.emit(value, indent, top, out);
      return;
    }
    const hit = memo.get(value)?.get(indent);
    if (hit) {
      for (const line of hit) out.push(line);
      return;
    }
    const lines: string[] = [];
    this.emit(value, indent, top, lines);
    const chunk = chunkOf(lines);
    const perIndent = memo.get(value) ?? new Map<string, readonly string[]>();
    perIndent.set(indent, chunk);
    memo.set(value, perIndent);
    for (const line of chunk) out.push(line);
  }

  private emit(value: unknown, indent: string, top: boolean, out: string[]): void {
    if (Array.isArray(value)) this.seq(value, indent, out);
    else if (isMap(value)) this.map(value, indent, top, out);
    else out.push(`${indent}${inline(value)}`);
  }

  private map(map: Record<string, unknown>, indent: string, top: boolean, out: string[]): void {
    for (const key of this.order(Object.keys(map), top)) {
      const value = map[key];
      if (value === undefined) continue;
      const head = `${indent}${scalarText(key)}:`;
      if (isEmptyCollection(value) || !(Array.isArray(value) || isMap(value))) out.push(`${head} ${inline(value)}`);
      else {
        out.push(head);
        // Sequences under a key are not indented, as in the server's own config files.
        this.node(value, Array.isArray(value) ? indent : `${indent}  `, false, out);
      }
    }
  }

  private seq(seq: readonly unknown[], indent: string, out: string[]): void {
    for (const item of seq) {
      if (isEmptyCollection(item) || !(Array.isArray(item) || isMap(item))) {
        out.push(`${indent}- ${inline(item)}`);
        continue;
      }
      const lines: string[] = [];
      this.node(item, `${indent}  `, false, lines);
      const first = lines[0] ?? "";
      out.push(`${indent}- ${first.slice(indent.length + 2)}`);
      for (let i = 1; i < lines.length; i++) out.push(lines[i]!);
    }
  }
}

const keepOrder: KeyOrder = (keys) => keys;

/** YAML text for JSON data (maps, lists, strings, finite numbers, booleans, null). */
export function emitYaml(value: unknown, order: KeyOrder = keepOrder): string {
  if (isEmptyCollection(value) || !(Array.isArray(value) || isMap(value))) return `${inline(value)}\n`;
  const out: string[] = [];
  new Emitter(order).node(value, "", true, out);
  return `${out.join("\n")}\n`;
}

/**
 * A small block-style YAML emitter for JSON data. The general `yaml` library spends ~5 ms on a
 * distribution config; this takes a fraction of that, and its quoting is deliberately
 * conservative: a string is written plain only when both YAML 1.2 and PyYAML's YAML 1.1
 * resolver (the server's `yaml.safe_load`) must read it back as the same string. Everything
 * else is double-quoted with JSON escapes, which YAML accepts. Tests round-trip it.
 */
import { isPlainObject } from "../json";
import { isJsonScalar } from "./doc";

/** Starts with a letter, `$`, `/` or `~/`; no spaces, no `#`, no `: `; nothing YAML could resolve to another type. */
const PLAIN = /^(?:[A-Za-z$/]|~\/)[A-Za-z0-9_./~${}:=+,@()[\]-]*$/;
/** Words PyYAML (YAML 1.1) or YAML 1.2 read as booleans or null. */
const SPECIAL = new Set(["y", "n", "yes", "no", "on", "off", "true", "false", "null"]);

function stringText(value: string): string {
  const plain = PLAIN.test(value) && !SPECIAL.has(value.toLowerCase()) && !value.endsWith(":");
  return plain ? value : quoted(value);
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

function isEmptyCollection(value: unknown): boolean {
  return (Array.isArray(value) && value.length === 0) || (isPlainObject(value) && Object.keys(value).length === 0);
}

function inline(value: unknown): string {
  if (Array.isArray(value)) return "[]";
  if (isPlainObject(value)) return "{}";
  return isJsonScalar(value) ? scalarText(value) : nonDataText(value);
}

/** What no JSON holds (`undefined` in a list, a bigint, a function), as JavaScript prints it; callers pass JSON data. */
function nonDataText(value: unknown): string {
  if (value === undefined || typeof value === "bigint" || typeof value === "symbol") return String(value);
  return typeof value === "function" ? Function.prototype.toString.call(value) : "";
}

/** Orders a map's keys; `top` is true only for the document's root map. */
export type KeyOrder = (keys: string[], top: boolean) => readonly string[];

/** A map or list with entries: written as block lines, not inline. */
function isBlock(value: unknown): value is object {
  return (Array.isArray(value) || isPlainObject(value)) && !isEmptyCollection(value);
}

/**
 * Frozen subtrees (a cached base config's untouched parts) always emit the same text at the
 * same indent, lead and key order, so their text is kept: one string appended instead of a
 * walk. The kept texts are per key order (a sorted emit never gets an unsorted text); mutable
 * objects are never memoized.
 */
const memos = new WeakMap<KeyOrder, WeakMap<object, Map<string, string>>>();

function memoFor(order: KeyOrder): WeakMap<object, Map<string, string>> {
  let memo = memos.get(order);
  if (!memo) memos.set(order, (memo = new WeakMap()));
  return memo;
}

/**
 * Collects the text's pieces and joins them once: one flat string, which the content hash
 * reads fastest (a string built by `+=` is flattened first). A block's first line may start
 * with `lead` instead of its indent: the `- ` of the list item it opens.
 */
class Emitter {
  private readonly out: string[] = [];
  private readonly memo: WeakMap<object, Map<string, string>>;

  constructor(private readonly order: KeyOrder) {
    this.memo = memoFor(order);
  }

  text(): string {
    return this.out.join("");
  }

  node(value: object, indent: string, lead: string, top: boolean): void {
    if (!Object.isFrozen(value)) {
      this.emit(value, indent, lead, top);
      return;
    }
    // `top` orders the root map's keys its own way; only the root is emitted with it.
    const key = `${top ? "^" : ""}${lead === indent ? indent : `${lead}\n${indent}`}`;
    let texts = this.memo.get(value);
    const hit = texts?.get(key);
    if (hit !== undefined) {
      this.out.push(hit);
      return;
    }
    const start = this.out.length;
    this.emit(value, indent, lead, top);
    const text = this.out.splice(start).join("");
    this.out.push(text);
    if (!texts) this.memo.set(value, (texts = new Map<string, string>()));
    texts.set(key, text);
  }

  private emit(value: object, indent: string, lead: string, top: boolean): void {
    if (Array.isArray(value)) this.seq(value, indent, lead);
    else if (isPlainObject(value)) this.map(value, indent, lead, top);
  }

  private map(map: Record<string, unknown>, indent: string, lead: string, top: boolean): void {
    let prefix = lead;
    for (const key of this.order(Object.keys(map), top)) {
      const value = map[key];
      if (value === undefined) continue;
      const head = `${prefix}${scalarText(key)}:`;
      prefix = indent;
      if (!isBlock(value)) {
        this.out.push(head, " ", inline(value), "\n");
        continue;
      }
      this.out.push(head, "\n");
      // Sequences under a key are not indented, as in the server's own config files.
      const inner = Array.isArray(value) ? indent : `${indent}  `;
      this.node(value, inner, inner, false);
    }
  }

  private seq(seq: readonly unknown[], indent: string, lead: string): void {
    let prefix = lead;
    for (const item of seq) {
      const dash = `${prefix}- `;
      prefix = indent;
      if (!isBlock(item)) {
        this.out.push(dash, inline(item), "\n");
        continue;
      }
      const length = this.out.length;
      this.node(item, `${indent}  `, dash, false);
      // A map of undefined values only wrote nothing: an empty item.
      if (this.out.length === length || this.out[this.out.length - 1] === "") this.out.push(dash, "\n");
    }
  }
}

const keepOrder: KeyOrder = (keys) => keys;

/** YAML text for JSON data (maps, lists, strings, finite numbers, booleans, null). */
export function emitYaml(value: unknown, order: KeyOrder = keepOrder): string {
  if (!isBlock(value)) return `${inline(value)}\n`;
  const emitter = new Emitter(order);
  emitter.node(value, "", "", true);
  return emitter.text() || "\n"; // a map of undefined values only: no lines
}

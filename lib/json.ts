/**
 * JSON data as parsed from a request or a YAML file, prototype-safe access to it, and field
 * paths: a leaf every layer may use (docs/development.md, "Layers"). Every key read or written
 * may come from a user (unknown fields, annotation entries, config maps), so own properties are
 * read with `own()` and written with `define()`: a key named `__proto__` is then an ordinary
 * field, never the object's prototype.
 */

export type Segments = readonly string[];
/** A JSON object; its values stay `unknown` until a reader checks them. */
export type JsonMap = { [key: string]: unknown };
/** A JSON value. */
export type Json = null | boolean | number | string | Json[] | JsonMap;

export function isPlainObject(value: unknown): value is JsonMap {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A map whose values are all strings (labels, annotations). */
export type StringMap = { readonly [key: string]: string };

export function isStringMap(value: unknown): value is StringMap {
  return isPlainObject(value) && Object.values(value).every((v) => typeof v === "string");
}

/** The strings of a list (a schema's `required`); none when it is not a list. */
export function stringList(value: unknown): readonly string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/** The own property `key` of `value`, or undefined (never an inherited one). */
export function own(value: unknown, key: string): unknown {
  return isPlainObject(value) && Object.prototype.hasOwnProperty.call(value, key) ? value[key] : undefined;
}

/**
 * Sets an own, enumerable property, even for `__proto__`, which `=` would take as the
 * prototype. Other keys are assigned: on a plain object that is the same, and much faster.
 */
export function define<V>(target: { [key: string]: V }, key: string, value: V): void {
  if (key === "__proto__")
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

export function getPath(root: unknown, segments: Segments): unknown {
  let node = root;
  for (const key of segments) node = own(node, key);
  return node;
}

/** Sets `segments` under `root`, creating the objects on the way (they are known to be absent or objects). */
export function setPath(root: JsonMap, segments: Segments, value: unknown): void {
  const last = segments[segments.length - 1];
  if (last === undefined) return; // no path, no field
  let node = root;
  for (const key of segments.slice(0, -1)) {
    const next = own(node, key);
    if (isPlainObject(next)) node = next;
    else {
      const created: JsonMap = {};
      define(node, key, created);
      node = created;
    }
  }
  define(node, last, value);
}

/**
 * `["spec", "server", "a.b"]` → `spec.server["a.b"]`: the project's dotted field paths, with
 * any key that is not a plain identifier quoted so the path parses back to the same keys.
 */
const IDENTIFIER = /^[A-Za-z_][\w-]*$/;

export function formatPath(segments: Segments): string {
  return segments
    .map((key, i) => (IDENTIFIER.test(key) ? (i === 0 ? key : `.${key}`) : `[${JSON.stringify(key)}]`))
    .join("");
}

/**
 * `formatPath([...parentSegments, key])` from the parent's path: a walk that formats each
 * node's path this way reads every key once, instead of once per level below it.
 */
export function childPath(parent: string, key: string): string {
  return IDENTIFIER.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}

const FIRST = /^([A-Za-z_][\w-]*)/;
const NEXT = /^\.([A-Za-z_][\w-]*)/;
const QUOTED = /^\[("(?:[^"\\]|\\.)*")\]/;

/** The inverse of `formatPath`; undefined for anything `formatPath` cannot have written. */
export function parsePath(text: string): Segments | undefined {
  const segments: string[] = [];
  let rest = text;
  while (rest !== "") {
    const token = nextToken(rest, segments.length === 0);
    if (!token) return undefined;
    segments.push(token.key);
    rest = rest.slice(token.length);
  }
  return segments.length > 0 && formatPath(segments) === text ? segments : undefined;
}

/** The key at the start of `rest` and how many characters it took; undefined when none is there. */
function nextToken(rest: string, first: boolean): { key: string; length: number } | undefined {
  const plain = (first ? FIRST : NEXT).exec(rest);
  if (plain?.[1] !== undefined) return { key: plain[1], length: plain[0].length };
  const quoted = QUOTED.exec(rest);
  const key = quoted?.[1] === undefined ? undefined : jsonString(quoted[1]);
  return quoted && key !== undefined ? { key, length: quoted[0].length } : undefined;
}

/** A JSON string literal's value; undefined when `text` is not one. */
function jsonString(text: string): string | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}

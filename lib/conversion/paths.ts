/**
 * Field paths and prototype-safe JSON access for the conversion. Every key the conversion
 * reads or writes may come from a user (unknown fields, annotation entries), so own
 * properties are read with `own()` and written with `define()`: a key named `__proto__` is
 * then an ordinary field, never the object's prototype.
 */

export type Segments = readonly string[];
export type JsonMap = { [key: string]: unknown };

export function isPlainObject(value: unknown): value is JsonMap {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The own property `key` of `value`, or undefined (never an inherited one). */
export function own(value: unknown, key: string): unknown {
  return isPlainObject(value) && Object.prototype.hasOwnProperty.call(value, key) ? value[key] : undefined;
}

/** Sets an own, enumerable property, even for `__proto__`. */
export function define(target: JsonMap, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

export function getPath(root: unknown, segments: Segments): unknown {
  let node = root;
  for (const key of segments) node = own(node, key);
  return node;
}

/** Sets `segments` under `root`, creating the objects on the way (they are known to be absent or objects). */
export function setPath(root: JsonMap, segments: Segments, value: unknown): void {
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
  define(node, segments[segments.length - 1] as string, value);
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

const FIRST = /^([A-Za-z_][\w-]*)/;
const NEXT = /^\.([A-Za-z_][\w-]*)/;
const QUOTED = /^\[("(?:[^"\\]|\\.)*")\]/;

/** The inverse of `formatPath`; undefined for anything `formatPath` cannot have written. */
export function parsePath(text: string): Segments | undefined {
  const segments: string[] = [];
  let rest = text;
  while (rest !== "") {
    const plain = (segments.length === 0 ? FIRST : NEXT).exec(rest);
    const quoted = plain ? undefined : QUOTED.exec(rest);
    const token = plain ?? quoted;
    if (!token) return undefined;
    let key = token[1] as string;
    if (quoted) {
      try {
        key = JSON.parse(key) as string;
      } catch {
        return undefined;
      }
    }
    segments.push(key);
    rest = rest.slice(token[0].length);
  }
  return segments.length > 0 && formatPath(segments) === text ? segments : undefined;
}

/**
 * `deepFreeze` for values shared between calls, and `copyJson`:
 * `structuredClone` for JSON-shaped data, several times faster (`structuredClone` serializes
 * and deserializes): sync answers copy the user's pass-through objects on every call. Plain
 * objects, dense arrays and primitives are copied here with the same result, shared and
 * circular references included; a value holding anything else is handed whole to
 * `structuredClone`, so the result (or the error) is always the one it gives.
 */
export function copyJson<T>(value: T): T {
  if (typeof value !== "object" || value === null) return structuredClone(value); // primitives as is; functions and symbols throw
  try {
    return copy(value, new Map()) as T;
  } catch (err) {
    if (err === NOT_PLAIN || err instanceof RangeError) return structuredClone(value); // RangeError: nested too deep for this recursion
    throw err;
  }
}

const NOT_PLAIN = Symbol("not plain JSON data");

function copy(value: unknown, seen: Map<object, unknown>): unknown {
  if (typeof value !== "object" || value === null) {
    if (typeof value === "function" || typeof value === "symbol") throw NOT_PLAIN;
    return value;
  }
  const known = seen.get(value);
  if (known !== undefined) return known;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype || Object.keys(value).length !== value.length) throw NOT_PLAIN; // holes or extra keys
    const out: unknown[] = new Array(value.length);
    seen.set(value, out);
    for (let i = 0; i < value.length; i++) out[i] = copy(value[i], seen);
    return out;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) throw NOT_PLAIN;
  const out: { [key: string]: unknown } = {};
  seen.set(value, out);
  for (const key of Object.keys(value)) {
    const v = copy((value as { [key: string]: unknown })[key], seen);
    if (key === "__proto__")
      Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
    else out[key] = v;
  }
  return out;
}

/** Freezes `value` and everything it holds, for values shared between calls (a mutation then throws). */
export function deepFreeze(value: unknown): void {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const v of Object.values(value)) deepFreeze(v);
}

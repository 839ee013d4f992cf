/**
 * `deepFreeze` for values shared between calls, and `copyJson`:
 * `structuredClone` for JSON-shaped data, several times faster (`structuredClone` serializes
 * and deserializes): sync answers copy the user's pass-through objects on every call. Plain
 * objects, dense arrays and primitives are copied here with the same result, shared and
 * circular references included; a value holding anything else is handed whole to
 * `structuredClone`, so the result (or the error) is always the one it gives.
 */
import { define } from "./json";

export function copyJson<T>(value: T): T {
  if (typeof value !== "object" || value === null) return structuredClone(value); // primitives as is; functions and symbols throw
  try {
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- a copy of `value`, member for member: the same shape, so the same type (structuredClone is typed the same way)
    return copy(value, new Map()) as T;
  } catch (err) {
    if (err === NOT_PLAIN || err instanceof RangeError) return structuredClone(value); // RangeError: nested too deep for this recursion
    throw err;
  }
}

/** Thrown (one shared instance, no stack per throw) when a value is not plain data: structuredClone decides then. */
const NOT_PLAIN = new Error("not plain JSON data");

/**
 * An object made by a literal or a parser (JSON.parse, YAML): no class instance (a Date, a Map)
 * whose own keys would not be all it holds. Arrays are not records. Its prototype is
 * `Object.prototype` of some realm (structuredClone and test runners make objects in another
 * one), which alone has no prototype, or none.
 */
export function isPlainRecord(value: unknown): value is { [key: string]: unknown } {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === null || (typeof proto === "object" && Object.getPrototypeOf(proto) === null);
}

function copy(value: unknown, seen: Map<object, unknown>): unknown {
  if (typeof value !== "object" || value === null) {
    if (typeof value === "function" || typeof value === "symbol") throw NOT_PLAIN;
    return value;
  }
  const known = seen.get(value);
  if (known !== undefined) return known;
  if (Array.isArray(value)) return copyArray(value, seen);
  if (!isPlainRecord(value)) throw NOT_PLAIN;
  return copyRecord(value, seen);
}

function copyArray(value: readonly unknown[], seen: Map<object, unknown>): unknown[] {
  if (Object.getPrototypeOf(value) !== Array.prototype || Object.keys(value).length !== value.length) throw NOT_PLAIN; // holes or extra keys
  const out: unknown[] = new Array(value.length);
  seen.set(value, out);
  for (let i = 0; i < value.length; i++) out[i] = copy(value[i], seen);
  return out;
}

function copyRecord(value: { [key: string]: unknown }, seen: Map<object, unknown>): { [key: string]: unknown } {
  const out: { [key: string]: unknown } = {};
  seen.set(value, out);
  for (const key of Object.keys(value)) define(out, key, copy(value[key], seen));
  return out;
}

/** Freezes `value` and everything it holds, for values shared between calls (a mutation then throws). */
export function deepFreeze(value: unknown): void {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const v of Object.values(value)) deepFreeze(v);
}

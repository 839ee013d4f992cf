/** Small helpers for reading untrusted JSON and collecting warnings while converting. */
import { isDeepStrictEqual } from "node:util";
import { fieldError, type FieldError } from "../errors";
import { define, isPlainObject, own, type JsonMap } from "../json";

/** The warnings of one conversion: each names the field it is about. */
export class Notes {
  readonly warnings: FieldError[] = [];
  warn(path: string, message: string): void {
    this.warnings.push(fieldError(path, message));
  }
}

export const sameJson = (a: unknown, b: unknown): boolean => isDeepStrictEqual(a, b);

/** `value` as a list: one object becomes a list of one; anything else, none. */
export function asList(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  return value === undefined ? [] : [value];
}

/** An object with only the defined entries, in order. */
export function compact(entries: readonly (readonly [string, unknown])[]): JsonMap {
  const out: JsonMap = {};
  for (const [key, value] of entries) if (value !== undefined) define(out, key, value);
  return out;
}

/** `compact`, or undefined when nothing is left. */
export function compactOrNone(entries: readonly (readonly [string, unknown])[]): JsonMap | undefined {
  const out = compact(entries);
  return Object.keys(out).length > 0 ? out : undefined;
}

export const stringOr = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
export const objectOr = (value: unknown): JsonMap | undefined => (isPlainObject(value) ? value : undefined);

/** A Secret reference in either of our forms (`{name, key}` or `{secretKeyRef: {name, key}}`), flat; undefined when it is neither. */
export function flatSecretRef(value: unknown): JsonMap | undefined {
  const ref = isPlainObject(own(value, "secretKeyRef")) ? own(value, "secretKeyRef") : value;
  const name = own(ref, "name");
  const key = own(ref, "key");
  return typeof name === "string" && typeof key === "string" ? { name, key } : undefined;
}

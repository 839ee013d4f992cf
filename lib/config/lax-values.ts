/**
 * What a config class field of one JSON Schema type accepts on the server: pydantic 2 in its
 * default (lax) mode, on the values `yaml.safe_load` and `${env.…}` substitution give it. Wider
 * than the schema for numbers and booleans, as narrow for strings (tests/lib/config/lax-values.test.ts
 * lists the facts, read from pydantic 2.14):
 * - `int` takes 5, 5.0, true, "5", " 5 ", "1_000", "5.00"; not 5.5, "5.5", "1e3", null;
 * - `float` takes ints, true, "0.5", "1e3", "inf", "nan";
 * - `bool` takes true, 0, 1, 1.0, "yes", "off", "T" and the other words pydantic knows; not 2, "", " true ";
 * - `str` (and SecretStr, Path, URLs) takes strings only: 5, true or null are refused.
 */
import { isPlainObject } from "../json";

const INT_TEXT = /^[+-]?\d(?:_?\d)*(?:\.0+)?$/;
const DIGITS = String.raw`\d(?:_?\d)*`;
const FLOAT_TEXT = new RegExp(
  String.raw`^[+-]?(?:(?:${DIGITS}(?:\.(?:${DIGITS})?)?|\.${DIGITS})(?:[eE][+-]?${DIGITS})?|inf|infinity|nan)$`,
  "i",
);
const TRUE_WORDS = new Set(["1", "on", "t", "true", "y", "yes"]);
const FALSE_WORDS = new Set(["0", "off", "f", "false", "n", "no"]);

/** Each type's reading of a value: the value the field ends up with, or undefined when refused. */
const READERS: { readonly [type: string]: (value: unknown) => unknown } = {
  string: (value) => (typeof value === "string" ? value : undefined),
  integer: laxInteger,
  number: laxNumber,
  boolean: laxBoolean,
  null: (value) => (value === null ? null : undefined),
  object: (value) => (isPlainObject(value) ? value : undefined),
  array: (value) => (Array.isArray(value) ? value : undefined),
};

/** The value a field of `type` ends up with (a number for int/float), or undefined when refused. */
export function laxValue(type: string, value: unknown): unknown {
  const read = READERS[type];
  return read === undefined ? value : read(value); // no type: anything
}

function laxInteger(value: unknown): number | undefined {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "number") return Number.isInteger(value) ? value : undefined;
  if (typeof value !== "string") return undefined;
  const text = value.trim();
  return INT_TEXT.test(text) ? Number.parseInt(text.replaceAll("_", ""), 10) : undefined;
}

function laxNumber(value: unknown): number | undefined {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "number") return value;
  if (typeof value !== "string") return undefined;
  const text = value.trim();
  if (!FLOAT_TEXT.test(text)) return undefined;
  const lower = text.toLowerCase().replace(/^[+-]/, "");
  if (lower.startsWith("inf")) return text.startsWith("-") ? -Infinity : Infinity;
  return lower === "nan" ? Number.NaN : Number(text.replaceAll("_", ""));
}

function laxBoolean(value: unknown): boolean | undefined {
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return value === 1 ? true : value === 0 ? false : undefined;
  if (typeof value !== "string") return undefined;
  const lower = value.toLowerCase();
  return TRUE_WORDS.has(lower) ? true : FALSE_WORDS.has(lower) ? false : undefined;
}

/** How a message names what a type accepts. */
export const TYPE_WORDS: { readonly [type: string]: string } = {
  string: "a string",
  integer: "an integer",
  number: "a number",
  boolean: "true or false",
  null: "null",
  object: "an object",
  array: "a list",
};

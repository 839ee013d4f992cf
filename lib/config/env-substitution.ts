/**
 * What the server's `${env.…}` substitution does to a value (the same on every supported line):
 * a substituted string that reads as a number, a boolean or nothing becomes one (`""` → null,
 * `true`/`false` in any case → bool, Python `int()` then `float()`), and a value starting
 * with `~` is expanded to a home directory. Nothing written around the reference survives as
 * quoting: the whole resulting string is converted.
 */

const DIGITS = String.raw`\p{Nd}(?:_?\p{Nd})*`;
const PY_INT = new RegExp(String.raw`^[+-]?${DIGITS}$`, "u");
const PY_FLOAT = new RegExp(
  String.raw`^[+-]?(?:(?:${DIGITS}\.(?:${DIGITS})?|\.${DIGITS}|${DIGITS})(?:[eE][+-]?${DIGITS})?|inf|infinity|nan)$`,
  "iu",
);

export type ServerValueKind = "null" | "bool" | "int" | "float" | "string";

/** The kind of value a substituted string becomes on the server. */
export function convertedKind(value: string): ServerValueKind {
  if (value === "") return "null";
  const lowered = value.toLowerCase();
  if (lowered === "true" || lowered === "false") return "bool";
  const stripped = value.trim();
  if (PY_INT.test(stripped)) return "int";
  if (PY_FLOAT.test(stripped)) return "float";
  return "string";
}

/** `os.path.expanduser` changes the value (`~`, `~/x`, `~user/x`). */
export function expandsHome(value: string): boolean {
  return value.startsWith("~");
}

/** The value arrives as the same text it was: a string that is not converted and not expanded. */
export function staysText(value: string): boolean {
  return convertedKind(value) === "string" && !expandsHome(value);
}

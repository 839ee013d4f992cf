/**
 * The config.yaml `version` as the server reads it. The server loads the text with PyYAML
 * (`yaml.safe_load`, YAML 1.1 rules) and builds its `StackConfig` model, whose `version: int`
 * pydantic validates in lax mode: `"2"`, `" 2 "`, `"+2"`, `"02"`, `"2.0"`, `2.0` all become 2,
 * while `"2.5"`, `"0x2"`, `"2e0"`, `null` and lists are refused (the server does not start).
 * The Go operator's own samples write `version: '2'`.
 *
 * The hooks parse YAML 1.2, which reads a few plain scalars differently (`0o2` is 2 here and the
 * string "0o2" for PyYAML, `0b10` the reverse, `2e0` a number here and a string there), so a
 * plain scalar's source text is resolved the PyYAML way first.
 */

/** Unicode White_Space, which pydantic (Rust `str::trim`) strips around a numeric string. */
const WHITE_SPACE = "[\\t\\n\\v\\f\\r \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
/** Python int syntax (ASCII digits, single underscores between them), optionally `.0…`. */
const PYDANTIC_INT = new RegExp(`^${WHITE_SPACE}*([+-]?)(\\d(?:_?\\d)*)(?:\\.0+)?${WHITE_SPACE}*$`);

/** pydantic lax `int`: the integer a value becomes, or undefined when pydantic refuses it. */
export function laxInt(value: unknown): bigint | undefined {
  if (typeof value === "boolean") return value ? 1n : 0n;
  if (typeof value === "number") return Number.isInteger(value) ? BigInt(value) : undefined;
  if (typeof value !== "string") return undefined;
  const [, sign, digits] = PYDANTIC_INT.exec(value) ?? [];
  if (digits === undefined) return undefined;
  const magnitude = BigInt(digits.replace(/_/g, ""));
  return sign === "-" ? -magnitude : magnitude;
}

// PyYAML's implicit resolvers (yaml/resolver.py) for the scalars that can hold a number.
const PY_BOOL = /^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/;
const PY_NULL = /^(?:~|null|Null|NULL|)$/;
const PY_FLOAT =
  /^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
const PY_INT =
  /^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$/;

function sexagesimal(text: string): number {
  return text.split(":").reduce((total, part) => total * 60 + Number(part), 0);
}

/** An unsigned, underscore-free PyYAML float body: `.inf`, `.nan`, sexagesimal `1:30.5`, or decimal. */
function pyyamlFloat(body: string): number {
  if (/^\.(?:inf)$/i.test(body)) return Infinity;
  if (/^\.nan$/i.test(body)) return Number.NaN;
  return body.includes(":") ? sexagesimal(body) : Number(body);
}

/** An unsigned, underscore-free PyYAML int body: `0b…`, `0x…`, sexagesimal, `0…` octal, or decimal. */
function pyyamlInt(body: string): number {
  if (body.startsWith("0b")) return Number.parseInt(body.slice(2), 2);
  if (body.startsWith("0x")) return Number.parseInt(body.slice(2), 16);
  if (body.includes(":")) return sexagesimal(body);
  if (body.length > 1 && body.startsWith("0")) return Number.parseInt(body, 8);
  return Number(body);
}

/** A plain scalar as PyYAML's safe loader constructs it (bool, null, int, float or string). */
export function pyyamlPlainScalar(source: string): unknown {
  if (PY_BOOL.test(source)) return /^(?:yes|true|on)$/i.test(source);
  if (PY_NULL.test(source)) return null;
  const float = PY_FLOAT.test(source);
  if (!float && !PY_INT.test(source)) return source;
  const sign = source.startsWith("-") ? -1 : 1;
  const body = source.replace(/_/g, "").replace(/^[-+]/, "");
  return sign * (float ? pyyamlFloat(body) : pyyamlInt(body));
}

/**
 * The version the server would run with: the value as parsed here, or (`plainSource`, the text
 * of a plain scalar) as PyYAML reads it. A missing `version` is the model's default, 2.
 * Undefined when the server refuses the value.
 */
export function serverConfigVersion(value: unknown, plainSource?: string): bigint | undefined {
  if (value === undefined) return 2n;
  return laxInt(plainSource !== undefined ? pyyamlPlainScalar(plainSource) : value);
}

/**
 * A parsed value as test messages and models print it: scalars as `String` prints them, maps and
 * lists as JSON (where `String` would print `[object Object]` or join a list with commas).
 */
export function shown(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  switch (typeof value) {
    case "string":
      return value;
    case "number":
    case "boolean":
    case "bigint":
      return String(value);
    default:
      return JSON.stringify(value) ?? typeof value;
  }
}

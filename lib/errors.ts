/**
 * Errors are values: every problem found in a spec or a config carries the field path it is
 * about and a message that says how to fix it (docs/failure-policy.md).
 */
export interface FieldError {
  /** Dotted path with list indices, e.g. `spec.providers.inference[1].id`. */
  readonly path: string;
  /** What is wrong and what to do about it. Never contains a Secret value. */
  readonly message: string;
}

export function fieldError(path: string, message: string): FieldError {
  return { path, message };
}

/** `spec.x` + `y` → `spec.x.y`; `spec.x` + 2 → `spec.x[2]`. */
export function child(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  return path === "" ? key : `${path}.${key}`;
}

/** One line per error, in the `path: message` form the CLI and status conditions use. */
export function formatErrors(errors: readonly FieldError[]): string {
  return errors.map((e) => `${e.path}: ${e.message}`).join("\n");
}

/** Quote-and-join a list for messages: `"a", "b"`, or `(none)` when empty. */
export function listOf(items: readonly string[]): string {
  return items.length === 0 ? "(none)" : items.map((i) => `"${i}"`).join(", ");
}

/** The `code` of a Node.js system error (`ENOENT`, `EACCES`, …); undefined for anything else thrown. */
export function errorCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error && typeof error.code === "string"
    ? error.code
    : undefined;
}

/** A thrown value's message; undefined when it has none. Duck-typed: errors from another realm fail `instanceof`. */
export function thrownMessage(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "message" in error && typeof error.message === "string"
    ? error.message
    : undefined;
}

/** A thrown value's message, or the value as text when it has none (log lines, start-up refusals). */
export function messageOf(error: unknown): string {
  return thrownMessage(error) ?? String(error);
}

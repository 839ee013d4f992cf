/**
 * Secret values out of what we log (docs/security.md). Two tools, both for log lines only:
 *
 * - `redactSecrets(value)`: a copy of a request or response body in which every Secret object
 *   (anything with `kind: "Secret"`, wherever it sits) keeps its keys but not its values:
 *   `data`, `stringData` and every annotation value (`kubectl apply` leaves the whole Secret,
 *   values included, in `kubectl.kubernetes.io/last-applied-configuration`; Metacontroller
 *   does the same for the derived Secret in its own last-applied annotation). Used for the
 *   debug-level body lines.
 * - `secretValuesOf(body)` + `scrub(text, values)` (lib/secret-scrub.ts, the scrubber status
 *   uses too): the Secret values a request carries, and a text with each of them replaced.
 *   Used on error messages and stacks before they are logged: a library error that quotes a
 *   value it choked on must not carry it into the log.
 */

import { REDACTED, scrub, scrubDeep, secretValuesOf } from "../lib/secret-scrub";
import { isPlainObject, type JsonMap } from "../lib/json";

export { REDACTED, scrub, secretValuesOf };

function redactedValues(map: unknown): unknown {
  if (!isPlainObject(map)) return map === undefined ? undefined : REDACTED;
  return Object.fromEntries(Object.keys(map).map((key) => [key, REDACTED]));
}

// Copies are built with Object.fromEntries: a `__proto__` key from JSON stays a plain key.
function redactSecret(secret: JsonMap): JsonMap {
  return Object.fromEntries(
    Object.entries(secret).map(([key, value]) => {
      if (key === "data" || key === "stringData") return [key, redactedValues(value)];
      if (key === "metadata" && isPlainObject(value)) {
        return [
          key,
          {
            ...redactObject(value),
            ...(Object.hasOwn(value, "annotations") ? { annotations: redactedValues(value.annotations) } : {}),
          },
        ];
      }
      return [key, redactSecrets(value)];
    }),
  );
}

/** A copy of `value` with every Secret's values replaced by `[redacted]` (keys kept, for debugging). */
export function redactSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSecrets);
  return isPlainObject(value) ? redactObject(value) : value;
}

function redactObject(value: JsonMap): JsonMap {
  if (value.kind === "Secret") return redactSecret(value);
  return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, redactSecrets(child)]));
}

/**
 * What a debug line may show of a body: `redactSecrets(value)`, and every string left in it
 * with the Secret values of `source` (the request) scrubbed out — a value copied from a Secret
 * into a spec, a ConfigMap or an annotation does not reach the log either.
 */
export function forLog(value: unknown, source: unknown = value): unknown {
  return scrubDeep(redactSecrets(value), secretValuesOf(source));
}

/**
 * What a log line may say about a thrown error: an error of the same class (pino's serializer
 * reports it as `type`) with the message and stack scrubbed, and nothing else. The original's
 * other properties are left behind: body-parser's errors, for one, carry the raw body.
 */
export function scrubError(err: unknown, values: readonly string[]): Error {
  // Duck-typed: errors from another realm (vm contexts, undici) fail `instanceof Error`.
  const { message, stack } = (typeof err === "object" && err !== null ? err : {}) as {
    message?: unknown;
    stack?: unknown;
  };
  if (typeof message !== "string") return new Error(scrub(describe(err), values));
  const proto: unknown = Object.getPrototypeOf(err);
  const copy = new Error(scrub(message, values)); // an own, non-enumerable message, as Error has
  Object.setPrototypeOf(copy, typeof proto === "object" ? proto : null);
  if (typeof stack === "string")
    Object.defineProperty(copy, "stack", { value: scrub(stack, values), writable: true, configurable: true });
  else Reflect.deleteProperty(copy, "stack");
  return copy;
}

function describe(value: unknown): string {
  try {
    return `non-error value thrown: ${String(value)}`;
  } catch {
    return "non-error value thrown";
  }
}

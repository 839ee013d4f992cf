/**
 * Secret values out of what we log (DESIGN §11). Two tools, both for log lines only:
 *
 * - `redactSecrets(value)`: a copy of a request or response body in which every Secret object
 *   (anything with `kind: "Secret"`, wherever it sits) keeps its keys but not its values:
 *   `data`, `stringData` and every annotation value (`kubectl apply` leaves the whole Secret,
 *   values included, in `kubectl.kubernetes.io/last-applied-configuration`; Metacontroller
 *   does the same for the derived Secret in its own last-applied annotation). Used for the
 *   debug-level body lines.
 * - `secretValuesOf(body)` + `scrub(text, values)`: the Secret values a request carries (as
 *   sent, base64, and decoded, with the passwords inside a DSN or a dockerconfigjson), and a
 *   text with each of them replaced. Used on error messages and stacks before they are logged:
 *   a library error that quotes a value it choked on must not carry it into the log.
 */

export const REDACTED = "[redacted]";

type Json = { [key: string]: unknown };

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

function redactedValues(map: unknown): unknown {
  if (!isObject(map)) return map === undefined ? undefined : REDACTED;
  return Object.fromEntries(Object.keys(map).map((key) => [key, REDACTED]));
}

// Copies are built with Object.fromEntries: a `__proto__` key from JSON stays a plain key.
function redactSecret(secret: Json): Json {
  return Object.fromEntries(Object.entries(secret).map(([key, value]) => {
    if (key === "data" || key === "stringData") return [key, redactedValues(value)];
    if (key === "metadata" && isObject(value)) {
      return [key, { ...(redactSecrets(value) as Json), ...(Object.hasOwn(value, "annotations") ? { annotations: redactedValues(value.annotations) } : {}) }];
    }
    return [key, redactSecrets(value)];
  }));
}

/** A copy of `value` with every Secret's values replaced by `[redacted]` (keys kept, for debugging). */
export function redactSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (!isObject(value)) return value;
  if (value.kind === "Secret") return redactSecret(value);
  return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, redactSecrets(child)]));
}

/**
 * What a debug line may show of a body: `redactSecrets(value)`, and every string left in it
 * with the Secret values of `source` (the request) scrubbed out — a value copied from a Secret
 * into a spec, a ConfigMap or an annotation does not reach the log either.
 */
export function forLog(value: unknown, source: unknown = value): unknown {
  const secrets = secretValuesOf(source);
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return secrets.length === 0 ? v : scrub(v, secrets);
    if (Array.isArray(v)) return v.map(walk);
    if (!isObject(v)) return v;
    return Object.fromEntries(Object.entries(v).map(([k, child]) => [secrets.length === 0 ? k : scrub(k, secrets), walk(child)]));
  };
  return walk(redactSecrets(value));
}

/** Values shorter than this are not scrubbed: "1" or "true" would turn every log line to noise. */
const MIN_SCRUBBED_LENGTH = 4;

function decodeBase64(text: string): string | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return undefined;
  return Buffer.from(text, "base64").toString("utf8");
}

/** The parts of a decoded Secret value that are secrets on their own: DSN passwords, dockerconfigjson passwords and auths. */
function partsOf(text: string, into: Set<string>): void {
  into.add(text);
  const trimmed = text.trim();
  if (trimmed !== text) into.add(trimmed);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) {
    try {
      const url = new URL(trimmed);
      if (url.password !== "") {
        into.add(url.password);
        into.add(decodeURIComponent(url.password));
      }
    } catch {
      // Not a URL after all: the whole value is already in the set.
    }
  }
  if (trimmed.startsWith("{")) {
    try {
      collectStrings(JSON.parse(trimmed) as unknown, into);
    } catch {
      // Not JSON: the whole value is already in the set.
    }
  }
}

/** Every string leaf of a dockerconfigjson (passwords, tokens), and what an `auth` (base64 user:password) holds. */
function collectStrings(value: unknown, into: Set<string>): void {
  if (typeof value === "string") {
    into.add(value);
    const decoded = decodeBase64(value);
    if (decoded !== undefined && decoded.includes(":")) {
      into.add(decoded);
      into.add(decoded.slice(decoded.indexOf(":") + 1));
    }
  } else if (Array.isArray(value)) {
    for (const item of value) collectStrings(item, into);
  } else if (isObject(value)) {
    for (const item of Object.values(value)) collectStrings(item, into);
  }
}

function collectSecrets(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) collectSecrets(item, into);
    return;
  }
  if (!isObject(value)) return;
  if (value.kind === "Secret") {
    for (const encoded of Object.values(isObject(value.data) ? value.data : {})) {
      if (typeof encoded !== "string") continue;
      into.add(encoded);
      const decoded = decodeBase64(encoded);
      if (decoded !== undefined) partsOf(decoded, into);
    }
    for (const plain of Object.values(isObject(value.stringData) ? value.stringData : {})) {
      if (typeof plain === "string") partsOf(plain, into);
    }
    return;
  }
  for (const child of Object.values(value)) collectSecrets(child, into);
}

/** Every Secret value `body` carries, longest first (so a value is replaced before its parts). */
export function secretValuesOf(body: unknown): readonly string[] {
  const values = new Set<string>();
  collectSecrets(body, values);
  return [...values].filter((v) => v.length >= MIN_SCRUBBED_LENGTH).sort((a, b) => b.length - a.length);
}

/** `text` with every occurrence of each of `values` replaced by `[redacted]`. */
export function scrub(text: string, values: readonly string[]): string {
  let out = text;
  for (const value of values) if (out.includes(value)) out = out.split(value).join(REDACTED);
  return out;
}

/**
 * What a log line may say about a thrown error: an error of the same class (pino's serializer
 * reports it as `type`) with the message and stack scrubbed, and nothing else. The original's
 * other properties are left behind: body-parser's errors, for one, carry the raw body.
 */
export function scrubError(err: unknown, values: readonly string[]): Error {
  // Duck-typed: errors from another realm (vm contexts, undici) fail `instanceof Error`.
  const { message, stack } = (typeof err === "object" && err !== null ? err : {}) as { message?: unknown; stack?: unknown };
  if (typeof message !== "string") return new Error(scrub(describe(err), values));
  const copy = Object.create(Object.getPrototypeOf(err) as object) as Error;
  Object.defineProperty(copy, "message", { value: scrub(message, values), writable: true, configurable: true });
  if (typeof stack === "string") Object.defineProperty(copy, "stack", { value: scrub(stack, values), writable: true, configurable: true });
  return copy;
}

function describe(value: unknown): string {
  try {
    return `non-error value thrown: ${String(value)}`;
  } catch {
    return "non-error value thrown";
  }
}

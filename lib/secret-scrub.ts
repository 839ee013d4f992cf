/**
 * The one Secret scrubber: what a request's Secrets hold, and text or data with those values
 * replaced. Status (the running server's provider configs, internal-error messages) and logs
 * (hooks/redact.ts) both use it, so a value one of them would catch the other catches too.
 *
 * `secretValuesOf(body)` finds every Secret object in `body` (wherever it sits) and collects its
 * values: as sent (base64), decoded, and the secrets inside a decoded value on their own (the
 * password of a DSN, raw and percent-decoded; every string of a dockerconfigjson and the
 * password an `auth` pair holds).
 */
import { isPlainObject, type JsonMap } from "./json";

export const REDACTED = "[redacted]";

/** A percent-decoded text, or undefined when it has an escape `decodeURIComponent` rejects (a bare `%`). */
export function safeDecodeURIComponent(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
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
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) urlPassword(trimmed, into);
  if (trimmed.startsWith("{")) jsonStrings(trimmed, into);
}

/** The password of a URL (a DSN), raw and percent-decoded. */
function urlPassword(text: string, into: Set<string>): void {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return; // Not a URL after all: the whole value is already in the set.
  }
  if (url.password === "") return;
  into.add(url.password);
  const decoded = safeDecodeURIComponent(url.password);
  if (decoded !== undefined) into.add(decoded);
}

function jsonStrings(text: string, into: Set<string>): void {
  try {
    collectStrings(JSON.parse(text), into);
  } catch {
    // Not JSON: the whole value is already in the set.
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
  } else if (isPlainObject(value)) {
    for (const item of Object.values(value)) collectStrings(item, into);
  }
}

/** The string values of a Secret's `data` or `stringData` map; anything else there holds nothing. */
function stringValues(map: unknown): string[] {
  return isPlainObject(map) ? Object.values(map).filter((v): v is string => typeof v === "string") : [];
}

function secretParts(secret: JsonMap, into: Set<string>): void {
  for (const encoded of stringValues(secret.data)) {
    into.add(encoded);
    const decoded = decodeBase64(encoded);
    if (decoded !== undefined) partsOf(decoded, into);
  }
  for (const plain of stringValues(secret.stringData)) partsOf(plain, into);
}

function collectSecrets(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) collectSecrets(item, into);
    return;
  }
  if (!isPlainObject(value)) return;
  if (value.kind === "Secret") secretParts(value, into);
  else for (const child of Object.values(value)) collectSecrets(child, into);
}

/** Every Secret value `body` carries, longest first (so a value is replaced before its parts). */
export function secretValuesOf(body: unknown): readonly string[] {
  const values = new Set<string>();
  collectSecrets(body, values);
  return scrubbable(values);
}

/** The values worth scrubbing (long enough), without repeats, longest first (so a value is replaced before its parts). */
export function scrubbable(values: Iterable<string>): readonly string[] {
  return [...new Set(values)].filter((v) => v.length >= MIN_SCRUBBED_LENGTH).sort((a, b) => b.length - a.length);
}

/** `text` with every occurrence of each of `values` replaced by `[redacted]`. */
export function scrub(text: string, values: readonly string[]): string {
  let out = text;
  for (const value of values) if (out.includes(value)) out = out.split(value).join(REDACTED);
  return out;
}

/** Every string in `value` (keys included) with each of `values` replaced: a copy, `value` is not changed. */
export function scrubDeep(value: unknown, values: readonly string[]): unknown {
  if (values.length === 0) return value;
  if (typeof value === "string") return scrub(value, values);
  if (Array.isArray(value)) return value.map((v) => scrubDeep(v, values));
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, child]) => [scrub(k, values), scrubDeep(child, values)]));
}

/**
 * camelCase (the peer's spec) ⇄ snake_case (the server's config, our `settings`) for the nested
 * objects the peer's generator rewrites key by key (`network`, `vectorIndex`, `vectorStoresConfig`,
 * `compactionConfig`): ogx-ai/ogx-k8s-operator pkg/config/provider.go at commit 1784464.
 */
import { define, isPlainObject, own, type JsonMap } from "../conversion/paths";

/** Keys the generic rule gets wrong (`proxy.cacert` becomes `ca_cert`). */
const SPECIAL: readonly (readonly [string, string])[] = [["cacert", "ca_cert"]];
/** Objects whose keys are data (HTTP header names), never renamed. */
const VERBATIM = new Set(["headers"]);

export const snakeKey = (key: string): string =>
  SPECIAL.find(([camel]) => camel === key)?.[1] ?? key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
export const camelKey = (key: string): string =>
  SPECIAL.find(([, snake]) => snake === key)?.[0] ?? key.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

function rename(value: unknown, renameKey: (key: string) => string): unknown {
  if (!isPlainObject(value)) return value;
  const out: JsonMap = {};
  for (const key of Object.keys(value)) {
    const child = own(value, key);
    define(out, renameKey(key), VERBATIM.has(key) ? child : rename(child, renameKey));
  }
  return out;
}

/** A peer value as the server's config holds it: objects renamed to snake_case, the rest as is. */
export const toSnake = (value: unknown): unknown => rename(value, snakeKey);
/** The inverse of `toSnake`. */
export const toCamel = (value: unknown): unknown => rename(value, camelKey);

/**
 * `storage.kv.password` on a Redis store. The server's `kv_redis` backend has no password field
 * (every line's RedisKVStoreConfig: host, port, namespace), so the hooks never passed the
 * password on: a new CR that sets it is refused with the fix (a store behind a password is
 * `type: postgres`). A CR that already runs with it keeps running, with a warning: refusing it
 * would stop a server that works. Who knows that a CR runs (ValidateContext.keepsRedisPassword):
 * admission, from the old object of an UPDATE; the sync hook, from its observed Deployment;
 * `llsd validate`, from a document read back from the cluster (lib/cli/verdict.ts).
 */
import { isPlainObject, own } from "../json";
import { fieldError, type FieldError } from "../errors";
import type { CanonicalSpec } from "./canonical";

const FIX =
  "use type: postgres with a connectionString for a key-value store behind a password, or a Redis without AUTH behind a NetworkPolicy, and remove password";

/** The refusal (a new CR) or the warning (a running one), when a Redis store names a password. */
export function redisPasswordRule(
  spec: CanonicalSpec,
  keeps: boolean | undefined,
): { errors: FieldError[]; warnings: FieldError[] } {
  const kv = spec.storage?.kv;
  if (kv?.type !== "redis" || !kv.password) return { errors: [], warnings: [] };
  if (keeps)
    return {
      errors: [],
      warnings: [
        fieldError(
          kv.password.path,
          `the server's redis store has no password field, so the server connects without it; kept because this CR already runs with it: ${FIX}`,
        ),
      ],
    };
  return {
    errors: [
      fieldError(kv.password.path, `the server's redis store has no password field, so it would never be used: ${FIX}`),
    ],
    warnings: [],
  };
}

/** Whether a stored spec (unvalidated: an old object or a document) names a Redis password. */
export function specHasRedisPassword(spec: unknown): boolean {
  const kv = own(own(spec, "storage"), "kv");
  return isPlainObject(kv) && kv.password !== undefined && kv.password !== null;
}

/**
 * The production hook handlers: `lib/sync`'s `createSyncHook` (registry, running servers, image
 * overrides, all read from the environment there) and the customize hook.
 *
 * The registry resolver the sync hook uses is built in `lib/sync/index.ts` (`resolverFromEnv`),
 * wrapped in the SSRF guard that resolves registry hosts before any request (`lib/oci/ssrf.ts`,
 * docs/security.md).
 */
import { customizeHook } from "../lib/customize";
import type pino from "pino";
import { createSyncHook } from "../lib/sync";
import type { HookHandlers } from "./app";

/** Reads the environment: a bad setting throws, naming it. */
export function productionHandlers(logger: pino.Logger): HookHandlers {
  const sync = createSyncHook(process.env, (level, message, fields) => logger[level](fields, message));
  return { sync, customize: customizeHook };
}

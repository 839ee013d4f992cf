/**
 * The production hook handlers: `lib/sync`'s `syncHook` (registry, running servers, image
 * overrides, all read from the environment there) and the customize hook.
 *
 * The registry resolver `syncHook` uses is built in `lib/sync/index.ts` (`resolverFromEnv`),
 * wrapped in the SSRF guard that resolves registry hosts before any request (`lib/oci/ssrf.ts`,
 * README "Reliability and security").
 */
import { customizeHook } from "../lib/customize";
import { syncHook } from "../lib/sync";
import type { HookHandlers } from "./app";

export function productionHandlers(): HookHandlers {
  return { sync: syncHook, customize: customizeHook };
}

/**
 * The production hook handlers: `lib/sync`'s `createSyncHook` (registry, running servers, image
 * overrides, with the settings read from the environment in sync-settings.ts) and the customize hook.
 *
 * The registry resolver the sync hook uses is built in `lib/sync/index.ts` (`registryResolver`),
 * wrapped in the SSRF guard that resolves registry hosts before any request (`lib/oci/ssrf.ts`,
 * docs/security.md).
 */
import { customizeHook } from "../lib/sync/customize";
import type pino from "pino";
import { createSyncHook } from "../lib/sync";
import type { HookHandlers } from "./app";
import type { HookMetrics } from "./metrics";
import { syncSettingsFromEnv } from "./sync-settings";

/**
 * With the settings in `env` (main.ts passes the process environment): a bad one throws, naming
 * it. `metrics` counts the image reads (the service's /metrics).
 */
export function productionHandlers(logger: pino.Logger, env: NodeJS.ProcessEnv, metrics?: HookMetrics): HookHandlers {
  const settings = syncSettingsFromEnv(env);
  const sync = createSyncHook(
    settings,
    (level, message, fields) => logger[level](fields, message),
    metrics && ((read, result) => metrics.imageRead(read, result)),
  );
  // Admission judges the exposure the sync hook will build (lib/api/validate-expose.ts).
  const { exposeWith, gatewayParent } = settings;
  return { sync, customize: customizeHook, validation: { exposeWith, ...(gatewayParent ? { gatewayParent } : {}) } };
}

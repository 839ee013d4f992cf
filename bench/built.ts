/**
 * The service's own code as `npm run build` compiles it (dist/), for the in-process figures:
 * the Deployment runs that, not the TypeScript. tsx compiles each module on load with esbuild
 * (not tsc); measured that way, our code took about 20 % more CPU per sync than the same code
 * built (18 to 40 % across runs). Types come from the sources, which the build compiles one for
 * one.
 */
import { join } from "node:path";
import type * as App from "../hooks/app";
import type * as Handlers from "../hooks/handlers";
import type * as RequestShape from "../hooks/request-shape";
import type * as Logger from "../hooks/logger";
import type * as Metrics from "../hooks/metrics";
import type * as Caches from "../lib/caches";
import type * as Generate from "../lib/config/generate";
import type * as Render from "../lib/config/render";
import type * as Customize from "../lib/sync/customize";
import type * as SyncIo from "../lib/sync";
import type * as Memo from "../lib/sync/memo";
import type * as Sync from "../lib/sync/sync";
import { ROOT } from "./service";

/** Built module `path` (under dist/, without extension), typed as its source. */
function built<T>(path: string): T {
  // A runtime path (dist/ exists only after the build), typed by the caller as the module it was built from.
  // eslint-disable-next-line @typescript-eslint/no-require-imports, @typescript-eslint/no-unsafe-type-assertion
  return require(join(ROOT, "dist", path)) as T;
}

export const builtApp = (): typeof App => built("hooks/app");
export const builtHandlers = (): typeof Handlers => built("hooks/handlers");
export const builtRequestShape = (): typeof RequestShape => built("hooks/request-shape");
export const builtLogger = (): typeof Logger => built("hooks/logger");
export const builtMetrics = (): typeof Metrics => built("hooks/metrics");
export const builtCustomize = (): typeof Customize => built("lib/sync/customize");
export const builtCaches = (): typeof Caches => built("lib/caches");
export const builtSyncIo = (): typeof SyncIo => built("lib/sync");
export const builtSync = (): typeof Sync => built("lib/sync/sync");
export const builtMemo = (): typeof Memo => built("lib/sync/memo");
export const builtGenerate = (): typeof Generate => built("lib/config/generate");
export const builtRender = (): typeof Render => built("lib/config/render");

/**
 * The plain path, for oracles: the hooks loaded in a module registry of their own, with every
 * cache off (`LLSD_CACHE_MB=0`). An answer computed here shares no module state with the code
 * under test — no memo, no kept parse, no base config — so it cannot share a cache's mistake.
 */
import type * as Caches from "../lib/caches";
import type * as Sync from "../lib/sync";

/** `load`'s modules in a fresh registry (jest.isolateModulesAsync): none is the test's own instance. */
export async function isolated<T>(load: () => Promise<T>): Promise<T> {
  const loaded: T[] = [];
  await jest.isolateModulesAsync(async () => void loaded.push(await load()));
  const [modules] = loaded;
  if (modules === undefined) throw new Error("isolateModulesAsync did not run its callback");
  return modules;
}

let plain: Promise<{ readonly caches: typeof Caches; readonly sync: typeof Sync }> | undefined;

/** lib/caches and lib/sync of the plain path, loaded once per test file with every cache off. */
export function plainModules(): Promise<{ readonly caches: typeof Caches; readonly sync: typeof Sync }> {
  plain ??= isolated(async () => {
    const caches = await import("../lib/caches");
    caches.setCachePolicy(0);
    return { caches, sync: await import("../lib/sync") };
  });
  return plain;
}

/** `syncWith` on the plain path. */
export async function plainSyncWith(...args: Parameters<typeof Sync.syncWith>): ReturnType<typeof Sync.syncWith> {
  return (await plainModules()).sync.syncWith(...args);
}

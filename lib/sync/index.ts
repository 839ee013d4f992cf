/**
 * The sync hook wired to this process: the real clock and every setting from the environment
 * (the registry, the operator's image overrides file, the running servers, the memo). The I/O
 * itself, before the pure `sync()` and bounded in time, is in with-io.ts.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { DEFAULT_DISTRIBUTIONS, type DistributionTable } from "../distributions/table";
import { createLiveStatus, LIVE_DEFAULTS, type LiveStatus } from "../live";
import { createBaseConfigResolver, createRegistryGuard, credentialLookup, guardResolver, parseDockerConfigJson, type BaseConfigResolver, type CredentialLookup } from "../oci";
import type { SerializedAnswer, SyncRequest, SyncResponse } from "../wire/metacontroller";
import { createImageOverrides, FILE_VARIABLE, type ImageOverrides, type OverridesLog } from "./image-overrides";
import { createSyncMemo, MEMO_DEFAULTS, type SyncMemo } from "./memo";
import type { SyncDeps } from "./sync";
import { syncRemembered, syncWith } from "./with-io";

export { sync, type SyncDeps } from "./sync";
export { syncRemembered, syncWith } from "./with-io";

/** The `version` of the nearest package.json named llsd-hooks (source and dist layouts differ). */
export function packageVersion(from: string = __dirname): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const file = join(dir, "package.json");
    if (existsSync(file)) {
      try {
        const pkg = JSON.parse(readFileSync(file, "utf8")) as { name?: unknown; version?: unknown };
        if (pkg.name === "llsd-hooks" && typeof pkg.version === "string") return pkg.version;
      } catch {
        // Not ours or not JSON: keep looking up.
      }
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** Read once: the hooks pod's namespace (downward API), the exposure kind the overlay chose, the version. */
export function depsFromEnv(env: NodeJS.ProcessEnv = process.env, distributions: DistributionTable = DEFAULT_DISTRIBUTIONS): SyncDeps {
  const operatorVersion = env.OPERATOR_VERSION || packageVersion();
  return {
    now: () => new Date(),
    distributions,
    hooksNamespace: env.HOOKS_NAMESPACE ?? "llsd-hooks",
    exposeWith: env.LLSD_EXPOSE_WITH === "route" ? "route" : "ingress",
    ...(operatorVersion ? { operatorVersion } : {}),
  };
}

/** Cluster-wide pull credentials: a dockerconfigjson file mounted into the hooks pod. */
function mountedCredentials(path: string | undefined): CredentialLookup | undefined {
  if (!path) return undefined;
  const parsed = parseDockerConfigJson(readFileSync(path, "utf8"));
  if (!parsed.ok) throw new Error(`REGISTRY_AUTH_FILE ${path}: ${parsed.error}`);
  return credentialLookup(parsed.value);
}

const list = (value: string | undefined): string[] => (value ?? "").split(",").map((s) => s.trim()).filter(Boolean);

/** The registry side: off with LLSD_READ_IMAGE_LABELS=false (then bundled configs only). */
export function resolverFromEnv(env: NodeJS.ProcessEnv = process.env): BaseConfigResolver | undefined {
  if (env.LLSD_READ_IMAGE_LABELS === "false") return undefined;
  const credentials = mountedCredentials(env.REGISTRY_AUTH_FILE);
  const allowed = list(env.ALLOWED_REGISTRIES);
  const policy = {
    insecureRegistries: list(env.INSECURE_REGISTRIES),
    ...(allowed.length > 0 ? { allowedRegistries: allowed } : {}),
    privateRegistries: list(env.PRIVATE_REGISTRIES),
  };
  const guard = createRegistryGuard(policy);
  return guardResolver(createBaseConfigResolver({ ...policy, hopGuard: guard, ...(credentials ? { credentials } : {}) }), guard);
}

function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === "") return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got "${value}"`);
  return n;
}

/**
 * The running servers: off with LLSD_LIVE_STATUS=false. LLSD_LIVE_TIMEOUT_MS bounds each call
 * (1500); answers are reused for LLSD_LIVE_TTL_SECONDS (300, the CompositeController's resync
 * period); LLSD_LIVE_BASE_URL sends every call to one address instead of the Service DNS name
 * (running the hooks outside the cluster against a port-forwarded server).
 */
export function liveFromEnv(env: NodeJS.ProcessEnv = process.env): LiveStatus | undefined {
  if (env.LLSD_LIVE_STATUS === "false") return undefined;
  const base = env.LLSD_LIVE_BASE_URL;
  return createLiveStatus({
    timeoutMs: positive("LLSD_LIVE_TIMEOUT_MS", env.LLSD_LIVE_TIMEOUT_MS, LIVE_DEFAULTS.timeoutMs),
    ttlMs: positive("LLSD_LIVE_TTL_SECONDS", env.LLSD_LIVE_TTL_SECONDS, LIVE_DEFAULTS.ttlMs / 1000) * 1000,
    ...(base ? { baseUrl: () => base } : {}),
  });
}

/** The operator's distribution image overrides (DISTRIBUTION_IMAGES_FILE), re-read when the file changes. */
export function overridesFromEnv(env: NodeJS.ProcessEnv = process.env, log?: OverridesLog): ImageOverrides {
  return createImageOverrides(env[FILE_VARIABLE], DEFAULT_DISTRIBUTIONS, log ? { log } : {});
}

/** The memo's size in MiB (SYNC_MEMO_MB, default 16); 0 turns it off. */
export function memoFromEnv(env: NodeJS.ProcessEnv = process.env, now: () => number = Date.now): SyncMemo | undefined {
  const value = env.SYNC_MEMO_MB;
  const mb = value === undefined || value.trim() === "" ? MEMO_DEFAULTS.maxBytes / 2 ** 20 : Number(value);
  if (!Number.isFinite(mb) || mb < 0) throw new Error(`SYNC_MEMO_MB must be a number of MiB (0 turns the memo off), got "${value}"`);
  return mb === 0 ? undefined : createSyncMemo({ maxBytes: mb * 2 ** 20, idleMs: MEMO_DEFAULTS.idleMs, now });
}

/**
 * The sync hook as the service runs it, every setting read from `env` once, here: a bad one
 * throws, naming it (the service then refuses to start). `log` hears about the image overrides file.
 */
export function createSyncHook(env: NodeJS.ProcessEnv = process.env, log?: OverridesLog): (request: SyncRequest) => Promise<SyncResponse | SerializedAnswer> {
  const baseDeps = depsFromEnv(env);
  const resolver = resolverFromEnv(env);
  const live = liveFromEnv(env);
  const overrides = overridesFromEnv(env, log);
  const memo = memoFromEnv(env);
  return async (request) => {
    const current = overrides.current();
    const deps: SyncDeps = { ...baseDeps, distributions: current.table, ...(current.problems.length > 0 ? { imageOverrideProblems: current.problems } : {}) };
    return memo ? syncRemembered(request, deps, resolver, live, memo) : syncWith(request, deps, resolver, live);
  };
}

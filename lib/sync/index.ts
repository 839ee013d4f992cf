/**
 * The sync hook wired to this process: the real clock, the environment, the registry, the
 * operator's image overrides file and the running servers. Every piece of I/O happens here,
 * before the pure `sync()`, and is bounded in time.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import pino from "pino";
import { validate } from "../api/validate";
import { DEFAULT_DISTRIBUTIONS, type DistributionTable } from "../distributions/table";
import { createLiveStatus, LIVE_DEFAULTS, type LiveReport, type LiveStatus } from "../live";
import { createBaseConfigResolver, createRegistryGuard, credentialLookup, guardResolver, parseDockerConfigJson, type BaseConfigResolver, type CredentialLookup } from "../oci";
import type { SyncRequest, SyncResponse } from "../wire/metacontroller";
import { findBase, namespaceCredentials, type BaseOutcome } from "./base-source";
import { findExternal, type ExternalLookup } from "./external-providers";
import { createImageOverrides, FILE_VARIABLE, type ImageOverrides, type OverridesLog } from "./image-overrides";
import { liveTargetOf } from "./live-target";
import { sync, type SyncDeps } from "./sync";

export { sync, type SyncDeps } from "./sync";

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
  return guardResolver(createBaseConfigResolver({ ...policy, ...(credentials ? { credentials } : {}) }), createRegistryGuard(policy));
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

/**
 * The I/O before the pure sync, concurrently: the base config from the image (when the spec
 * generates one) and the running server's answer (when a pod is ready). Neither can fail the
 * sync; each is bounded (registry 4 s, server `timeoutMs`).
 */
export async function syncWith(request: SyncRequest, deps: SyncDeps, resolver: BaseConfigResolver | undefined, live?: LiveStatus): Promise<SyncResponse> {
  const checked = validate((request.parent as { spec?: unknown }).spec, { distributions: deps.distributions });
  const base: Promise<BaseOutcome | undefined> = resolver && checked.spec && checked.errors.length === 0
    ? findBase(checked.spec, deps.distributions, resolver, request.related) : Promise.resolve(undefined);
  const target = live ? liveTargetOf(request) : undefined;
  const report: Promise<LiveReport | undefined> = live && target ? live.check(target) : Promise.resolve(undefined);
  // External providers' metadata, read alongside (each image bounded by the resolver's deadline).
  const external: Promise<ExternalLookup | undefined> = checked.spec && checked.errors.length === 0
    ? findExternal(checked.spec, resolver, namespaceCredentials(request.related)) : Promise.resolve(undefined);
  const [found, answer, providers] = await Promise.all([base, report, external]);
  return sync(request, deps, { ...(found ?? { notes: [] }), ...(providers ? { external: providers } : {}) }, answer, checked);
}

const logger = pino({ level: process.env.LOG_LEVEL ?? "info", timestamp: pino.stdTimeFunctions.isoTime });
const baseDeps = depsFromEnv();
const resolver = resolverFromEnv();
const live = liveFromEnv();
const overrides = overridesFromEnv(process.env, (level, message, fields) => logger[level](fields, message));

export async function syncHook(request: SyncRequest): Promise<SyncResponse> {
  const current = overrides.current();
  const deps: SyncDeps = { ...baseDeps, distributions: current.table, ...(current.problems.length > 0 ? { imageOverrideProblems: current.problems } : {}) };
  return syncWith(request, deps, resolver, live);
}

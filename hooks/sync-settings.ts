/**
 * The sync hook's settings, read from the environment once, here at the edge (lib/ takes them as
 * arguments). A bad value throws, naming the variable; the service then refuses to start.
 *
 *   HOOKS_NAMESPACE            the hooks pod's namespace (downward API; llsd-hooks)
 *   LLSD_EXPOSE_WITH           `route` for OpenShift Routes, else Ingress
 *   OPERATOR_VERSION           reported in status (default: the package version)
 *   LLSD_READ_IMAGE_LABELS     `false`: bundled base configs only, no registry calls
 *   REGISTRY_AUTH_FILE         a dockerconfigjson file with cluster-wide pull credentials
 *   ALLOWED_REGISTRIES, INSECURE_REGISTRIES, PRIVATE_REGISTRIES   comma-separated host lists
 *   LLSD_LIVE_STATUS           `false`: never call the running servers
 *   LLSD_LIVE_TIMEOUT_MS       each call's bound (1500)
 *   LLSD_LIVE_TTL_SECONDS      how long an answer is reused (300, the CompositeController's resync period)
 *   LLSD_LIVE_BASE_URL         every call to one address (a port-forwarded server, hooks run outside the cluster)
 *   DISTRIBUTION_IMAGES_FILE   the operator's distribution image overrides, re-read when it changes
 *   SYNC_MEMO_MB               the memo's size in MiB (16); 0 turns it off
 */
import { readFileSync } from "node:fs";
import { LIVE_DEFAULTS } from "../lib/live";
import { credentialLookup, parseDockerConfigJson, type CredentialLookup } from "../lib/oci";
import { packageVersion, type LiveSettings, type RegistrySettings, type SyncSettings } from "../lib/sync";
import { FILE_VARIABLE } from "../lib/sync/image-overrides";
import { MEMO_DEFAULTS } from "../lib/sync/memo";

type Env = NodeJS.ProcessEnv;

const list = (value: string | undefined): string[] => (value ?? "").split(",").map((s) => s.trim()).filter(Boolean);

function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === "") return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got "${value}"`);
  return n;
}

function mountedCredentials(path: string | undefined): CredentialLookup | undefined {
  if (!path) return undefined;
  const parsed = parseDockerConfigJson(readFileSync(path, "utf8"));
  if (!parsed.ok) throw new Error(`REGISTRY_AUTH_FILE ${path}: ${parsed.error.message}`);
  return credentialLookup(parsed.value);
}

export function registrySettingsFromEnv(env: Env): RegistrySettings | undefined {
  if (env.LLSD_READ_IMAGE_LABELS === "false") return undefined;
  const credentials = mountedCredentials(env.REGISTRY_AUTH_FILE);
  const allowed = list(env.ALLOWED_REGISTRIES);
  return {
    insecureRegistries: list(env.INSECURE_REGISTRIES),
    ...(allowed.length > 0 ? { allowedRegistries: allowed } : {}),
    privateRegistries: list(env.PRIVATE_REGISTRIES),
    ...(credentials ? { credentials } : {}),
  };
}

export function liveSettingsFromEnv(env: Env): LiveSettings | undefined {
  if (env.LLSD_LIVE_STATUS === "false") return undefined;
  const baseUrl = env.LLSD_LIVE_BASE_URL;
  return {
    timeoutMs: positive("LLSD_LIVE_TIMEOUT_MS", env.LLSD_LIVE_TIMEOUT_MS, LIVE_DEFAULTS.timeoutMs),
    ttlMs: positive("LLSD_LIVE_TTL_SECONDS", env.LLSD_LIVE_TTL_SECONDS, LIVE_DEFAULTS.ttlMs / 1000) * 1000,
    ...(baseUrl ? { baseUrl } : {}),
  };
}

export function memoBytesFromEnv(env: Env): number {
  const value = env.SYNC_MEMO_MB;
  const mb = value === undefined || value.trim() === "" ? MEMO_DEFAULTS.maxBytes / 2 ** 20 : Number(value);
  if (!Number.isFinite(mb) || mb < 0) throw new Error(`SYNC_MEMO_MB must be a number of MiB (0 turns the memo off), got "${value}"`);
  return mb * 2 ** 20;
}

export function syncSettingsFromEnv(env: Env): SyncSettings {
  const operatorVersion = env.OPERATOR_VERSION || packageVersion();
  const registry = registrySettingsFromEnv(env);
  const live = liveSettingsFromEnv(env);
  const imageOverridesFile = env[FILE_VARIABLE];
  return {
    hooksNamespace: env.HOOKS_NAMESPACE ?? "llsd-hooks",
    exposeWith: env.LLSD_EXPOSE_WITH === "route" ? "route" : "ingress",
    ...(operatorVersion ? { operatorVersion } : {}),
    ...(registry ? { registry } : {}),
    ...(live ? { live } : {}),
    ...(imageOverridesFile ? { imageOverridesFile } : {}),
    memoBytes: memoBytesFromEnv(env),
  };
}

/**
 * The sync hook's settings, read from the environment once, here at the edge (lib/ takes them as
 * arguments). Every value is checked by one rule (env-values.ts): booleans are `true` or
 * `false`, numbers plain decimals in range, enums one of their values; a bad value throws,
 * naming the variable, the value and what is allowed, and the service refuses to start.
 *
 *   HOOKS_NAMESPACE            the hooks pod's namespace (downward API; llsd-hooks)
 *   LLSD_EXPOSE_WITH           `ingress` (default), `route` for OpenShift Routes, `gateway` for Gateway API HTTPRoutes
 *   LLSD_GATEWAY_PARENT        `namespace/name[/sectionName]`: the Gateway of exposed CRs that name none (with `gateway` only)
 *   OPERATOR_VERSION           reported in status (default: the package version)
 *   LLSD_READ_IMAGE_LABELS     `true` (default) or `false`: bundled base configs only, no registry calls
 *   REGISTRY_AUTH_FILE         a dockerconfigjson file with cluster-wide pull credentials
 *   ALLOWED_REGISTRIES, INSECURE_REGISTRIES, PRIVATE_REGISTRIES   comma-separated host lists
 *   LLSD_LIVE_STATUS           `true` (default) or `false`: never call the running servers
 *   LLSD_LIVE_TIMEOUT_MS       each call's bound (1500)
 *   LLSD_LIVE_TTL_SECONDS      how long an answer is reused (300, the CompositeController's resync period)
 *   LLSD_LIVE_BASE_URL         every call to one address (a port-forwarded server, hooks run outside the cluster)
 *   DISTRIBUTION_IMAGES_FILE   the operator's distribution image overrides, re-read when it changes
 *   LLSD_SERVICE_MONITORS      `true` or `false` (default): ServiceMonitor children for spec.monitoring
 *                              (the server-monitoring component adds them to the CompositeController)
 *   LLSD_SCRAPER_NAMESPACE     where Prometheus runs, admitted to each server's metrics port (`monitoring`)
 *   LLSD_CACHE_MB              the one budget of every cache, in MiB (48); 0 turns them all off
 *                              (SYNC_MEMO_MB, its predecessor, is refused with a pointer to it)
 */
import { readFileSync } from "node:fs";
import { EXPOSE_WITH, type ExposeWith, type GatewayParentRefInput } from "../lib/api/expose-types";
import { GATEWAY_PARENT_FORM, parseGatewayParent } from "../lib/api/gateway-parent";
import { LIVE_DEFAULTS } from "../lib/live";
import { credentialLookup, parseDockerConfigJson, type CredentialLookup } from "../lib/oci";
import { packageVersion, type LiveSettings, type RegistrySettings, type SyncSettings } from "../lib/sync";
import { FILE_VARIABLE } from "../lib/sync/image-overrides";
import { CACHE_BUDGET_MB } from "../lib/caches";
import { DEFAULT_SCRAPER_NAMESPACE, type ServerMonitoringSettings } from "../lib/distributions/monitoring";
import {
  BadSetting,
  booleanSetting,
  enumSetting,
  namespaceSetting,
  numberSetting,
  registryListSetting,
  setting,
  urlSetting,
  type NumberRule,
} from "./env-values";

type Env = NodeJS.ProcessEnv;

const POSITIVE: NumberRule = { integer: false, min: 0, exclusiveMin: true, means: "a positive number" };

function mountedCredentials(path: string | undefined): CredentialLookup | undefined {
  if (path === undefined) return undefined;
  const parsed = parseDockerConfigJson(readFileSync(path, "utf8"));
  if (!parsed.ok) throw new Error(`REGISTRY_AUTH_FILE ${path}: ${parsed.error.message}`);
  return credentialLookup(parsed.value);
}

/** Every value is checked even when the feature is off: a typo refuses the start whichever way it is switched. */
export function registrySettingsFromEnv(env: Env): RegistrySettings | undefined {
  const on = booleanSetting(env, "LLSD_READ_IMAGE_LABELS", true);
  const allowed = registryListSetting(env, "ALLOWED_REGISTRIES");
  const insecureRegistries = registryListSetting(env, "INSECURE_REGISTRIES");
  const privateRegistries = registryListSetting(env, "PRIVATE_REGISTRIES");
  if (!on) return undefined;
  const credentials = mountedCredentials(setting(env, "REGISTRY_AUTH_FILE"));
  return {
    insecureRegistries,
    ...(allowed.length > 0 ? { allowedRegistries: allowed } : {}),
    privateRegistries,
    ...(credentials ? { credentials } : {}),
  };
}

export function liveSettingsFromEnv(env: Env): LiveSettings | undefined {
  const on = booleanSetting(env, "LLSD_LIVE_STATUS", true);
  const baseUrl = urlSetting(env, "LLSD_LIVE_BASE_URL");
  const timeoutMs = numberSetting(env, "LLSD_LIVE_TIMEOUT_MS", POSITIVE, LIVE_DEFAULTS.timeoutMs);
  const ttlMs = numberSetting(env, "LLSD_LIVE_TTL_SECONDS", POSITIVE, LIVE_DEFAULTS.ttlMs / 1000) * 1000;
  return on ? { timeoutMs, ttlMs, ...(baseUrl ? { baseUrl } : {}) } : undefined;
}

/** The budget every cache shares (lib/caches.ts), in bytes. */
export function cacheBytesFromEnv(env: Env): number {
  // The memo's own size once; kept silently, it would no longer bound what its user meant it to.
  if (setting(env, "SYNC_MEMO_MB") !== undefined)
    throw new Error(
      "SYNC_MEMO_MB is no longer read: every cache, the sync memo included, shares one budget; set LLSD_CACHE_MB instead",
    );
  const rule: NumberRule = { integer: false, min: 0, means: "a number of MiB (0 turns every cache off)" };
  return numberSetting(env, "LLSD_CACHE_MB", rule, CACHE_BUDGET_MB) * 2 ** 20;
}

/** The default Gateway: only a gateway install reads it, so set on another it would silently do nothing. */
export function gatewayParentFromEnv(env: Env, exposeWith: ExposeWith): GatewayParentRefInput | undefined {
  const name = "LLSD_GATEWAY_PARENT";
  const value = setting(env, name);
  if (value === undefined) return undefined;
  const parent = parseGatewayParent(value);
  if (parent === undefined) throw new BadSetting(name, env[name]!, GATEWAY_PARENT_FORM);
  if (exposeWith !== "gateway")
    throw new Error(
      `${name} names a Gateway, which only LLSD_EXPOSE_WITH=gateway uses; unset it, or set LLSD_EXPOSE_WITH=gateway`,
    );
  return parent;
}

export function syncSettingsFromEnv(env: Env): SyncSettings {
  const operatorVersion = setting(env, "OPERATOR_VERSION") ?? packageVersion();
  const registry = registrySettingsFromEnv(env);
  const live = liveSettingsFromEnv(env);
  const imageOverridesFile = setting(env, FILE_VARIABLE);
  const exposeWith = enumSetting(env, "LLSD_EXPOSE_WITH", EXPOSE_WITH, "ingress");
  const gatewayParent = gatewayParentFromEnv(env, exposeWith);
  return {
    hooksNamespace: namespaceSetting(env, "HOOKS_NAMESPACE", "llsd-hooks"),
    exposeWith,
    ...(gatewayParent ? { gatewayParent } : {}),
    ...(operatorVersion ? { operatorVersion } : {}),
    ...(registry ? { registry } : {}),
    ...(live ? { live } : {}),
    ...(imageOverridesFile ? { imageOverridesFile } : {}),
    cacheBytes: cacheBytesFromEnv(env),
    serverMonitoring: serverMonitoringFromEnv(env),
  };
}

/** Where the server-monitoring component runs Prometheus, and whether ServiceMonitors may be children. */
export function serverMonitoringFromEnv(env: Env): ServerMonitoringSettings {
  return {
    serviceMonitors: booleanSetting(env, "LLSD_SERVICE_MONITORS", false),
    scraperNamespace: namespaceSetting(env, "LLSD_SCRAPER_NAMESPACE", DEFAULT_SCRAPER_NAMESPACE),
  };
}

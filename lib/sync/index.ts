/**
 * The sync hook wired to this process: the real clock and every setting passed in, read from the
 * environment by the caller (hooks/sync-settings.ts: the registry, the operator's image overrides
 * file, the running servers, the memo). The I/O itself, before the pure `sync()` and bounded in
 * time, is in with-io.ts.
 */
import type { ExposeWith, GatewayParentRefInput } from "../api/expose-types";
import type { ServerMonitoringSettings } from "../distributions/monitoring";
import { DEFAULT_DISTRIBUTIONS, type DistributionTable } from "../distributions/table";
import { createLiveStatus, type LiveStatus } from "../live";
import {
  createBaseConfigResolver,
  createRegistryGuard,
  guardResolver,
  type BaseConfigResolver,
  type CredentialLookup,
  type ImageReadObserver,
} from "../oci";
import type { HostPolicy } from "../oci/reference";
import type { SerializedAnswer, SyncRequest, SyncResponse } from "../wire/metacontroller";
import { createImageOverrides, type ImageOverrides, type OverridesLog } from "./image-overrides";
import { cacheBytes, setCachePolicy } from "../caches";
import { createSyncMemo, MEMO_DEFAULTS, type SyncMemo } from "./memo";
import type { SyncDeps } from "./sync";
import { syncRemembered, syncWith } from "./with-io";

export { sync, type SyncDeps } from "./sync";
export { packageVersion } from "../package-version";
export { syncRemembered, syncWith, type RememberedIo, type SyncIo } from "./with-io";

/** Where the registry may be reached and with which pull credentials. */
export interface RegistrySettings extends HostPolicy {
  /** Cluster-wide pull credentials (a dockerconfigjson file mounted into the hooks pod). */
  readonly credentials?: CredentialLookup;
}

/** How the running servers are asked for their version and providers. */
export interface LiveSettings {
  /** Bounds each call. */
  readonly timeoutMs: number;
  /** How long an answer is reused. */
  readonly ttlMs: number;
  /** Every call to this address instead of the Service DNS name (a port-forwarded server). */
  readonly baseUrl?: string;
}

/** Everything the process's sync hook is configured with; the environment is read at the edge. */
export interface SyncSettings {
  /** The hooks pod's namespace, allowed through each server's NetworkPolicy. */
  readonly hooksNamespace: string;
  /** Which exposure kind the overlay chose. */
  readonly exposeWith: ExposeWith;
  /** Where exposed CRs that name no Gateway attach (LLSD_GATEWAY_PARENT, only with `gateway`). */
  readonly gatewayParent?: GatewayParentRefInput;
  readonly operatorVersion?: string;
  /** Absent: bundled base configs only, no registry calls. */
  readonly registry?: RegistrySettings;
  /** Absent: no calls to the running servers. */
  readonly live?: LiveSettings;
  /** The operator's distribution image overrides file, re-read when it changes. */
  readonly imageOverridesFile?: string;
  /** The budget every cache of the process shares, in bytes (lib/caches.ts); 0 turns them off. */
  readonly cacheBytes: number;
  /** ServiceMonitors and the scraper namespace for `spec.monitoring` (the server-monitoring component). */
  readonly serverMonitoring?: ServerMonitoringSettings;
}

export function syncDeps(settings: SyncSettings, distributions: DistributionTable = DEFAULT_DISTRIBUTIONS): SyncDeps {
  return {
    now: () => new Date(),
    distributions,
    hooksNamespace: settings.hooksNamespace,
    exposeWith: settings.exposeWith,
    ...(settings.gatewayParent ? { gatewayParent: settings.gatewayParent } : {}),
    ...(settings.operatorVersion ? { operatorVersion: settings.operatorVersion } : {}),
    ...(settings.serverMonitoring ? { serverMonitoring: settings.serverMonitoring } : {}),
  };
}

/** The registry side, behind the SSRF guard that resolves registry hosts before any request; `onRead` hears how each read was answered. */
export function registryResolver(registry: RegistrySettings, onRead?: ImageReadObserver): BaseConfigResolver {
  const { credentials, ...policy } = registry;
  // One guard for the registry and for every hop after it (redirects, token realms).
  const guard = createRegistryGuard(policy);
  const options = {
    ...policy,
    hopGuard: guard,
    ...(credentials ? { credentials } : {}),
    ...(onRead ? { onRead } : {}),
  };
  return guardResolver(createBaseConfigResolver(options), guard);
}

export function liveStatus(live: LiveSettings): LiveStatus {
  const { baseUrl, ...bounds } = live;
  return createLiveStatus({ ...bounds, ...(baseUrl ? { baseUrl: () => baseUrl } : {}) });
}

/** The memo with the "sync memo" share (`maxBytes`) and the "generated configs" share (`configBytes`, lib/caches.ts). */
export function syncMemo(maxBytes: number, now: () => number = Date.now, configBytes = 0): SyncMemo | undefined {
  return maxBytes === 0 && configBytes === 0
    ? undefined
    : createSyncMemo({ maxBytes, configBytes, idleMs: MEMO_DEFAULTS.idleMs, now });
}

/** The memo as the service keeps it: the "sync memo" and "generated configs" shares of the cache budget. */
export function serviceMemo(now: () => number = Date.now): SyncMemo | undefined {
  return syncMemo(cacheBytes("sync memo"), now, cacheBytes("generated configs"));
}

export function imageOverrides(file: string | undefined, log?: OverridesLog): ImageOverrides {
  return createImageOverrides(file, DEFAULT_DISTRIBUTIONS, log ? { log } : {});
}

/** The sync hook as the service runs it. `log` hears about the image overrides file, `onImageRead` about each image read. */
export function createSyncHook(
  settings: SyncSettings,
  log?: OverridesLog,
  onImageRead?: ImageReadObserver,
): (request: SyncRequest) => Promise<SyncResponse | SerializedAnswer> {
  setCachePolicy(settings.cacheBytes); // the process's one budget, before any cache is built
  const baseDeps = syncDeps(settings);
  const resolver = settings.registry ? registryResolver(settings.registry, onImageRead) : undefined;
  const live = settings.live ? liveStatus(settings.live) : undefined;
  const overrides = imageOverrides(settings.imageOverridesFile, log);
  const memo = serviceMemo();
  return async (request) => {
    const current = overrides.current();
    const deps: SyncDeps = {
      ...baseDeps,
      distributions: current.table,
      ...(current.problems.length > 0 ? { imageOverrideProblems: current.problems } : {}),
    };
    return memo ? syncRemembered(request, deps, { resolver, live, memo }) : syncWith(request, deps, resolver, live);
  };
}

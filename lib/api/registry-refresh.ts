/**
 * `spec.registryRefreshIntervalSeconds` → `server.registry_refresh_interval_seconds`: how often
 * the server asks its providers which models they serve (`refresh_registry_task` in the server's
 * `core/stack.py`). The key exists from 0.8 on; 0.7 refreshes every 300 seconds and its
 * ServerConfig has no such key (it would be ignored). The peer operator sets the variable
 * OGX_REGISTRY_REFRESH_INTERVAL_SECONDS instead, which no server line reads
 * (docs/spec-reference.md#registryrefreshintervalseconds).
 */
import { fieldError, type FieldError } from "../errors";
import type { CanonicalSpec } from "./canonical";
import { RELEASES, type Release } from "../distributions/table";
import type { JsonMap } from "../json";

const PATH = "spec.registryRefreshIntervalSeconds";
export const REFRESH_KEY = "registry_refresh_interval_seconds";

/** Does the line's ServerConfig have `registry_refresh_interval_seconds`? (0.8 and later.) */
export function takesRegistryRefresh(release: Release): boolean {
  return release !== "0.7";
}

/** On a line without the key: refused, naming the lines that have it. */
export function registryRefreshErrors(spec: CanonicalSpec, release: Release): FieldError[] {
  if (spec.registryRefreshIntervalSeconds === undefined || takesRegistryRefresh(release)) return [];
  const have = RELEASES.filter(takesRegistryRefresh);
  const lines = `${have.slice(0, -1).join(", ")} and ${have[have.length - 1]}`;
  return [
    fieldError(
      PATH,
      `the ${release} server line has no server.${REFRESH_KEY} (it refreshes its model registry every 300 seconds); the ${lines} lines have it: remove registryRefreshIntervalSeconds, or run an image of those lines`,
    ),
  ];
}

/** overrideConfig is mounted as written: the setting belongs in that config. */
export function registryRefreshOverrideErrors(spec: CanonicalSpec): FieldError[] {
  if (spec.registryRefreshIntervalSeconds === undefined || !spec.overrideConfig) return [];
  return [
    fieldError(
      PATH,
      `overrideConfig and registryRefreshIntervalSeconds are mutually exclusive: the ConfigMap's config.yaml is used as is; set server.${REFRESH_KEY} in it and remove registryRefreshIntervalSeconds`,
    ),
  ];
}

/** The server section with the interval, when the spec sets one and the line has the key. */
export function applyRegistryRefresh(server: JsonMap, spec: CanonicalSpec, release: Release): void {
  if (spec.registryRefreshIntervalSeconds !== undefined && takesRegistryRefresh(release))
    server[REFRESH_KEY] = spec.registryRefreshIntervalSeconds;
}

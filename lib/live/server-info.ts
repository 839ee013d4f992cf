/**
 * Ask a running server the two questions the status shows (the server's own API):
 * `GET /v1/version` → `{version}` and `GET /v1/providers` → `{data: [...]}`. Both are
 * asked at once; an answer of the wrong shape is a problem like no answer at all.
 */
import { getJson, type GetJsonOptions } from "./http-json";
import type { LiveReport, ProviderInfo } from "./types";

export const VERSION_PATH = "/v1/version";
export const PROVIDERS_PATH = "/v1/providers";

/** Status must stay small (etcd objects are limited to ~1.5 MiB). */
export const MAX_PROVIDERS = 100;
export const MAX_PROVIDER_CONFIG_BYTES = 16 * 1024;
const MAX_VERSION_LENGTH = 100;

type Json = { [key: string]: unknown };
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

function versionOf(body: unknown): string | undefined {
  const version = isObject(body) ? text(body.version) : undefined;
  return version !== undefined && version.trim() !== "" && version.length <= MAX_VERSION_LENGTH
    ? version.trim()
    : undefined;
}

/** An entry without api, provider_id and provider_type is not a provider; it is left out. */
function providerOf(entry: unknown): ProviderInfo | undefined {
  if (!isObject(entry)) return undefined;
  const api = text(entry.api);
  const id = text(entry.provider_id);
  const type = text(entry.provider_type);
  if (api === undefined || id === undefined || type === undefined) return undefined;
  const config = isObject(entry.config) ? entry.config : {};
  const health = isObject(entry.health) ? entry.health : {};
  const tooBig = Buffer.byteLength(JSON.stringify(config)) > MAX_PROVIDER_CONFIG_BYTES;
  return {
    api,
    provider_id: id,
    provider_type: type,
    config: tooBig
      ? { omitted: `the server's config for this provider is larger than ${MAX_PROVIDER_CONFIG_BYTES} bytes` }
      : config,
    health: { status: text(health.status) ?? "", message: text(health.message) ?? "" },
  };
}

/** Sorted by api, then provider_id: the status does not change when the server reorders them. */
function providersOf(body: unknown): ProviderInfo[] | undefined {
  const data = isObject(body) ? body.data : undefined;
  if (!Array.isArray(data)) return undefined;
  return data
    .map(providerOf)
    .filter((p): p is ProviderInfo => p !== undefined)
    .sort((a, b) =>
      a.api === b.api
        ? a.provider_id < b.provider_id
          ? -1
          : a.provider_id > b.provider_id
            ? 1
            : 0
        : a.api < b.api
          ? -1
          : 1,
    )
    .slice(0, MAX_PROVIDERS);
}

export async function readServerInfo(baseUrl: string, options: GetJsonOptions): Promise<LiveReport> {
  const root = baseUrl.replace(/\/+$/, "");
  const [version, providers] = await Promise.all([
    getJson(`${root}${VERSION_PATH}`, options),
    getJson(`${root}${PROVIDERS_PATH}`, options),
  ]);
  const problems: string[] = [];
  const parsedVersion = version.ok ? versionOf(version.value) : undefined;
  if (!version.ok) problems.push(`GET ${VERSION_PATH}: ${version.problem}`);
  else if (parsedVersion === undefined) problems.push(`GET ${VERSION_PATH}: the answer has no "version"`);
  const parsedProviders = providers.ok ? providersOf(providers.value) : undefined;
  if (!providers.ok) problems.push(`GET ${PROVIDERS_PATH}: ${providers.problem}`);
  else if (parsedProviders === undefined) problems.push(`GET ${PROVIDERS_PATH}: the answer has no "data" list`);
  return {
    url: root,
    ...(parsedVersion !== undefined ? { version: parsedVersion } : {}),
    ...(parsedProviders !== undefined ? { providers: parsedProviders } : {}),
    problems,
  };
}

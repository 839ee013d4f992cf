/**
 * Ask a running server the two questions the status shows (the server's own API):
 * `GET /v1/version` → `{version}` and `GET /v1/providers` → `{data: [...]}`. Both are
 * asked at once; an answer of the wrong shape is a problem like no answer at all.
 */
import { getJson, type GetJsonOptions, type JsonAnswer } from "./http-json";
import type { LiveReport, ProviderInfo } from "./types";
import { isPlainObject } from "../json";

export const VERSION_PATH = "/v1/version";
export const PROVIDERS_PATH = "/v1/providers";

export const PROVIDERS_WITHHELD = `providers are not listed: the server asks for credentials on GET ${PROVIDERS_PATH} (spec.auth), and the hooks hold none`;

/** Status must stay small (etcd objects are limited to ~1.5 MiB). */
export const MAX_PROVIDERS = 100;
export const MAX_PROVIDER_CONFIG_BYTES = 16 * 1024;
const MAX_VERSION_LENGTH = 100;

const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

function versionOf(body: unknown): string | undefined {
  const version = isPlainObject(body) ? text(body.version) : undefined;
  return version !== undefined && version.trim() !== "" && version.length <= MAX_VERSION_LENGTH
    ? version.trim()
    : undefined;
}

/** An entry without api, provider_id and provider_type is not a provider; it is left out. */
function providerOf(entry: unknown): ProviderInfo | undefined {
  if (!isPlainObject(entry)) return undefined;
  const api = text(entry.api);
  const id = text(entry.provider_id);
  const type = text(entry.provider_type);
  if (api === undefined || id === undefined || type === undefined) return undefined;
  const config = isPlainObject(entry.config) ? entry.config : {};
  const health = isPlainObject(entry.health) ? entry.health : {};
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
  const data = isPlainObject(body) ? body.data : undefined;
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

interface Part<T> {
  readonly value?: T;
  readonly problem?: string;
}

function versionPart(answer: JsonAnswer): Part<string> {
  if (!answer.ok) return { problem: `GET ${VERSION_PATH}: ${answer.problem}` };
  const value = versionOf(answer.value);
  return value === undefined ? { problem: `GET ${VERSION_PATH}: the answer has no "version"` } : { value };
}

function providersPart(answer: JsonAnswer): Part<ProviderInfo[]> {
  if (!answer.ok) return { problem: `GET ${PROVIDERS_PATH}: ${answer.problem}` };
  const value = providersOf(answer.value);
  return value === undefined ? { problem: `GET ${PROVIDERS_PATH}: the answer has no "data" list` } : { value };
}

export async function readServerInfo(baseUrl: string, options: GetJsonOptions): Promise<LiveReport> {
  const root = baseUrl.replace(/\/+$/, "");
  const [versionAnswer, providersAnswer] = await Promise.all([
    getJson(`${root}${VERSION_PATH}`, options),
    getJson(`${root}${PROVIDERS_PATH}`, options),
  ]);
  const version = versionPart(versionAnswer);
  // With spec.auth on, /v1/providers needs a caller's token; /v1/version stays open, so the server is up.
  const withheld = !providersAnswer.ok && providersAnswer.denied === true && versionAnswer.ok;
  const providers = withheld ? {} : providersPart(providersAnswer);
  const problems = [version.problem, providers.problem].filter((p): p is string => p !== undefined);
  return {
    url: root,
    ...(version.value !== undefined ? { version: version.value } : {}),
    ...(providers.value !== undefined ? { providers: providers.value } : {}),
    problems,
    ...(withheld ? { withheld: PROVIDERS_WITHHELD } : {}),
  };
}

/**
 * One of our providers in the form the OGXServer tables compare: explicit `id`, flat Secret
 * references (the extra secret fields our spec allows, like `host`, moved into `secretRefs`), and
 * `endpoint` / `apiKey` kept only where the peer's typed provider has them; elsewhere they become
 * the config keys our generator would write (lib/config/providers.ts `endpointConfig`), so the
 * converted provider means the same.
 */
import { configKey, endpointConfig } from "../config/providers";
import type { ResolvedType } from "../config/provider-types";
import type { TypedProvider } from "./provider-table";
import { compact, flatSecretRef, stringOr, type Notes } from "./json";
import { define, isPlainObject, type JsonMap, own } from "../json";

const GENERIC = new Set(["id", "provider", "endpoint", "apiKey", "secretRefs", "settings"]);

interface Where {
  readonly path: string;
  readonly notes: Notes;
}

/** Every Secret reference of the provider, by the config key our generator writes it to (lib/config/providers.ts `configKey`). */
function secretRefsOf(provider: JsonMap, resolved: ResolvedType): JsonMap {
  const refs: JsonMap = {};
  const put = (field: string, value: unknown): void => {
    const ref = flatSecretRef(value);
    if (ref) define(refs, configKey(field, resolved.info), ref);
  };
  const given = own(provider, "secretRefs");
  for (const key of isPlainObject(given) ? Object.keys(given) : []) put(key, own(given, key));
  // Our spec takes `apiKey` and any other field as a Secret reference too.
  for (const key of Object.keys(provider)) if (!GENERIC.has(key) || key === "apiKey") put(key, own(provider, key));
  return refs;
}

/** `endpoint` as the config keys our generator writes for it, under `settings` (settings given win, as in ours). */
function endpointSettings(endpoint: string, resolved: ResolvedType, settings: JsonMap, where: Where): void {
  let config: JsonMap = {};
  try {
    config = endpointConfig(endpoint, resolved.info);
  } catch {
    where.notes.warn(
      `${where.path}.endpoint`,
      "is not a URL the config keys can be read from; not converted (kept in the annotation)",
    );
  }
  for (const key of Object.keys(config)) {
    if (own(settings, key) !== undefined) continue;
    define(settings, key, own(config, key));
    if (resolved.info.urlSuffix)
      where.notes.warn(
        `${where.path}.endpoint`,
        `written as settings.${key}: ${String(own(config, key))}, the URL llsd-hooks generates (it appends ${resolved.info.urlSuffix}); the peer uses its endpoint verbatim`,
      );
  }
}

/** Where `endpoint` stays: only a typed provider with an endpoint field, and not vLLM (whose URL we rewrite). */
function keepsEndpoint(resolved: ResolvedType, typed: TypedProvider | undefined): boolean {
  return Object.values(typed?.fields ?? {}).includes("endpoint") && !resolved.info.urlSuffix;
}

const nonEmpty = (map: JsonMap): JsonMap | undefined => (Object.keys(map).length > 0 ? map : undefined);

/** The reference to the type's key field, taken out of `secretRefs` when the typed provider has an API key field. */
function takeApiKey(secretRefs: JsonMap, resolved: ResolvedType, typed: TypedProvider | undefined): unknown {
  if (!Object.values(typed?.fields ?? {}).includes("apiKey")) return undefined;
  const keyField = resolved.info.keyField ?? "api_key";
  const apiKey = own(secretRefs, keyField);
  Reflect.deleteProperty(secretRefs, keyField);
  return apiKey;
}

export function canonicalProvider(
  provider: JsonMap,
  resolved: ResolvedType,
  typed: TypedProvider | undefined,
  where: Where,
): JsonMap {
  const settings: JsonMap = isPlainObject(provider.settings) ? { ...provider.settings } : {};
  const secretRefs = secretRefsOf(provider, resolved);
  const endpoint = stringOr(own(provider, "endpoint"));
  const keepEndpoint = keepsEndpoint(resolved, typed);
  if (endpoint !== undefined && !keepEndpoint) endpointSettings(endpoint, resolved, settings, where);
  const apiKey = takeApiKey(secretRefs, resolved, typed);
  return compact([
    ["id", stringOr(provider.id) ?? String(provider.provider)],
    ["provider", provider.provider],
    ["endpoint", keepEndpoint ? endpoint : undefined],
    ["apiKey", apiKey],
    ["secretRefs", nonEmpty(secretRefs)],
    ["settings", nonEmpty(settings)],
  ]);
}

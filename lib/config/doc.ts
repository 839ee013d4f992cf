/** The loose shape of a config.yaml as the generator edits it, and small helpers on it. */
import { define, isPlainObject, type JsonMap } from "../json";

export interface ProviderEntry {
  provider_id: string;
  provider_type: string;
  module?: string;
  config?: JsonMap;
}

export interface ConfigDoc {
  version?: unknown;
  apis?: string[];
  providers: { [api: string]: ProviderEntry[] };
  storage?: JsonMap;
  registered_resources?: { [kind: string]: JsonMap[] };
  vector_stores?: JsonMap;
  safety?: JsonMap;
  server?: JsonMap;
  [key: string]: unknown;
}

export function isJsonScalar(value: unknown): value is null | boolean | number | string {
  return value === null || typeof value === "string" || typeof value === "boolean" || typeof value === "number";
}

/** Objects merge key by key; anything else (lists, scalars) replaces. Inputs are not changed. */
export function deepMerge(base: JsonMap, over: JsonMap): JsonMap {
  // Key by key, not `{ ...base }` then new keys: V8 adds keys to a spread copy slowly.
  const out: JsonMap = {};
  for (const key of Object.keys(base)) define(out, key, base[key]);
  for (const key of Object.keys(over)) {
    const current = out[key];
    const value = over[key]!;
    define(
      out,
      key,
      Object.hasOwn(out, key) && isPlainObject(current) && isPlainObject(value) ? deepMerge(current, value) : value,
    );
  }
  return out;
}

/** An id as text: a number written unquoted is its digits; a list or map is never a real id, so only its tag. */
function idText(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return value === null || value === undefined ? "" : Object.prototype.toString.call(value);
}

const switchedId = (text: string): string => /^\$\{env\.[A-Z0-9_]+:\+([^}]*)\}$/.exec(text)?.[1] ?? text;

/**
 * The id a provider answers to. Distribution configs switch providers on with
 * `${env.VLLM_URL:+vllm}`; for matching and references that provider is `vllm`.
 */
export function effectiveId(providerId: unknown): string {
  const text = idText(providerId);
  if (!text.startsWith("${")) return text; // the common case, without the regex
  return switchedId(text);
}

/** True when the id only resolves when an env var is set (`${env.X:+id}`). */
export function isConditional(providerId: unknown): boolean {
  return typeof providerId === "string" && effectiveId(providerId) !== providerId;
}

/** Adds `api` to a non-empty `apis` that lacks it; an empty or absent list is left as it is. */
export function addApi(doc: ConfigDoc, api: string): void {
  if (doc.apis && doc.apis.length > 0 && !doc.apis.includes(api)) doc.apis = [...doc.apis, api];
}

export function allProviders(doc: ConfigDoc): { api: string; entry: ProviderEntry }[] {
  return Object.keys(doc.providers).flatMap((api) => (doc.providers[api] ?? []).map((entry) => ({ api, entry })));
}

/** Effective ids of one API's providers, unconditional ones first (they are always there at runtime). */
export function providerIds(doc: ConfigDoc, api: string): string[] {
  const list = doc.providers[api] ?? [];
  const always = list.filter((p) => !isConditional(p.provider_id)).map((p) => effectiveId(p.provider_id));
  const conditional = list.filter((p) => isConditional(p.provider_id)).map((p) => effectiveId(p.provider_id));
  return [...always, ...conditional];
}

/**
 * The shape a base config.yaml must have before the generator edits it: a parser that returns a
 * typed `ConfigDoc` or field errors, never a cast. Base configs come from image
 * labels and users' ConfigMaps, so any shape can arrive; the generator steps (providers,
 * disabled, resources, storage) then rely on these types.
 *
 * Checked: `providers` (API → list of entries with string `provider_id` and `provider_type`,
 * optional string `module`, optional `config` map), `apis` (list of strings),
 * `registered_resources` (kind → list of maps) and the maps `storage`, `vector_stores`,
 * `safety`, `server`. A key written with no value (`server:` → null) counts as absent. Other
 * keys pass through untouched. The result is a fresh top level (and fresh `providers` and
 * `registered_resources` maps): the generator may edit those in place; nested values stay shared.
 */
import { fieldError, type FieldError } from "../errors";
import { isPlainRecord } from "../json-copy";
import { isJsonScalar, type ConfigDoc, type ProviderEntry } from "./doc";
import { isPlainObject, type Json, type JsonMap } from "../json";

type Parsed<T> = { ok: true; value: T } | { ok: false; error: FieldError };

const bad = (path: string, what: string): { ok: false; error: FieldError } => ({
  ok: false,
  error: fieldError(
    path,
    `must be ${what}; the base config.yaml is not a Llama Stack run config this service can merge into`,
  ),
});

/** The maps the generator reads by key. */
const MAP_KEYS = ["storage", "vector_stores", "safety", "server"] as const;

/** A key written with no value (`module:` → null) counts as absent. */
const isAbsent = (value: unknown): value is null | undefined => value === undefined || value === null;

function optionalFieldProblem(entry: JsonMap, path: string): { ok: false; error: FieldError } | undefined {
  const { module, config } = entry;
  if (!isAbsent(module) && typeof module !== "string") return bad(`${path}.module`, "a string");
  if (!isAbsent(config) && !isPlainObject(config)) return bad(`${path}.config`, "a map");
  return undefined;
}

function providerEntry(value: unknown, path: string): Parsed<ProviderEntry> {
  if (!isPlainObject(value)) return bad(path, "a map with provider_id and provider_type");
  const { provider_id: id, provider_type: type, module, config } = value;
  if (typeof id !== "string") return bad(`${path}.provider_id`, "a string");
  if (typeof type !== "string") return bad(`${path}.provider_type`, "a string");
  const problem = optionalFieldProblem(value, path);
  if (problem) return problem;
  const { config: _config, module: _module, ...rest } = value;
  const entry: ProviderEntry = {
    ...rest,
    provider_id: id,
    provider_type: type,
    ...(typeof module === "string" ? { module } : {}),
    ...(isPlainObject(config) ? { config } : {}),
  };
  return { ok: true, value: entry };
}

function listOf<T>(
  value: unknown,
  path: string,
  item: (v: unknown, path: string) => Parsed<T>,
  what: string,
): Parsed<T[]> {
  if (!Array.isArray(value)) return bad(path, what);
  const out: T[] = [];
  for (let i = 0; i < value.length; i++) {
    const parsed = item(value[i] ?? null, `${path}[${i}]`);
    if (!parsed.ok) return parsed;
    out.push(parsed.value);
  }
  return { ok: true, value: out };
}

function providers(value: unknown, path: string): Parsed<{ [api: string]: ProviderEntry[] }> {
  if (!isPlainObject(value))
    return {
      ok: false,
      error: fieldError(path, "the base config.yaml has no providers map; it is not a Llama Stack run config"),
    };
  const out: { [api: string]: ProviderEntry[] } = {};
  for (const [api, list] of Object.entries(value)) {
    if (list === null) continue; // `inference:` with nothing under it: no providers
    const parsed = listOf(list, `${path}.${api}`, providerEntry, "a list of providers");
    if (!parsed.ok) return parsed;
    out[api] = parsed.value;
  }
  return { ok: true, value: out };
}

const mapItem = (v: unknown, path: string): Parsed<JsonMap> =>
  isPlainObject(v) ? { ok: true, value: v } : bad(path, "a map");
const stringItem = (v: unknown, path: string): Parsed<string> =>
  typeof v === "string" ? { ok: true, value: v } : bad(path, "a string");

function resources(value: unknown, path: string): Parsed<{ [kind: string]: JsonMap[] }> {
  if (!isPlainObject(value)) return bad(path, "a map of resource lists");
  const out: { [kind: string]: JsonMap[] } = {};
  for (const [kind, list] of Object.entries(value)) {
    if (list === null) continue;
    const parsed = listOf(list, `${path}.${kind}`, mapItem, "a list of maps");
    if (!parsed.ok) return parsed;
    out[kind] = parsed.value;
  }
  return { ok: true, value: out };
}

/** A present value parsed; an absent one (or one written with no value) stays undefined. */
function ifPresent<T>(value: unknown, parse: (value: unknown) => Parsed<T>): Parsed<T | undefined> {
  return isAbsent(value) ? { ok: true, value: undefined } : parse(value);
}

/** Keys that a base may write with no value: removed from the result, as if absent. */
const NULLABLE_KEYS = ["apis", "registered_resources", ...MAP_KEYS] as const;

/** `value` (a parsed config.yaml mapping) as a `ConfigDoc`, or the first field that does not fit. */
export function parseConfigDoc(
  value: JsonMap,
  path: string,
): { ok: true; doc: ConfigDoc } | { ok: false; errors: FieldError[] } {
  const fail = (error: FieldError) => ({ ok: false as const, errors: [error] });
  const parsedProviders = providers(value.providers, `${path}.providers`);
  if (!parsedProviders.ok) return fail(parsedProviders.error);
  const apis = ifPresent(value.apis, (v) => listOf(v, `${path}.apis`, stringItem, "a list of API names"));
  if (!apis.ok) return fail(apis.error);
  const rr = ifPresent(value.registered_resources, (v) => resources(v, `${path}.registered_resources`));
  if (!rr.ok) return fail(rr.error);
  const notMap = MAP_KEYS.find((key) => !isAbsent(value[key]) && !isPlainObject(value[key]));
  if (notMap !== undefined) return fail(bad(`${path}.${notMap}`, "a map").error);
  const doc: ConfigDoc = { ...value, providers: parsedProviders.value };
  if (apis.value !== undefined) doc.apis = apis.value;
  if (rr.value !== undefined) doc.registered_resources = rr.value;
  for (const key of NULLABLE_KEYS) if (value[key] === null) delete doc[key];
  return { ok: true, doc };
}

/** True when `value` is JSON data all the way down (what a YAML parse of ours gives); an object passed in by a caller may not be. */
export function isJson(value: unknown, depth = 0): value is Json {
  if (depth > 200) return false;
  if (isJsonScalar(value)) return true;
  if (Array.isArray(value)) return value.every((v) => isJson(v, depth + 1));
  return isPlainRecord(value) && Object.values(value).every((v) => isJson(v, depth + 1));
}

/** The error for a free-form field that holds something other than plain data. */
export const NOT_PLAIN_DATA = "must be a map of plain data (strings, numbers, booleans, null, lists, maps)";

/** A map of JSON data: what a CR's free-form fields (`settings`, `metadata`, `config`) hold once parsed from JSON. */
export function isJsonMap(value: unknown): value is JsonMap {
  return isPlainObject(value) && isJson(value);
}

/**
 * `provider: vllm` → `provider_type: remote::vllm`, and which config keys the real server
 * reads for the endpoint and the API key of each type. Both come from the release's own
 * provider registry and config classes (provider-fields.generated.ts), never from a hand list:
 * a type the release does not register is refused with the reason.
 */
import { closestNames, nearest } from "../suggest";
import { RELEASES, type Release } from "../distributions/table";
import { PROVIDER_FIELDS } from "./provider-fields.generated";
import { fieldsOf, registeredNames, type TypeFields } from "./provider-fields";
import { schemaTagOf, SCHEMA_TAGS } from "../distributions/releases";

export interface TypeInfo {
  /** Where `endpoint` goes; `split-postgres` spreads a URL over host/port/db (pgvector). */
  readonly urlKey?: string;
  /** Appended to the endpoint when missing: vLLM and Ollama serve the OpenAI API under /v1. */
  readonly urlSuffix?: string;
  /** Where `apiKey` goes. */
  readonly keyField?: string;
  /** Every config key the type reads, with the kinds of value it accepts. */
  readonly fields?: TypeFields["fields"];
  /** Keys the server requires in the entry's config. */
  readonly required?: readonly string[];
}

/**
 * The API path, not a config key: vLLM and Ollama take a base URL that ends in /v1 (the OpenAI
 * API), and users usually give the server's root.
 */
const URL_SUFFIX: { readonly [type: string]: string } = { "remote::vllm": "/v1", "remote::ollama": "/v1" };

/** Old names users may still write, and what the supported releases call them. */
export const RENAMED_TYPES: { readonly [name: string]: string } = {
  "rag-runtime": "file-search",
  sqlite_vec: "sqlite-vec",
};
/** Types removed before any supported release (no schema lists them): named so the error says so. */
const LONG_REMOVED = new Set([
  "remote::tgi",
  "remote::hf::serverless",
  "remote::hf::endpoint",
  "inline::meta-reference",
]);

export interface ResolvedType {
  readonly type: string;
  readonly info: TypeInfo;
  /** False for types outside the release's registry: their keys cannot be checked, so defaults apply. */
  readonly known: boolean;
  readonly note?: string;
  readonly error?: string;
  /** Set on the error for a name no type of the line matches (not a removed or refused type). */
  readonly unregistered?: true;
}

/**
 * Each registered type's facts, built once: the generated table is static, so this index grows
 * to its size at most (no request adds to it), and every sync asks for the same few types many
 * times (validation, generation, the Secret checks).
 */
const INFO = new WeakMap<TypeFields, TypeInfo>();

function infoOf(type: string, fields: TypeFields): TypeInfo {
  let info = INFO.get(fields);
  if (info === undefined) INFO.set(fields, (info = Object.freeze(buildInfo(type, fields))));
  return info;
}

function buildInfo(type: string, fields: TypeFields): TypeInfo {
  const suffix = URL_SUFFIX[type];
  return {
    ...(fields.url ? { urlKey: fields.url } : {}),
    ...(suffix ? { urlSuffix: suffix } : {}),
    ...(fields.key ? { keyField: fields.key } : {}),
    ...(fields.required ? { required: fields.required } : {}),
    fields: fields.fields,
  };
}

/** Some supported or newer line registers the type for this API (so its absence here is a removal, not a typo). */
function registeredElsewhere(serverApi: string, type: string): boolean {
  return SCHEMA_TAGS.some((tag) => PROVIDER_FIELDS[tag].providers[serverApi]?.[type] !== undefined);
}

/** The first line after `release` that registers the type, when no line up to `release` does (it is new, not removed). */
function addedLater(serverApi: string, type: string, release: Release): Release | undefined {
  const registers = (r: Release) => PROVIDER_FIELDS[schemaTagOf(r)].providers[serverApi]?.[type] !== undefined;
  const at = RELEASES.indexOf(release);
  if (RELEASES.slice(0, at + 1).some(registers)) return undefined;
  return RELEASES.slice(at + 1).find(registers);
}

function removedMessage(serverApi: string, type: string, release: Release): string {
  const added = addedLater(serverApi, type, release);
  return added === undefined
    ? `${type} does not exist on ${release}.x servers (removed upstream); choose another provider, e.g. vllm or ollama`
    : `${type} does not exist on ${release}.x servers (added in ${added}.x); run a ${added} image, or choose another provider`;
}

function resolved(serverApi: string, type: string, release: Release, note?: string): ResolvedType {
  const fields = fieldsOf(release).providers[serverApi]?.[type];
  if (fields?.refused)
    return {
      type,
      info: {},
      known: false,
      error: `${type} is refused by ${release}.x servers (deprecated upstream); choose another provider`,
    };
  if (fields) return { type, info: infoOf(type, fields), known: true, ...(note ? { note } : {}) };
  if (LONG_REMOVED.has(type) || registeredElsewhere(serverApi, type))
    return { type, info: {}, known: false, error: removedMessage(serverApi, type, release) };
  // Written in full on purpose: a type of the user's own, which the image must provide.
  const custom = `${type} is not a type that ${release}.x servers register for ${serverApi}; used as written, so the image must provide it`;
  return { type, info: {}, known: false, note: custom };
}

/** The type `name` had when some line registered it (or before any supported one did), if any. */
function removedType(serverApi: string, name: string): string | undefined {
  const remote = `remote::${name}`;
  if (registeredElsewhere(serverApi, remote) || LONG_REMOVED.has(remote)) return remote;
  const inline = `inline::${name}`;
  return registeredElsewhere(serverApi, inline) ? inline : undefined;
}

/** A name the release does not register: a removed type, a typo or an unknown name is an error naming the closest ones. */
function unregistered(serverApi: string, provider: string, name: string, release: Release): ResolvedType {
  const removed = removedType(serverApi, name);
  if (removed !== undefined)
    return { type: removed, info: {}, known: false, error: removedMessage(serverApi, removed, release) };
  return {
    type: `remote::${name}`,
    info: {},
    known: false,
    unregistered: true,
    error: unknownMessage(serverApi, provider, name, release),
  };
}

/**
 * `remote::<name>` for a name no type matches would be a server that never starts, so the
 * message names the closest names of the line (a typo's one match, else the nearest three) and
 * the two ways to a provider of one's own.
 */
function unknownMessage(serverApi: string, provider: string, name: string, release: Release): string {
  const names = registeredNames(serverApi, release);
  const near = nearestKnown(names, name);
  const closest = closestNames(provider, names).map((n) => `"${n}"`);
  const which =
    near !== undefined
      ? `: did you mean "${near}"?`
      : closest.length > 0
        ? `; the closest are ${closest.slice(0, -1).join(", ")}${closest.length > 1 ? " and " : ""}${closest.at(-1)}`
        : `; that line has no ${serverApi} provider`;
  return `unknown ${serverApi} provider "${provider}" on ${release}.x servers${which} (for a provider of your own, write its type in full, e.g. remote::${name}, or list its image under spec.externalProviders)`;
}

/** The type table of the release first; a name it lacks is an error (a type written in full is used, with a note). */
export function resolveProviderType(
  serverApi: string,
  provider: string,
  hasEndpoint: boolean,
  release: Release,
): ResolvedType {
  if (provider.includes("::")) return resolved(serverApi, provider, release);
  // Own keys only: a provider written as `constructor` or `__proto__` is a name, not a lookup into Object.
  const renamed = Object.hasOwn(RENAMED_TYPES, provider) ? RENAMED_TYPES[provider] : undefined;
  const name = renamed ?? provider;
  const types = fieldsOf(release).providers[serverApi] ?? {};
  const note = renamed
    ? `provider "${provider}" is called "${renamed}" on ${release}.x servers; generated ${name}`
    : undefined;
  const remote = `remote::${name}`;
  const inline = `inline::${name}`;
  if (types[remote] && (hasEndpoint || !types[inline])) return resolved(serverApi, remote, release, note);
  if (types[inline]) return resolved(serverApi, inline, release, note);
  return unregistered(serverApi, provider, name, release);
}

/**
 * A known name one or two edits away (`vlm` → `vllm`, `olama` → `ollama`): a typo, not a new
 * provider, so it is refused rather than generated as `remote::vlm` (a server that never starts).
 * Short names need a closer match, so `oci` is not mistaken for `gcp`.
 */
function nearestKnown(names: readonly string[], name: string): string | undefined {
  const known = new Set([...names, ...Object.keys(RENAMED_TYPES)]);
  const near = nearest(name, known);
  return near === undefined ? undefined : (RENAMED_TYPES[near] ?? near);
}

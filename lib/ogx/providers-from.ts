/**
 * `spec.providers` of an OGXServer → ours: every typed provider becomes `{id, provider, endpoint,
 * apiKey, secretRefs, settings}` through provider-table.ts, every `custom` one
 * `{id, provider: <type>, secretRefs, settings}`. Ids are always written: the peer's default
 * (`remote-vllm`) is not ours (`vllm`).
 */
import { typedIn, type TypedProvider } from "./provider-table";
import { toSetting } from "./keys";
import { asList, compact, type Notes } from "./json";
import { define, isPlainObject, type JsonMap, own } from "../json";
import { OGX_SECTIONS } from "./schema";
import type { OgxSection } from "./types";

const BUCKETS = ["remote", "inline"] as const;

const VLLM_ENDPOINT =
  "written as settings.base_url, verbatim: the peer uses the endpoint as the base URL as it is, while llsd-hooks appends /v1 to an `endpoint` that lacks it";

/** The peer's id of a custom provider without one (`CustomProvider.DeriveID`). */
export const customId = (type: string): string => type.split("::").join("-");

export function fromTyped(typed: TypedProvider, entry: JsonMap): JsonMap {
  const id = typed.routed && typeof entry.id === "string" ? entry.id : typed.defaultId;
  const out: JsonMap = { id, provider: typed.name };
  const secretRefs: JsonMap = {};
  const settings: JsonMap = {};
  for (const [field, place] of Object.entries(typed.fields)) {
    const value = own(entry, field);
    if (value === undefined) continue;
    if (place === "endpoint" || place === "apiKey") define(out, place, value);
    else if ("secret" in place) define(secretRefs, place.secret, value);
    else define(settings, place.setting, toSetting(place.setting, value));
  }
  if (Object.keys(secretRefs).length > 0) out.secretRefs = secretRefs;
  if (Object.keys(settings).length > 0) out.settings = settings;
  return out;
}

function fromCustom(entry: JsonMap, path: string, notes: Notes): JsonMap {
  const type = String(entry.type);
  const settings = own(entry, "settings");
  if (settings !== undefined)
    notes.warn(
      `${path}.settings`,
      "the peer merges settings into the provider's config key by key (shallow, a key in both settings and secretRefs is an error); llsd-hooks merges them deep, last",
    );
  return compact([
    ["id", typeof entry.id === "string" ? entry.id : customId(type)],
    ["provider", type],
    ["secretRefs", own(entry, "secretRefs")],
    ["settings", settings],
  ]);
}

function fromBucket(section: OgxSection, bucket: (typeof BUCKETS)[number], value: unknown, notes: Notes): JsonMap[] {
  const path = `spec.providers.${section}.${bucket}`;
  const typed = typedIn(section, bucket).flatMap((t) =>
    asList(own(value, t.field)).flatMap((entry, i) => {
      if (!isPlainObject(entry)) return [];
      if (t.field === "vllm" && entry.endpoint !== undefined) notes.warn(`${path}.vllm[${i}].endpoint`, VLLM_ENDPOINT);
      return [fromTyped(t, entry)];
    }),
  );
  const custom = asList(own(value, "custom")).flatMap((entry, i) =>
    isPlainObject(entry) ? [fromCustom(entry, `${path}.custom[${i}]`, notes)] : [],
  );
  return [...typed, ...custom];
}

/**
 * Our `spec.providers`, or undefined when the peer's has none. The peer replaces the base
 * config's whole provider block of each API it is given providers for: the caller lists those
 * sections in `spec.replace` (spec-from.ts), so the base's other providers go here too.
 */
export function providersFromOgx(providers: unknown, notes: Notes): JsonMap | undefined {
  if (!isPlainObject(providers)) return undefined;
  const out: JsonMap = {};
  for (const section of OGX_SECTIONS) {
    const api = own(providers, section);
    if (api === undefined) continue;
    const list = BUCKETS.flatMap((bucket) => fromBucket(section, bucket, own(api, bucket), notes));
    if (list.length > 0) out[section] = list;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

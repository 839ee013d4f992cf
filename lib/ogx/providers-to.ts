/**
 * Our `spec.providers` → an OGXServer's: each provider becomes the peer's typed provider when
 * the type has one and every field has a typed home (provider-table.ts), else `custom` with the
 * server's config keys. A provider the peer cannot hold (a section it lacks, a type no line
 * registers) is left out with a warning; the conversion keeps it in its annotation.
 */
import { SERVER_API, type ProviderApi } from "../api/apis";
import { DEFAULT_RELEASE } from "../distributions/table";
import { resolveProviderType, type ResolvedType } from "../config/provider-types";
import { celFailures, structuralErrors } from "../crd/check";
import { canonicalProvider } from "./provider-canonical";
import { fromTyped } from "./providers-from";
import { typedFor, type Place, type TypedProvider } from "./provider-table";
import { fromSetting, toCamel } from "./keys";
import { asList, Notes, sameJson } from "./json";
import { define, isPlainObject, type JsonMap, own } from "../json";
import { CUSTOM_PROVIDER, PROVIDERS } from "./schema-providers";
import { OGX_PROVIDER_SECTIONS } from "./schema";
import type { OgxSection } from "./types";
import type { Node } from "./schema-parts";

const isOgxSection = (section: string): section is OgxSection => Object.hasOwn(OGX_PROVIDER_SECTIONS, section);

function fits(node: Node, value: unknown): boolean {
  return structuralErrors(node, value).length === 0 && celFailures(node, value).failures.length === 0;
}

function typedNode(typed: TypedProvider): Node {
  const field = [typed.section, typed.bucket, typed.field].reduce<unknown>(
    (node, key) => own(own(node, "properties"), key),
    PROVIDERS,
  );
  const node = typed.routed ? own(field, "items") : field;
  return isPlainObject(node) ? node : {};
}

function valueAt(canonical: JsonMap, place: Place): unknown {
  if (place === "endpoint" || place === "apiKey") return own(canonical, place);
  return "secret" in place
    ? own(own(canonical, "secretRefs"), place.secret)
    : own(own(canonical, "settings"), place.setting);
}

/** A setting as the peer's field holds it (pgvector's index has a shape of its own there). */
const peerValue = (place: Place, value: unknown): unknown =>
  typeof place === "object" && "setting" in place ? fromSetting(place.setting, value) : toCamel(value);

/** The typed entry for a canonical provider, when every field has a home and it comes back the same. */
function toTyped(typed: TypedProvider, canonical: JsonMap): JsonMap | undefined {
  if (!typed.routed && canonical.id !== typed.defaultId) return undefined;
  const entry: JsonMap = typed.routed ? { id: canonical.id } : {};
  for (const [field, place] of Object.entries(typed.fields)) {
    const value = valueAt(canonical, place);
    if (value !== undefined) define(entry, field, peerValue(place, value));
  }
  return fits(typedNode(typed), entry) && sameJson(fromTyped(typed, entry), canonical) ? entry : undefined;
}

function toCustom(canonical: JsonMap, type: string): JsonMap | undefined {
  const entry: JsonMap = { id: canonical.id, type };
  if (canonical.secretRefs !== undefined) entry.secretRefs = canonical.secretRefs;
  if (canonical.settings !== undefined) entry.settings = canonical.settings;
  return fits(CUSTOM_PROVIDER, entry) ? entry : undefined;
}

type Placed = { bucket: string; field: string; routed: boolean; entry: JsonMap };

/** The provider as the peer's typed provider, when it has one that holds every field. */
function placeTyped(
  provider: JsonMap,
  resolved: ResolvedType,
  where: { section: OgxSection; path: string; notes: Notes },
): Placed | undefined {
  const typed = typedFor(where.section, resolved.type);
  if (!typed) return undefined;
  const tried = new Notes();
  const canonical = canonicalProvider(provider, resolved, typed, { path: where.path, notes: tried });
  const entry = toTyped(typed, { ...canonical, provider: typed.name });
  if (!entry) return undefined;
  where.notes.warnings.push(...tried.warnings);
  return { bucket: typed.bucket, field: typed.field, routed: typed.routed, entry };
}

function placeProvider(section: OgxSection, provider: unknown, path: string, notes: Notes): Placed | undefined {
  const name = own(provider, "provider");
  if (!isPlainObject(provider) || typeof name !== "string") return undefined;
  const resolved = resolveProviderType(SERVER_API[section], name, provider.endpoint !== undefined, DEFAULT_RELEASE);
  if (resolved.error !== undefined) {
    notes.warn(`${path}.provider`, `not converted (kept in the annotation): ${resolved.error}`);
    return undefined;
  }
  const typed = placeTyped(provider, resolved, { section, path, notes });
  if (typed) return typed;
  const custom = toCustom(canonicalProvider(provider, resolved, undefined, { path, notes }), resolved.type);
  if (custom)
    return {
      bucket: resolved.type.startsWith("inline::") ? "inline" : "remote",
      field: "custom",
      routed: true,
      entry: custom,
    };
  notes.warn(path, "not converted (kept in the annotation): the peer's custom provider cannot hold it");
  return undefined;
}

function addTo(api: JsonMap, placed: Placed): boolean {
  const found = own(api, placed.bucket);
  const bucket: JsonMap = isPlainObject(found) ? found : {};
  api[placed.bucket] = bucket;
  if (!placed.routed) {
    if (bucket[placed.field] !== undefined) return false;
    bucket[placed.field] = placed.entry;
    return true;
  }
  const list = own(bucket, placed.field);
  if (Array.isArray(list)) list.push(placed.entry);
  else bucket[placed.field] = [placed.entry];
  return true;
}

/**
 * The OGXServer's `spec.providers`, or undefined when none of ours can go there. `replaced`: the
 * server APIs the spec lists in `replace`, whose meaning the peer's per-API replace keeps.
 */
export function providersToOgx(
  providers: unknown,
  notes: Notes,
  replaced: readonly string[] = [],
): JsonMap | undefined {
  if (!isPlainObject(providers)) return undefined;
  const out: JsonMap = {};
  for (const section of Object.keys(providers)) {
    const value = own(providers, section);
    if (!isOgxSection(section)) {
      notes.warn(
        `spec.providers.${section}`,
        `not converted (kept in the annotation): OGXServer has no ${section} providers`,
      );
      continue;
    }
    const many = Array.isArray(value);
    const api: JsonMap = {};
    asList(value).forEach((provider, i) => {
      const path = many ? `spec.providers.${section}[${i}]` : `spec.providers.${section}`;
      const placed = placeProvider(section, provider, path, notes);
      if (placed && !addTo(api, placed))
        notes.warn(path, `not converted (kept in the annotation): OGXServer holds one ${placed.field}`);
    });
    if (Object.keys(api).length > 0) {
      out[section] = api;
      if (!replaced.includes(SERVER_API[section])) notes.warn(`spec.providers.${section}`, REPLACED);
    }
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

const REPLACED =
  "llsd-hooks overlays these providers on the base config by provider id; the peer replaces the base's whole provider block of this API with them (the base's other providers of this API are gone); list the API in spec.replace to mean the same";

export type { ProviderApi };

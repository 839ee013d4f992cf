/**
 * What each release's own config classes say about its provider types (derived by
 * scripts/gen-provider-fields.ts into provider-fields.generated.ts): where an endpoint and a
 * credential go, which APIs a type needs, and what kind of value each config key accepts.
 */
import type { Release } from "../distributions/table";
import { schemaTagOf } from "../distributions/releases";
import { PROVIDER_FIELDS } from "./provider-fields.generated";

export type { Kinds, ProviderFieldsData, TagFields, TypeFields } from "./provider-fields-types";
import type { Kinds, TagFields, TypeFields } from "./provider-fields-types";

export function fieldsOf(release: Release): TagFields {
  return PROVIDER_FIELDS[schemaTagOf(release)];
}

/** The type's facts on that release, or undefined when the release has no such type. */
export function typeFields(release: Release, api: string, type: string): TypeFields | undefined {
  return fieldsOf(release).providers[api]?.[type];
}

/** The names (`vllm`, `faiss`) of the API's types the release registers and does not refuse, sorted. */
export function registeredNames(api: string, release: Release): string[] {
  const types = Object.entries(fieldsOf(release).providers[api] ?? {});
  const names = types.filter(([, fields]) => !fields.refused).map(([type]) => type.slice(type.indexOf("::") + 2));
  return [...new Set(names)].sort();
}

/** What a substituted value becomes a kind of (Python's conversion of `${env.…}` results). */
export function acceptsKind(kinds: Kinds | undefined, value: unknown): boolean {
  if (kinds === undefined || kinds.includes("*")) return true;
  if (value === null) return kinds.includes("z");
  if (typeof value === "boolean") return kinds.includes("b");
  if (typeof value === "number") return Number.isInteger(value) ? /[in]/.test(kinds) : kinds.includes("n");
  return kinds.includes("s");
}

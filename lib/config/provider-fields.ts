/**
 * What each release's own config classes say about its provider types (derived by
 * scripts/gen-provider-fields.ts into provider-fields.generated.ts): where an endpoint and a
 * credential go, which APIs a type needs, and what kind of value each config key accepts.
 */
import type { Release } from "../distributions/table";
import { schemaTagOf, type SchemaTag } from "./releases";
import { PROVIDER_FIELDS } from "./provider-fields.generated";

/** Scalar kinds a key accepts: s string, i integer, n number, b boolean, z null, o object, a array, * anything. */
export type Kinds = string;

export interface TypeFields {
  /** The key that takes an endpoint URL; `split-postgres` spreads a URL over host/port/db. */
  readonly url?: string;
  /** The key that takes an API key or token. */
  readonly key?: string;
  /** Provider APIs the type requires (the registry's api_dependencies). */
  readonly needs?: readonly string[];
  /** Registered with a deprecation_error: the server refuses it. */
  readonly refused?: true;
  /** Keys the config class requires (no default): the server refuses the entry without them. */
  readonly required?: readonly string[];
  readonly fields: { readonly [key: string]: Kinds };
}

export interface TagFields {
  readonly providers: { readonly [api: string]: { readonly [type: string]: TypeFields } };
  /** Storage backend types (`kv_postgres`, `sql_sqlite`, …) and their keys. */
  readonly backends: { readonly [type: string]: { readonly [key: string]: Kinds } };
}

export type ProviderFieldsData = { readonly [tag in SchemaTag]: TagFields };

export function fieldsOf(release: Release): TagFields {
  return PROVIDER_FIELDS[schemaTagOf(release)];
}

/** The type's facts on that release, or undefined when the release has no such type. */
export function typeFields(release: Release, api: string, type: string): TypeFields | undefined {
  return fieldsOf(release).providers[api]?.[type];
}

/** What a substituted value becomes a kind of (Python's conversion of `${env.…}` results). */
export function acceptsKind(kinds: Kinds | undefined, value: unknown): boolean {
  if (kinds === undefined || kinds.includes("*")) return true;
  if (value === null) return kinds.includes("z");
  if (typeof value === "boolean") return kinds.includes("b");
  if (typeof value === "number") return Number.isInteger(value) ? /[in]/.test(kinds) : kinds.includes("n");
  return kinds.includes("s");
}

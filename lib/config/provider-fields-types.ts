/** The shape of provider-fields.generated.ts: a leaf module, so the data and its readers import no cycle. */
import type { SchemaTag } from "../distributions/releases";

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

/** Rules for resources, storage, disabled APIs and external providers. */
import { meant } from "../suggest";
import { child, fieldError, listOf, type FieldError } from "../errors";
import { DEFAULT_REDIS_PORT } from "../defaults";
import { OGX_SECTIONS, SERVER_API } from "./apis";
import type { CanonicalSpec, KvStorage, SqlStorage } from "./canonical";

/** Tool names users may list, and the tool_runtime provider types that serve each. */
export const TOOL_PROVIDERS: { readonly [tool: string]: readonly string[] } = {
  websearch: ["remote::tavily-search", "remote::brave-search", "remote::bing-search"],
  rag: ["inline::file-search"],
  file_search: ["inline::file-search"],
  wolfram_alpha: ["remote::wolfram-alpha"],
};

export function unknownTools(spec: CanonicalSpec): FieldError[] {
  const known = Object.keys(TOOL_PROVIDERS);
  return spec.resources.tools
    .filter((t) => !known.includes(t.name))
    .map((t) =>
      fieldError(t.path, `unknown tool "${t.name}"${meant(t.name, known, ".")} Known tools: ${listOf(known)}`),
    );
}

export function modelRules(spec: CanonicalSpec, inferenceIds: readonly string[] | undefined): FieldError[] {
  const errors: FieldError[] = [];
  for (const m of spec.resources.models) {
    if (m.modelType === "embedding" && m.embeddingDimension === undefined) {
      errors.push(
        fieldError(
          child(m.path, "embeddingDimension"),
          `required for embedding model "${m.name}": the server refuses embedding models without a dimension (e.g. 768)`,
        ),
      );
    }
    if (m.provider !== undefined && inferenceIds !== undefined && !inferenceIds.includes(m.provider)) {
      errors.push(
        fieldError(
          child(m.path, "provider"),
          `model "${m.name}" names provider "${m.provider}", which is not an inference provider. Available: ${listOf(inferenceIds)}`,
        ),
      );
    }
  }
  return errors;
}

/** What the user wrote under `storage`: the canonical form drops the fields a store of another type ignores. */
interface RawStorage {
  readonly kv?: { readonly endpoint?: string; readonly password?: unknown; readonly connectionString?: unknown };
  readonly sql?: { readonly connectionString?: unknown };
}

function redisRules(kv: KvStorage & { readonly type: "redis" }): FieldError[] {
  if (kv.endpoint === undefined)
    return [fieldError(`${kv.path}.endpoint`, "required for type redis, e.g. redis://redis.db.svc:6379")];
  if (parseRedisEndpoint(kv.endpoint) === undefined)
    return [fieldError(`${kv.path}.endpoint`, `"${kv.endpoint}" is not host:port or redis://host:port`)];
  return [];
}

/** A Postgres store (kv or sql) needs its DSN. */
function postgresRules(store: { readonly connectionString?: unknown; readonly path: string }): FieldError[] {
  if (store.connectionString !== undefined) return [];
  return [
    fieldError(
      `${store.path}.connectionString`,
      "required for type postgres: a Secret key holding postgresql://user:password@host:port/db",
    ),
  ];
}

/** The fields of the other store types, written beside `type` (the CRD's CEL refuses them too). */
function strayFields(kv: KvStorage, raw: RawStorage["kv"]): FieldError[] {
  const redisOnly = raw?.endpoint !== undefined || raw?.password !== undefined;
  if (kv.type !== "redis" && redisOnly)
    return [
      fieldError(kv.path, "endpoint and password are only used with type: redis; set type: redis or remove them"),
    ];
  if (kv.type !== "postgres" && raw?.connectionString !== undefined)
    return [fieldError(kv.path, "connectionString is only used with type: postgres; set type: postgres or remove it")];
  return [];
}

function kvRules(kv: KvStorage | undefined, raw: RawStorage["kv"]): FieldError[] {
  if (kv === undefined) return [];
  const stray = strayFields(kv, raw);
  if (stray.length > 0) return stray;
  if (kv.type === "redis") return redisRules(kv);
  return kv.type === "postgres" ? postgresRules(kv) : [];
}

function sqlRules(sql: SqlStorage | undefined, raw: RawStorage["sql"]): FieldError[] {
  if (sql?.type === "postgres") return postgresRules(sql);
  if (sql?.type === "sqlite" && raw?.connectionString !== undefined)
    return [fieldError(sql.path, "connectionString is only used with type: postgres; set type: postgres or remove it")];
  return [];
}

export function storageRules(spec: CanonicalSpec, raw: RawStorage | undefined): FieldError[] {
  return [...kvRules(spec.storage?.kv, raw?.kv), ...sqlRules(spec.storage?.sql, raw?.sql)];
}

/** `redis://host:port`, `rediss://…` or `host:port` → parts; undefined when unparseable. */
export function parseRedisEndpoint(endpoint: string): { host: string; port: number } | undefined {
  const withScheme = /^[a-z]+:\/\//.test(endpoint) ? endpoint : `redis://${endpoint}`;
  try {
    const url = new URL(withScheme);
    if (!url.protocol.startsWith("redis") || url.hostname === "") return undefined;
    return { host: url.hostname, port: url.port === "" ? DEFAULT_REDIS_PORT : Number(url.port) };
  } catch {
    return undefined;
  }
}

/** `disabled` wins over providers of the same API: a warning, not an error. */
export function disabledConflicts(spec: CanonicalSpec): FieldError[] {
  return spec.disabled.flatMap((d) => {
    // The OGX sections are refused instead (disabledSections in validate-providers.ts).
    const providers = spec.providers.filter((p) => SERVER_API[p.api] === d.api && !OGX_SECTIONS.has(p.api));
    if (providers.length === 0) return [];
    return [
      fieldError(
        d.path,
        `${d.written} is disabled, so its providers (${providers.map((p) => p.path).join(", ")}) are ignored; remove them or remove "${d.written}" from disabled`,
      ),
    ];
  });
}

/** Two external providers with one id are an error listing both images (inline ids: `duplicateIds` in validate-providers.ts). */
export function externalProviderRules(spec: CanonicalSpec): FieldError[] {
  const seen = new Map<string, { image: string; path: string }>();
  const errors: FieldError[] = [];
  for (const p of spec.externalProviders) {
    const earlier = seen.get(p.providerId);
    if (earlier) {
      errors.push(
        fieldError(
          child(p.path, "providerId"),
          `external provider id "${p.providerId}" is used by both ${earlier.image} (${earlier.path}) and ${p.image}; give each a unique providerId`,
        ),
      );
    } else seen.set(p.providerId, { image: p.image, path: p.path });
  }
  return errors;
}

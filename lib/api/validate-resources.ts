/** Rules for resources, storage, disabled APIs and external providers. */
import { child, fieldError, listOf, type FieldError } from "../errors";
import { DEFAULT_REDIS_PORT } from "../defaults";
import { SERVER_API } from "./apis";
import type { CanonicalSpec } from "./canonical";

/** Tool names users may list, and the tool_runtime provider types that serve each (research §4.3). */
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
    .map((t) => fieldError(t.path, `unknown tool "${t.name}". Known tools: ${listOf(known)}`));
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

export function storageRules(
  spec: CanonicalSpec,
  raw: { kv?: { endpoint?: string; password?: unknown }; sql?: { connectionString?: unknown } } | undefined,
): FieldError[] {
  const errors: FieldError[] = [];
  const kv = spec.storage?.kv;
  if (kv?.type === "redis" && kv.endpoint === undefined) {
    errors.push(fieldError(`${kv.path}.endpoint`, "required for type redis, e.g. redis://redis.db.svc:6379"));
  }
  if (kv?.type === "redis" && kv.endpoint !== undefined && parseRedisEndpoint(kv.endpoint) === undefined) {
    errors.push(fieldError(`${kv.path}.endpoint`, `"${kv.endpoint}" is not host:port or redis://host:port`));
  }
  if (kv?.type === "sqlite" && (raw?.kv?.endpoint !== undefined || raw?.kv?.password !== undefined)) {
    errors.push(
      fieldError(kv.path, "endpoint and password are only used with type: redis; set type: redis or remove them"),
    );
  }
  const sql = spec.storage?.sql;
  if (sql?.type === "postgres" && sql.connectionString === undefined) {
    errors.push(
      fieldError(
        `${sql.path}.connectionString`,
        "required for type postgres: a Secret key holding postgresql://user:password@host:port/db",
      ),
    );
  }
  if (sql?.type === "sqlite" && raw?.sql?.connectionString !== undefined) {
    errors.push(
      fieldError(sql.path, "connectionString is only used with type: postgres; set type: postgres or remove it"),
    );
  }
  return errors;
}

/** `redis://host:port`, `rediss://…` or `host:port` → parts; undefined when unparseable. */
/** Parsed endpoints (bounded): validation and generation both parse the same one on every sync. */
const redisEndpoints = new Map<string, { readonly host: string; readonly port: number } | undefined>();
const REDIS_CACHE_LIMIT = 1000;

export function parseRedisEndpoint(endpoint: string): { host: string; port: number } | undefined {
  if (!redisEndpoints.has(endpoint)) {
    if (redisEndpoints.size >= REDIS_CACHE_LIMIT) redisEndpoints.clear();
    redisEndpoints.set(endpoint, parseRedis(endpoint));
  }
  const parsed = redisEndpoints.get(endpoint);
  return parsed === undefined ? undefined : { ...parsed }; // a fresh object: callers may keep it
}

function parseRedis(endpoint: string): { host: string; port: number } | undefined {
  const withScheme = /^[a-z]+:\/\//.test(endpoint) ? endpoint : `redis://${endpoint}`;
  try {
    const url = new URL(withScheme);
    if (!url.protocol.startsWith("redis") || url.hostname === "") return undefined;
    return { host: url.hostname, port: url.port === "" ? DEFAULT_REDIS_PORT : Number(url.port) };
  } catch {
    return undefined;
  }
}

/** `disabled` wins over providers of the same API: a warning, not an error (DESIGN §4). */
export function disabledConflicts(spec: CanonicalSpec): FieldError[] {
  return spec.disabled.flatMap((d) => {
    const providers = spec.providers.filter((p) => SERVER_API[p.api] === d.api);
    if (providers.length === 0) return [];
    return [
      fieldError(
        d.path,
        `${d.written} is disabled, so its providers (${providers.map((p) => p.path).join(", ")}) are ignored; remove them or remove "${d.written}" from disabled`,
      ),
    ];
  });
}

/** Two external providers with one id are an error listing both images (FR-092 is for inline ids). */
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

/**
 * Spec providers → config.yaml provider entries (lib/config/overlay.ts lays them over the base).
 */
import { child, fieldError, type FieldError } from "../errors";
import type { ExternalProvider, Provider } from "../api/canonical";
import { SERVER_API } from "../api/apis";
import type { Release } from "../distributions/table";
import { DEFAULT_POSTGRES_PORT, KV_BACKEND } from "../defaults";
import { isJsonMap, NOT_PLAIN_DATA } from "./base-shape";
import { deepMerge, type ProviderEntry } from "./doc";
import { type JsonMap } from "../json";
import { envRef, providerSecretEnv, upperSnake } from "../env-names";
import type { ResolvedType, TypeInfo } from "./provider-types";
import { specProviderType } from "./spec-provider-type";

export interface SecretEnv {
  readonly name: string;
  readonly secretName: string;
  readonly secretKey: string;
  /** Field path of the reference, for error messages. */
  readonly path: string;
}

export interface ProviderOutcome {
  /** `path` and `required`: the spec provider each entry comes from, and the keys its type needs. */
  readonly entries: { api: string; entry: ProviderEntry; path?: string; required?: readonly string[] }[];
  readonly env: SecretEnv[];
  readonly notes: string[];
  readonly errors: FieldError[];
}

/** Spellings of a credential key that some types use and others do not (vLLM reads `api_token`, OpenAI `api_key`). */
const CREDENTIAL_SPELLINGS = new Set(["api_key", "api_token", "token"]);

/** The config key a secret field goes to: `apiKey` → the type's credential key; others in snake_case. */
export function configKey(field: string, info: TypeInfo): string {
  if (field === "apiKey") return info.keyField ?? "api_key";
  const key = upperSnake(field).toLowerCase();
  // Written in another type's spelling: the type's own credential key is what was meant.
  if (info.fields && !(key in info.fields) && CREDENTIAL_SPELLINGS.has(key) && info.keyField) return info.keyField;
  return key;
}

export function endpointConfig(endpoint: string, info: TypeInfo): JsonMap {
  if (info.urlKey === undefined) return {};
  if (info.urlKey === "split-postgres") {
    const url = new URL(endpoint);
    const db = url.pathname.replace(/^\//, "");
    return { host: url.hostname, port: Number(url.port || DEFAULT_POSTGRES_PORT), ...(db ? { db } : {}) };
  }
  const suffix = info.urlSuffix;
  const trimmed = endpoint.replace(/\/+$/, "");
  return { [info.urlKey]: suffix && !trimmed.endsWith(suffix) ? `${trimmed}${suffix}` : trimmed };
}

/** A known type without a URL or key setting would silently ignore them: say so instead. */
function unusableFields(p: Provider, resolved: ResolvedType): FieldError[] {
  if (!resolved.known) return [];
  const errors: FieldError[] = [];
  if (p.endpoint !== undefined && resolved.info.urlKey === undefined) {
    errors.push(
      fieldError(
        child(p.path, "endpoint"),
        `${resolved.type} has no endpoint setting; remove endpoint (or choose a remote provider)`,
      ),
    );
  }
  if (p.secrets.some((s) => s.field === "apiKey") && resolved.info.keyField === undefined) {
    errors.push(
      fieldError(
        child(p.path, "apiKey"),
        `${resolved.type} takes no API key; remove apiKey, or use secretRefs with the config key it reads`,
      ),
    );
  }
  return errors;
}

/**
 * Every vector store keeps its metadata in a KV store (`persistence`, required by the server);
 * an inline one whose config requires a file location (`db_path`, or qdrant's `path`) gets one
 * under the workload's storage mount.
 */
function vectorStoreDefaults(serverApi: string, info: TypeInfo, id: string, mountPath: string): JsonMap {
  if (serverApi !== "vector_io") return {};
  const persistence = { namespace: `vector_io::${id}`, backend: KV_BACKEND };
  const fileKey = ["db_path", "path"].find((k) => info.required?.includes(k));
  const defaults: JsonMap = {};
  if (fileKey) defaults[fileKey] = `${mountPath}/${id}.db`;
  defaults.persistence = persistence;
  return defaults;
}

/** The spec's `settings`, merged in last; a CR parsed from JSON or YAML always holds plain data there. */
function settingsOf(p: Provider, out: ProviderOutcome): JsonMap {
  if (p.settings === undefined || isJsonMap(p.settings)) return p.settings ?? {};
  out.errors.push(fieldError(child(p.path, "settings"), NOT_PLAIN_DATA));
  return {};
}

/** The entry's config: endpoint, secret references, the type's defaults, then the spec's settings. */
function providerConfig(p: Provider, resolved: ResolvedType, mountPath: string, out: ProviderOutcome): JsonMap {
  const config: JsonMap = p.endpoint !== undefined ? endpointConfig(p.endpoint, resolved.info) : {};
  const suffix = resolved.info.urlSuffix;
  if (suffix && p.endpoint !== undefined && !p.endpoint.replace(/\/+$/, "").endsWith(suffix)) {
    out.notes.push(
      `${p.path}.endpoint: ${resolved.type} expects the OpenAI API path; generated ${resolved.info.urlKey} with ${suffix} appended`,
    );
  }
  for (const s of p.secrets) {
    const name = providerSecretEnv(p.id, s.field);
    config[configKey(s.field, resolved.info)] = envRef(name);
    out.env.push({ name, secretName: s.ref.name, secretKey: s.ref.key, path: s.ref.path });
  }
  const withDefaults = deepMerge(vectorStoreDefaults(SERVER_API[p.api], resolved.info, p.id, mountPath), config);
  return p.settings ? deepMerge(withDefaults, settingsOf(p, out)) : withDefaults;
}

/** Where the entries go, and the spec's external providers (which may take an entry's id). */
interface Target {
  readonly release: Release;
  readonly mountPath: string;
  readonly externals: readonly ExternalProvider[];
}

function buildEntry(
  p: Provider,
  target: Target,
  out: ProviderOutcome,
): { entry: ProviderEntry; required?: readonly string[] } | undefined {
  const resolved = specProviderType(p, target.release, target.externals);
  if (resolved.error) {
    out.errors.push(fieldError(child(p.path, "provider"), resolved.error));
    return undefined;
  }
  if (resolved.note) out.notes.push(`${p.path}: ${resolved.note}`);
  const unusable = unusableFields(p, resolved);
  if (unusable.length > 0) {
    out.errors.push(...unusable);
    return undefined;
  }
  const config = providerConfig(p, resolved, target.mountPath, out);
  const entry: ProviderEntry = {
    provider_id: p.id,
    provider_type: resolved.type,
    ...(Object.keys(config).length > 0 ? { config } : {}),
  };
  return { entry, ...(resolved.info.required ? { required: resolved.info.required } : {}) };
}

/** Build every spec provider's entry (telemetry excluded: it has no server provider). */
export function buildProviders(providers: readonly Provider[], target: Target): ProviderOutcome {
  const out: ProviderOutcome = { entries: [], env: [], notes: [], errors: [] };
  for (const p of providers.filter((x) => x.api !== "telemetry")) {
    const built = buildEntry(p, target, out);
    if (built)
      out.entries.push({
        api: SERVER_API[p.api],
        entry: built.entry,
        path: p.path,
        ...(built.required ? { required: built.required } : {}),
      });
  }
  return out;
}

/**
 * Spec providers → config.yaml provider entries, overlaid on the base by provider id
 * (same id replaced in place, others kept, new ones appended: DESIGN §5).
 */
import { child, fieldError, type FieldError } from "../errors";
import type { Provider } from "../api/canonical";
import { SERVER_API } from "../api/apis";
import type { Release } from "../distributions/table";
import { DEFAULT_POSTGRES_PORT, KV_BACKEND } from "../defaults";
import { deepMerge, effectiveId, isConditional, type ConfigDoc, type JsonMap, type ProviderEntry } from "./doc";
import { envRef, providerSecretEnv, upperSnake } from "./env-names";
import { resolveProviderType, type ResolvedType, type TypeInfo } from "./provider-types";

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
function configKey(field: string, info: TypeInfo): string {
  if (field === "apiKey") return info.keyField ?? "api_key";
  const key = upperSnake(field).toLowerCase();
  // Written in another type's spelling: the type's own credential key is what was meant.
  if (info.fields && !(key in info.fields) && CREDENTIAL_SPELLINGS.has(key) && info.keyField) return info.keyField;
  return key;
}

function endpointConfig(endpoint: string, info: TypeInfo): JsonMap {
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
  return { ...(fileKey ? { [fileKey]: `${mountPath}/${id}.db` } : {}), persistence };
}

function buildEntry(
  p: Provider,
  release: Release,
  mountPath: string,
  out: ProviderOutcome,
): { entry: ProviderEntry; required?: readonly string[] } | undefined {
  const serverApi = SERVER_API[p.api];
  const resolved = resolveProviderType(serverApi, p.provider, p.endpoint !== undefined, release);
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
  let config: JsonMap = p.endpoint !== undefined ? endpointConfig(p.endpoint, resolved.info) : {};
  if (
    resolved.info.urlSuffix &&
    p.endpoint !== undefined &&
    !p.endpoint.replace(/\/+$/, "").endsWith(resolved.info.urlSuffix)
  ) {
    out.notes.push(
      `${p.path}.endpoint: ${resolved.type} expects the OpenAI API path; generated ${resolved.info.urlKey} with ${resolved.info.urlSuffix} appended`,
    );
  }
  for (const s of p.secrets) {
    const name = providerSecretEnv(p.id, s.field);
    config[configKey(s.field, resolved.info)] = envRef(name);
    out.env.push({ name, secretName: s.ref.name, secretKey: s.ref.key, path: s.ref.path });
  }
  config = deepMerge(vectorStoreDefaults(serverApi, resolved.info, p.id, mountPath), config);
  if (p.settings) config = deepMerge(config, p.settings as JsonMap);
  const entry: ProviderEntry = {
    provider_id: p.id,
    provider_type: resolved.type,
    ...(Object.keys(config).length > 0 ? { config } : {}),
  };
  return { entry, ...(resolved.info.required ? { required: resolved.info.required } : {}) };
}

/** Build every spec provider's entry (telemetry excluded: it has no server provider). */
export function buildProviders(providers: readonly Provider[], release: Release, mountPath: string): ProviderOutcome {
  const out: ProviderOutcome = { entries: [], env: [], notes: [], errors: [] };
  for (const p of providers.filter((x) => x.api !== "telemetry")) {
    const built = buildEntry(p, release, mountPath, out);
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

/**
 * The entry that replaces a base entry with the same id. Same type: the base's config stays
 * underneath (vLLM keeps its max_tokens and TLS settings, pgvector its index); other type: replaced.
 */
function overlayEntry(base: ProviderEntry, entry: ProviderEntry): ProviderEntry {
  if (base.provider_type !== entry.provider_type || !base.config) return entry;
  return { ...entry, config: deepMerge(base.config, entry.config ?? {}) };
}

/** Overlay entries on the base config by provider id; adds each new API to a non-empty `apis`. */
export function overlayProviders(
  doc: ConfigDoc,
  entries: readonly { api: string; entry: ProviderEntry }[],
  notes: string[],
): void {
  for (const { api, entry } of entries) {
    const list = [...(doc.providers[api] ?? [])];
    const at = list.findIndex((b) => effectiveId(b.provider_id) === entry.provider_id);
    const baseEntry = at >= 0 ? list[at] : undefined;
    if (baseEntry && isConditional(baseEntry.provider_id) && baseEntry.provider_type === entry.provider_type) {
      notes.push(
        `providers.${api}.${entry.provider_id}: now always on; it keeps the distribution's other settings for it (${
          Object.keys(baseEntry.config ?? {})
            .sort()
            .join(", ") || "none"
        }), set them in settings to change them`,
      );
    }
    if (baseEntry) list[at] = overlayEntry(baseEntry, entry);
    else list.push(entry);
    doc.providers[api] = list;
    if (doc.apis && doc.apis.length > 0 && !doc.apis.includes(api)) doc.apis = [...doc.apis, api];
  }
}

/** What the entries still lack once overlaid on the base: keys their type requires (the server refuses the entry). */
export function missingRequired(doc: ConfigDoc, entries: ProviderOutcome["entries"]): FieldError[] {
  return entries.flatMap(({ api, entry, path, required }) => {
    const final = (doc.providers[api] ?? []).find((p) => p.provider_id === entry.provider_id);
    const absent = (required ?? []).filter((k) => final?.config?.[k] === undefined || final.config[k] === null);
    if (absent.length === 0 || path === undefined) return [];
    const how = absent.map((k) => `settings.${k}`).join(", ");
    return [
      fieldError(
        path,
        `${entry.provider_type} requires ${absent.join(", ")} in its config, which the spec does not give; set ${how} (or endpoint / apiKey / secretRefs where that is the key)`,
      ),
    ];
  });
}

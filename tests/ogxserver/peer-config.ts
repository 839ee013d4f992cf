/**
 * A small model of what the OGX operator's config generation (ogx-ai/ogx-k8s-operator
 * pkg/config at commit 1784464) makes of an OGXServer's providers and models, written from its
 * Go code as facts — not from lib/ogx:
 * - generator.go `GenerateConfig`: providers = `MergeProviders(base, ExpandProviders(spec))`,
 *   models = `ExpandResources(spec.resources, merged)` when the spec lists some, else the base's
 *   (`buildRegisteredResources`); `apis` = the base's minus `disabledAPIs` (`MergeAPIs`).
 * - merge.go `MergeProviders`: a spec API block replaces the base's block of that API whole.
 * - provider.go `ExpandProviders`: an API whose expansion is empty is not set; each typed
 *   provider's `ProviderType` literal and `DeriveID` default below; a custom one keeps its type,
 *   its id defaults to the type with `::` → `-` (provider_types.go `CustomProvider.DeriveID`).
 * - resource.go `ExpandResources`: a model without `provider` goes to the alphabetically first
 *   inference provider id of the merged config.
 */
import { isPlainObject, own, type JsonMap } from "../../lib/json";

/** `[api, provider_type as the peer writes it, DeriveID default]` per section, bucket and field. */
type Typed = readonly [api: string, type: string, defaultId: string];
const TYPED: { readonly [section: string]: { readonly [bucketField: string]: Typed } } = {
  inference: {
    "remote.vllm": ["inference", "remote::vllm", "remote-vllm"],
    "remote.openai": ["inference", "remote::openai", "remote-openai"],
    "remote.azure": ["inference", "remote::azure", "remote-azure"],
    "remote.bedrock": ["inference", "remote::bedrock", "remote-bedrock"],
    "remote.vertexai": ["inference", "remote::vertexai", "remote-vertexai"],
    "remote.watsonx": ["inference", "remote::watsonx", "remote-watsonx"],
  },
  vectorIo: {
    "remote.pgvector": ["vector_io", "remote::pgvector", "remote-pgvector"],
    "remote.milvus": ["vector_io", "remote::milvus", "remote-milvus"],
    "remote.qdrant": ["vector_io", "remote::qdrant", "remote-qdrant"],
  },
  toolRuntime: {
    "remote.braveSearch": ["tool_runtime", "remote::brave-search", "remote-brave-search"],
    "remote.tavilySearch": ["tool_runtime", "remote::tavily-search", "remote-tavily-search"],
    "remote.modelContextProtocol": ["tool_runtime", "remote::model-context-protocol", "remote-model-context-protocol"],
    "inline.fileSearch": ["tool_runtime", "inline::rag-runtime", "inline-file-search"],
  },
  files: {
    "remote.s3": ["files", "remote::s3", "remote-s3"],
    "inline.localfs": ["files", "inline::localfs", "inline-localfs"],
  },
  batches: { "inline.reference": ["batches", "inline::batch-reference", "inline-reference"] },
  responses: { "inline.builtin": ["responses", "inline::responses", "inline-builtin"] },
  fileProcessors: {
    "remote.doclingServe": ["file_processors", "remote::docling-serve", "remote-docling-serve"],
    "inline.auto": ["file_processors", "inline::auto", "inline-auto"],
    "inline.pypdf": ["file_processors", "inline::pypdf", "inline-pypdf"],
    "inline.markitdown": ["file_processors", "inline::markitdown", "inline-markitdown"],
    "inline.docling": ["file_processors", "inline::docling", "inline-docling"],
  },
};
const SECTION_API: { readonly [section: string]: string } = Object.fromEntries(
  Object.entries(TYPED).map(([section, rows]) => [section, Object.values(rows)[0]?.[0] ?? section]),
);

/**
 * Types the peer writes that the 1.3 server's registry does not have (its typed provider means
 * the server's type on the right, which is what the conversion writes): same-providers.test.ts
 * checks both sides against the 1.3 registry.
 */
export const PEER_TYPE_ON_SERVER: { readonly [peerType: string]: string } = {
  "inline::rag-runtime": "inline::file-search",
  "inline::batch-reference": "inline::reference",
  "inline::responses": "inline::builtin",
};

export interface Entry {
  readonly provider_id: string;
  readonly provider_type: string;
}
export interface BaseConfig {
  readonly apis?: readonly string[];
  readonly providers: { readonly [api: string]: readonly Entry[] };
  readonly registered_resources?: { readonly models?: readonly JsonMap[] };
}

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === undefined ? [] : [value]);
const idOr = (entry: unknown, fallback: string): string => {
  const id = own(entry, "id");
  return typeof id === "string" ? id : fallback;
};

/** One bucket's typed providers (each with its DeriveID default), then its custom ones. */
function expandBucket(section: string, bucket: string, holder: unknown): Entry[] {
  const typed = Object.entries(TYPED[section] ?? {})
    .filter(([key]) => key.startsWith(`${bucket}.`))
    .flatMap(([key, [, type, defaultId]]) =>
      list(own(holder, key.slice(bucket.length + 1))).map((p) => ({
        provider_id: idOr(p, defaultId),
        provider_type: type,
      })),
    );
  const custom = list(own(holder, "custom")).map((c) => {
    const type = String(own(c, "type"));
    return { provider_id: idOr(c, type.split("::").join("-")), provider_type: type };
  });
  return [...typed, ...custom];
}

const expandSection = (section: string, value: unknown): Entry[] =>
  ["remote", "inline"].flatMap((bucket) => expandBucket(section, bucket, own(value, bucket)));

/** The providers and models the peer's generated config holds for an OGXServer `spec` on `base`. */
export function peerConfig(spec: JsonMap, base: BaseConfig) {
  const providers: { [api: string]: readonly Entry[] } = { ...base.providers };
  const given = isPlainObject(spec.providers) ? spec.providers : {};
  for (const [section, value] of Object.entries(given)) {
    const expanded = expandSection(section, value);
    if (expanded.length > 0) providers[SECTION_API[section] ?? section] = expanded;
  }
  const disabled = list(spec.disabledAPIs);
  const apis = (base.apis ?? []).filter((a) => !disabled.includes(a));
  const firstInference = (providers.inference ?? []).map((p) => p.provider_id).sort()[0];
  const specModels = list(own(spec.resources, "models"));
  const models =
    specModels.length > 0
      ? specModels.map((m) => ({
          model_id: String(own(m, "name")),
          provider_id: idOr({ id: own(m, "provider") }, firstInference ?? ""),
        }))
      : (base.registered_resources?.models ?? []).map((m) => ({
          model_id: String(m.model_id),
          provider_id: String(m.provider_id),
        }));
  return { apis, providers, models };
}

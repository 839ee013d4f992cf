/**
 * The peer's typed providers and where each of their fields lives in our generic provider
 * (`{id, provider, endpoint, apiKey, secretRefs, settings}`). The config keys are the ones the
 * peer's config generator writes (ogx-ai/ogx-k8s-operator pkg/config/provider.go at commit
 * 1784464), which are also the keys of the server's config classes on the 1.3 line
 * (lib/config/provider-fields.generated.ts; tests/ogxserver/provider-table.test.ts holds the two
 * together). The list order is the peer's expansion order, which is the order providers come out.
 */
import type { OgxSection } from "./types";

/**
 * Where one peer field goes: our `endpoint` or `apiKey`, a `secretRefs` key, or a `settings` key
 * (camelCase objects become snake_case objects, as the peer's generator writes them).
 */
export type Place = "endpoint" | "apiKey" | { readonly secret: string } | { readonly setting: string };

export interface TypedProvider {
  readonly section: OgxSection;
  readonly bucket: "remote" | "inline";
  /** The field under the bucket: `vllm`, `s3`… */
  readonly field: string;
  /** A list of routed providers with an optional `id`, or a singleton with a fixed one. */
  readonly routed: boolean;
  /** The peer's id when none is given (`DeriveID`). */
  readonly defaultId: string;
  /** The server's provider type. */
  readonly type: string;
  /** What we write as `provider:` (a name the 1.3 line resolves to `type`). */
  readonly name: string;
  readonly fields: { readonly [peerField: string]: Place };
}

const s = (setting: string): Place => ({ setting });
const secret = (key: string): Place => ({ secret: key });
/** Every remote inference provider also has these (`InferenceCommonConfig`). */
const INFERENCE_COMMON = {
  allowedModels: s("allowed_models"),
  refreshModels: s("refresh_models"),
  network: s("network"),
};
const CHUNKS = {
  defaultChunkSizeTokens: s("default_chunk_size_tokens"),
  defaultChunkOverlapTokens: s("default_chunk_overlap_tokens"),
};

type Row = Omit<TypedProvider, "routed" | "defaultId" | "type"> & { readonly routed?: false };

function row(r: Row): TypedProvider {
  const kebab = r.field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  const type = r.name.includes("::") ? r.name : `${r.bucket}::${r.name}`;
  return { ...r, routed: r.routed ?? true, defaultId: `${r.bucket}-${type.split("::")[1] ?? kebab}`, type };
}

export const TYPED_PROVIDERS: readonly TypedProvider[] = [
  row({
    section: "inference",
    bucket: "remote",
    field: "vllm",
    name: "vllm",
    fields: { endpoint: s("base_url"), apiToken: "apiKey", maxTokens: s("max_tokens"), ...INFERENCE_COMMON },
  }),
  row({
    section: "inference",
    bucket: "remote",
    field: "openai",
    name: "openai",
    fields: { endpoint: "endpoint", apiKey: "apiKey", ...INFERENCE_COMMON },
  }),
  row({
    section: "inference",
    bucket: "remote",
    field: "azure",
    name: "azure",
    fields: {
      endpoint: "endpoint",
      apiKey: "apiKey",
      apiVersion: s("api_version"),
      apiType: s("api_type"),
      ...INFERENCE_COMMON,
    },
  }),
  row({
    section: "inference",
    bucket: "remote",
    field: "bedrock",
    name: "bedrock",
    fields: {
      region: s("region_name"),
      apiKey: "apiKey",
      awsAccessKeyId: secret("aws_access_key_id"),
      awsSecretAccessKey: secret("aws_secret_access_key"),
      awsSessionToken: secret("aws_session_token"),
      awsRoleArn: s("aws_role_arn"),
      awsWebIdentityTokenFile: s("aws_web_identity_token_file"),
      awsRoleSessionName: s("aws_role_session_name"),
      profileName: s("profile_name"),
      totalMaxAttempts: s("total_max_attempts"),
      retryMode: s("retry_mode"),
      connectTimeout: s("connect_timeout"),
      readTimeout: s("read_timeout"),
      sessionTTL: s("session_ttl"),
      ...INFERENCE_COMMON,
    },
  }),
  row({
    section: "inference",
    bucket: "remote",
    field: "vertexai",
    name: "vertexai",
    fields: { project: s("project"), location: s("location"), ...INFERENCE_COMMON },
  }),
  row({
    section: "inference",
    bucket: "remote",
    field: "watsonx",
    name: "watsonx",
    fields: {
      endpoint: "endpoint",
      apiKey: "apiKey",
      projectId: s("project_id"),
      timeout: s("timeout"),
      ...INFERENCE_COMMON,
    },
  }),
  row({
    section: "vectorIo",
    bucket: "remote",
    field: "pgvector",
    name: "pgvector",
    fields: {
      host: s("host"),
      port: s("port"),
      db: s("db"),
      user: s("user"),
      password: secret("password"),
      distanceMetric: s("distance_metric"),
      vectorIndex: s("vector_index"),
    },
  }),
  row({
    section: "vectorIo",
    bucket: "remote",
    field: "milvus",
    name: "remote::milvus",
    fields: { uri: "endpoint", token: secret("token"), consistencyLevel: s("consistency_level") },
  }),
  row({
    section: "vectorIo",
    bucket: "remote",
    field: "qdrant",
    name: "remote::qdrant",
    fields: {
      url: "endpoint",
      host: s("host"),
      port: s("port"),
      apiKey: "apiKey",
      location: s("location"),
      grpcPort: s("grpc_port"),
      preferGrpc: s("prefer_grpc"),
      https: s("https"),
      prefix: s("prefix"),
      timeout: s("timeout"),
    },
  }),
  row({
    section: "toolRuntime",
    bucket: "remote",
    field: "braveSearch",
    name: "brave-search",
    fields: { apiKey: "apiKey", maxResults: s("max_results") },
  }),
  row({
    section: "toolRuntime",
    bucket: "remote",
    field: "tavilySearch",
    name: "tavily-search",
    fields: { apiKey: "apiKey", maxResults: s("max_results") },
  }),
  row({
    section: "toolRuntime",
    bucket: "remote",
    field: "modelContextProtocol",
    name: "model-context-protocol",
    fields: {},
  }),
  row({
    section: "toolRuntime",
    bucket: "inline",
    field: "fileSearch",
    name: "file-search",
    fields: { vectorStoresConfig: s("vector_stores_config") },
  }),
  row({
    section: "files",
    bucket: "remote",
    field: "s3",
    name: "s3",
    routed: false,
    fields: {
      bucketName: s("bucket_name"),
      region: s("region"),
      awsAccessKeyId: secret("aws_access_key_id"),
      awsSecretAccessKey: secret("aws_secret_access_key"),
      endpointUrl: s("endpoint_url"),
      autoCreateBucket: s("auto_create_bucket"),
    },
  }),
  row({
    section: "files",
    bucket: "inline",
    field: "localfs",
    name: "localfs",
    routed: false,
    fields: { ttlSecs: s("ttl_secs") },
  }),
  row({
    section: "batches",
    bucket: "inline",
    field: "reference",
    name: "reference",
    routed: false,
    fields: {
      maxConcurrentBatches: s("max_concurrent_batches"),
      maxConcurrentRequestsPerBatch: s("max_concurrent_requests_per_batch"),
    },
  }),
  row({
    section: "responses",
    bucket: "inline",
    field: "builtin",
    name: "builtin",
    routed: false,
    fields: { vectorStoresConfig: s("vector_stores_config"), compactionConfig: s("compaction_config") },
  }),
  row({
    section: "fileProcessors",
    bucket: "remote",
    field: "doclingServe",
    name: "docling-serve",
    routed: false,
    fields: { baseUrl: "endpoint", apiKey: "apiKey", defaultChunkSizeTokens: s("default_chunk_size_tokens") },
  }),
  row({
    section: "fileProcessors",
    bucket: "inline",
    field: "auto",
    name: "auto",
    routed: false,
    fields: { ...CHUNKS, extractMetadata: s("extract_metadata"), cleanText: s("clean_text") },
  }),
  row({
    section: "fileProcessors",
    bucket: "inline",
    field: "pypdf",
    name: "pypdf",
    routed: false,
    fields: { ...CHUNKS, extractMetadata: s("extract_metadata"), cleanText: s("clean_text") },
  }),
  row({
    section: "fileProcessors",
    bucket: "inline",
    field: "markitdown",
    name: "markitdown",
    routed: false,
    fields: CHUNKS,
  }),
  row({
    section: "fileProcessors",
    bucket: "inline",
    field: "docling",
    name: "docling",
    routed: false,
    fields: { ...CHUNKS, doOcr: s("do_ocr") },
  }),
];

/** The typed providers of one bucket, in the peer's order. */
export const typedIn = (section: OgxSection, bucket: "remote" | "inline"): TypedProvider[] =>
  TYPED_PROVIDERS.filter((t) => t.section === section && t.bucket === bucket);

/** The typed provider of a server type, if the peer has one. */
export const typedFor = (section: OgxSection, type: string): TypedProvider | undefined =>
  TYPED_PROVIDERS.find((t) => t.section === section && t.type === type);

/**
 * The peer's typed providers and where each of their fields lives in our generic provider
 * (`{id, provider, endpoint, apiKey, secretRefs, settings}`). The config keys are the ones the
 * peer's config generator writes (ogx-ai/ogx-k8s-operator pkg/config/provider.go at commit
 * 1784464), which are also the keys of the server's config classes on the 1.3 line
 * (lib/config/provider-fields.generated.ts; tests/ogxserver/provider-table.test.ts holds the two
 * together). The list order is the peer's expansion order, which is the order providers come out.
 */
import { CHUNKS, row, s, secret, type TypedProvider } from "./provider-row";
import { INFERENCE_AND_VECTOR_ROWS } from "./provider-rows-remote";
import type { OgxSection } from "./types";

export type { Place, TypedProvider } from "./provider-row";

export const TYPED_PROVIDERS: readonly TypedProvider[] = [
  ...INFERENCE_AND_VECTOR_ROWS,
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

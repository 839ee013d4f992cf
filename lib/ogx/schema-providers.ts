/**
 * `spec.providers` of OGXServer v1beta1, from ogx-ai/ogx-k8s-operator api/v1beta1/provider_types*.go
 * at commit 1784464 (v0.14.0): per API a `remote` and an `inline` bucket, typed providers and
 * `custom[]` in each. Routed providers (lists) have an optional `id`; singletons (s3, localfs,
 * reference, builtin, the file processors) have none: their id is fixed (`remote-s3`…).
 */
import {
  atLeastOne,
  bool,
  freeJson,
  int,
  keyRef,
  list,
  nonEmptyStr,
  notEmptyRule,
  obj,
  objNonEmpty,
  providerList,
  str,
  type Node,
} from "./schema-parts";

const idRule = notEmptyRule("id");
/** Provider ports are plain `*int` in Go: no int32 format. */
const port = int({ minimum: 1, maximum: 65535 });
/** `RoutedProviderBase` + the type's own fields: `id` may be omitted, never empty. */
const routed = (properties: Node, nonEmpty: string[] = [], extra: { required?: string[]; rules?: Node[] } = {}): Node =>
  objNonEmpty({ id: str(), ...properties }, nonEmpty, { ...extra, rules: [...(extra.rules ?? []), idRule] });

export const CUSTOM_PROVIDER: Node = obj(
  {
    id: str(),
    type: nonEmptyStr,
    secretRefs: { type: "object", minProperties: 1, additionalProperties: keyRef },
    settings: freeJson,
  },
  {
    required: ["type"],
    rules: [
      {
        rule: "self.type.startsWith('remote::') || self.type.startsWith('inline::')",
        message:
          "type must have a 'remote::' or 'inline::' prefix (e.g., 'remote::llama-guard', 'inline::my-provider')",
      },
      idRule,
    ],
  },
);
const custom = providerList(CUSTOM_PROVIDER);

/** `NetworkConfig` of remote inference providers (provider_types_inference.go). */
const NETWORK: Node = obj({
  tls: obj({ verify: bool, minVersion: str({ enum: ["TLSv1.2", "TLSv1.3"] }), ciphers: list(nonEmptyStr) }),
  proxy: objNonEmpty({ url: str(), http: str(), https: str(), cacert: str(), noProxy: list(nonEmptyStr) }, [
    "url",
    "http",
    "https",
    "cacert",
  ]),
  timeout: obj({ connect: atLeastOne, read: atLeastOne }),
  headers: { type: "object", minProperties: 1, additionalProperties: str() },
});
const inference = (properties: Node, nonEmpty: string[], required: string[]): Node =>
  routed({ ...properties, allowedModels: list(nonEmptyStr), refreshModels: bool, network: NETWORK }, nonEmpty, {
    required,
  });

const INFERENCE: Node = obj({
  remote: obj({
    vllm: providerList(inference({ endpoint: nonEmptyStr, apiToken: keyRef, maxTokens: atLeastOne }, [], ["endpoint"])),
    openai: providerList(inference({ endpoint: str(), apiKey: keyRef }, ["endpoint"], ["apiKey"])),
    azure: providerList(
      inference(
        { endpoint: nonEmptyStr, apiKey: keyRef, apiVersion: str(), apiType: str() },
        ["apiVersion", "apiType"],
        ["apiKey", "endpoint"],
      ),
    ),
    bedrock: providerList(
      inference(
        {
          region: nonEmptyStr,
          apiKey: keyRef,
          awsAccessKeyId: keyRef,
          awsSecretAccessKey: keyRef,
          awsSessionToken: keyRef,
          awsRoleArn: str(),
          awsWebIdentityTokenFile: str(),
          awsRoleSessionName: str(),
          profileName: str(),
          totalMaxAttempts: atLeastOne,
          retryMode: str(),
          connectTimeout: atLeastOne,
          readTimeout: atLeastOne,
          sessionTTL: atLeastOne,
        },
        ["awsRoleArn", "awsWebIdentityTokenFile", "awsRoleSessionName", "profileName", "retryMode"],
        ["region"],
      ),
    ),
    vertexai: providerList(inference({ project: nonEmptyStr, location: str() }, ["location"], ["project"])),
    watsonx: providerList(
      inference(
        { endpoint: str(), apiKey: keyRef, projectId: str(), timeout: atLeastOne },
        ["endpoint", "projectId"],
        ["apiKey"],
      ),
    ),
    custom,
  }),
  inline: obj({ custom }),
});

const HNSW = obj({ m: atLeastOne, efConstruction: atLeastOne, efSearch: atLeastOne });
const VECTOR_IO: Node = obj({
  remote: obj({
    pgvector: providerList(
      routed(
        {
          host: str(),
          port,
          db: str(),
          user: str(),
          password: keyRef,
          distanceMetric: str({ enum: ["COSINE", "L2", "L1", "INNER_PRODUCT"] }),
          vectorIndex: obj(
            { hnsw: HNSW, ivfFlat: obj({ nlist: atLeastOne, nprobe: atLeastOne }) },
            {
              rules: [
                { rule: "has(self.hnsw) || has(self.ivfFlat)", message: "one of hnsw or ivfFlat must be specified" },
                {
                  rule: "!(has(self.hnsw) && has(self.ivfFlat))",
                  message: "only one of hnsw or ivfFlat can be specified",
                },
              ],
            },
          ),
        },
        ["host", "db", "user"],
        { required: ["password"] },
      ),
    ),
    milvus: providerList(
      routed({ uri: nonEmptyStr, token: keyRef, consistencyLevel: str() }, ["consistencyLevel"], { required: ["uri"] }),
    ),
    qdrant: providerList(
      routed(
        {
          url: str(),
          host: str(),
          port,
          apiKey: keyRef,
          location: str(),
          grpcPort: port,
          preferGrpc: bool,
          https: bool,
          prefix: str(),
          timeout: atLeastOne,
        },
        ["url", "host", "location", "prefix"],
        {
          rules: [
            { rule: "has(self.url) || has(self.host)", message: "at least one of url or host must be specified" },
          ],
        },
      ),
    ),
    custom,
  }),
  inline: obj({ custom }),
});

/** `QualifiedModel` / `RerankerModel` of the vector-stores config (provider_types_responses.go). */
const model = obj(
  { providerId: nonEmptyStr, modelId: nonEmptyStr, embeddingDimensions: atLeastOne },
  { required: ["modelId", "providerId"] },
);
export const VECTOR_STORES_CONFIG: Node = objNonEmpty(
  {
    defaultProviderId: str(),
    defaultEmbeddingModel: model,
    defaultRerankerModel: obj(
      { providerId: nonEmptyStr, modelId: nonEmptyStr },
      { required: ["modelId", "providerId"] },
    ),
    rewriteQueryParams: obj({ model, prompt: str(), maxTokens: atLeastOne, temperature: str() }),
    fileSearchParams: obj({ headerTemplate: str(), footerTemplate: str() }),
    contextPromptParams: obj({ chunkAnnotationTemplate: str(), contextTemplate: str() }),
    annotationPromptParams: obj({
      enableAnnotations: bool,
      annotationInstructionTemplate: str(),
      chunkAnnotationTemplate: str(),
    }),
    fileIngestionParams: obj({ defaultChunkSizeTokens: atLeastOne, defaultChunkOverlapTokens: int({ minimum: 0 }) }),
    chunkRetrievalParams: obj({
      chunkMultiplier: atLeastOne,
      maxTokensInContext: atLeastOne,
      defaultRerankerStrategy: str({ enum: ["rrf", "weighted", "normalized"] }),
      rrfImpactFactor: str(),
      weightedSearchAlpha: str(),
      defaultSearchMode: str({ enum: ["vector", "keyword", "hybrid"] }),
    }),
    fileBatchParams: obj({
      maxConcurrentFilesPerBatch: atLeastOne,
      fileBatchChunkSize: atLeastOne,
      cleanupIntervalSeconds: atLeastOne,
    }),
    contextualRetrievalParams: obj({
      model,
      defaultTimeoutSeconds: atLeastOne,
      defaultMaxConcurrency: atLeastOne,
      maxDocumentTokens: atLeastOne,
    }),
  },
  ["defaultProviderId"],
);

const search = providerList(routed({ apiKey: keyRef, maxResults: atLeastOne }, [], { required: ["apiKey"] }));
const TOOL_RUNTIME: Node = obj({
  remote: obj({ braveSearch: search, tavilySearch: search, modelContextProtocol: providerList(routed({})), custom }),
  inline: obj({ fileSearch: providerList(routed({ vectorStoresConfig: VECTOR_STORES_CONFIG })), custom }),
});

const FILES: Node = obj({
  remote: obj({
    s3: objNonEmpty(
      {
        bucketName: nonEmptyStr,
        region: str(),
        awsAccessKeyId: keyRef,
        awsSecretAccessKey: keyRef,
        endpointUrl: str(),
        autoCreateBucket: bool,
      },
      ["region", "endpointUrl"],
      { required: ["bucketName"] },
    ),
    custom,
  }),
  inline: obj({ localfs: obj({ ttlSecs: atLeastOne }), custom }),
});

const BATCHES: Node = obj({
  remote: obj({ custom }),
  inline: obj({
    reference: obj({ maxConcurrentBatches: atLeastOne, maxConcurrentRequestsPerBatch: atLeastOne }),
    custom,
  }),
});

const COMPACTION = objNonEmpty(
  {
    summarizationPrompt: str(),
    summaryPrefix: str(),
    summarizationModel: str(),
    defaultCompactThreshold: atLeastOne,
    tokenizerEncoding: str(),
  },
  ["summarizationPrompt", "summaryPrefix", "summarizationModel", "tokenizerEncoding"],
);
const RESPONSES: Node = obj({
  remote: obj({ custom }),
  inline: obj({ builtin: obj({ vectorStoresConfig: VECTOR_STORES_CONFIG, compactionConfig: COMPACTION }), custom }),
});

const chunks = {
  defaultChunkSizeTokens: int({ minimum: 100, maximum: 4096 }),
  defaultChunkOverlapTokens: int({ minimum: 0, maximum: 2048 }),
};
const FILE_PROCESSORS: Node = obj({
  remote: obj({
    doclingServe: objNonEmpty(
      { baseUrl: nonEmptyStr, apiKey: keyRef, defaultChunkSizeTokens: chunks.defaultChunkSizeTokens },
      ["baseUrl"],
      { required: ["baseUrl"] },
    ),
    custom,
  }),
  inline: obj({
    auto: obj({ ...chunks, extractMetadata: bool, cleanText: bool }),
    pypdf: obj({ ...chunks, extractMetadata: bool, cleanText: bool }),
    markitdown: obj(chunks),
    docling: obj({ ...chunks, doOcr: bool }),
    custom,
  }),
});

export const PROVIDERS: Node = obj({
  inference: INFERENCE,
  vectorIo: VECTOR_IO,
  toolRuntime: TOOL_RUNTIME,
  files: FILES,
  batches: BATCHES,
  responses: RESPONSES,
  fileProcessors: FILE_PROCESSORS,
});

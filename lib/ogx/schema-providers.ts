/**
 * `spec.providers` of OGXServer v1beta1, from ogx-ai/ogx-k8s-operator api/v1beta1/provider_types*.go
 * at commit 1784464 (v0.14.0): per API a `remote` and an `inline` bucket, typed providers and
 * `custom[]` in each. Routed providers (lists) have an optional `id`; singletons (s3, localfs,
 * reference, builtin, the file processors) have none: their id is fixed (`remote-s3`…).
 */
import {
  atLeastOne,
  bool,
  int,
  keyRef,
  nonEmptyStr,
  obj,
  objNonEmpty,
  providerList,
  str,
  type Node,
} from "./schema-parts";

import { custom, routed } from "./schema-provider-parts";
import { INFERENCE, VECTOR_IO } from "./schema-inference";

export { CUSTOM_PROVIDER } from "./schema-provider-parts";

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

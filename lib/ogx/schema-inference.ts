/**
 * `spec.providers.inference` and `.vectorIo` of the OGXServer model, from ogx-ai/ogx-k8s-operator
 * api/v1beta1/provider_types_inference.go and provider_types_vectorio.go at commit 1784464.
 */
import * as part from "./schema-parts";
import { custom, port, routed } from "./schema-provider-parts";

/** `NetworkConfig` of remote inference providers (provider_types_inference.go). */
const NETWORK: part.Node = part.obj({
  tls: part.obj({
    verify: part.bool,
    minVersion: part.str({ enum: ["TLSv1.2", "TLSv1.3"] }),
    ciphers: part.list(part.nonEmptyStr),
  }),
  proxy: part.objNonEmpty(
    { url: part.str(), http: part.str(), https: part.str(), cacert: part.str(), noProxy: part.list(part.nonEmptyStr) },
    ["url", "http", "https", "cacert"],
  ),
  timeout: part.obj({ connect: part.atLeastOne, read: part.atLeastOne }),
  headers: { type: "object", minProperties: 1, additionalProperties: part.str() },
});
const inference = (properties: part.Node, nonEmpty: string[], required: string[]): part.Node =>
  routed(
    { ...properties, allowedModels: part.list(part.nonEmptyStr), refreshModels: part.bool, network: NETWORK },
    nonEmpty,
    {
      required,
    },
  );

export const INFERENCE: part.Node = part.obj({
  remote: part.obj({
    vllm: part.providerList(
      inference({ endpoint: part.nonEmptyStr, apiToken: part.keyRef, maxTokens: part.atLeastOne }, [], ["endpoint"]),
    ),
    openai: part.providerList(inference({ endpoint: part.str(), apiKey: part.keyRef }, ["endpoint"], ["apiKey"])),
    azure: part.providerList(
      inference(
        { endpoint: part.nonEmptyStr, apiKey: part.keyRef, apiVersion: part.str(), apiType: part.str() },
        ["apiVersion", "apiType"],
        ["apiKey", "endpoint"],
      ),
    ),
    bedrock: part.providerList(
      inference(
        {
          region: part.nonEmptyStr,
          apiKey: part.keyRef,
          awsAccessKeyId: part.keyRef,
          awsSecretAccessKey: part.keyRef,
          awsSessionToken: part.keyRef,
          awsRoleArn: part.str(),
          awsWebIdentityTokenFile: part.str(),
          awsRoleSessionName: part.str(),
          profileName: part.str(),
          totalMaxAttempts: part.atLeastOne,
          retryMode: part.str(),
          connectTimeout: part.atLeastOne,
          readTimeout: part.atLeastOne,
          sessionTTL: part.atLeastOne,
        },
        ["awsRoleArn", "awsWebIdentityTokenFile", "awsRoleSessionName", "profileName", "retryMode"],
        ["region"],
      ),
    ),
    vertexai: part.providerList(
      inference({ project: part.nonEmptyStr, location: part.str() }, ["location"], ["project"]),
    ),
    watsonx: part.providerList(
      inference(
        { endpoint: part.str(), apiKey: part.keyRef, projectId: part.str(), timeout: part.atLeastOne },
        ["endpoint", "projectId"],
        ["apiKey"],
      ),
    ),
    custom,
  }),
  inline: part.obj({ custom }),
});

const HNSW = part.obj({ m: part.atLeastOne, efConstruction: part.atLeastOne, efSearch: part.atLeastOne });
export const VECTOR_IO: part.Node = part.obj({
  remote: part.obj({
    pgvector: part.providerList(
      routed(
        {
          host: part.str(),
          port,
          db: part.str(),
          user: part.str(),
          password: part.keyRef,
          distanceMetric: part.str({ enum: ["COSINE", "L2", "L1", "INNER_PRODUCT"] }),
          vectorIndex: part.obj(
            { hnsw: HNSW, ivfFlat: part.obj({ nlist: part.atLeastOne, nprobe: part.atLeastOne }) },
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
    milvus: part.providerList(
      routed({ uri: part.nonEmptyStr, token: part.keyRef, consistencyLevel: part.str() }, ["consistencyLevel"], {
        required: ["uri"],
      }),
    ),
    qdrant: part.providerList(
      routed(
        {
          url: part.str(),
          host: part.str(),
          port,
          apiKey: part.keyRef,
          location: part.str(),
          grpcPort: port,
          preferGrpc: part.bool,
          https: part.bool,
          prefix: part.str(),
          timeout: part.atLeastOne,
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
  inline: part.obj({ custom }),
});

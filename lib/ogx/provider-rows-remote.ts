/**
 * The typed inference and vector-io providers of the peer (ogx-ai/ogx-k8s-operator
 * pkg/config/provider.go at commit 1784464 writes these config keys), in its expansion order.
 */
import { INFERENCE_COMMON, row, s, secret, type TypedProvider } from "./provider-row";

export const INFERENCE_AND_VECTOR_ROWS: readonly TypedProvider[] = [
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
];

/**
 * What the real server accepts, per release, written down from each release's source: API
 * names, provider types with their api_dependencies, and store kinds (docs/server-lines.md). The
 * tests hold the bundled base configs against these tables; they are deliberately not shared
 * with lib/ so a mistake in one place is caught by the other.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Release } from "../../../lib/distributions/table";

/** 1.x: a tag's provider registry, as tests/fixtures/server-schemas/<tag>/providers/index.json lists it (dumped from the tag's registry; that README says how). */
function registryOf(tag: string): Record<string, string[]> {
  const file = join(__dirname, "..", "..", "fixtures", "server-schemas", tag, "providers", "index.json");
  const entries = JSON.parse(readFileSync(file, "utf8")) as { api: string; provider_type: string }[];
  const byApi: Record<string, string[]> = {};
  for (const e of entries) (byApi[e.api] ??= []).push(e.provider_type);
  return byApi;
}

const REMOTE_INFERENCE = [
  "vllm",
  "ollama",
  "openai",
  "anthropic",
  "gemini",
  "vertexai",
  "bedrock",
  "azure",
  "fireworks",
  "together",
  "groq",
  "sambanova",
  "cerebras",
  "databricks",
  "nvidia",
  "runpod",
  "watsonx",
  "oci",
  "llama-openai-compat",
  "passthrough",
  "llama-cpp-server",
].map((adapter) => `remote::${adapter}`);

/** Provider types both releases register. */
const COMMON: Readonly<Record<string, readonly string[]>> = {
  inference: [...REMOTE_INFERENCE, "inline::sentence-transformers", "inline::transformers"],
  safety: [
    "inline::llama-guard",
    "inline::prompt-guard",
    "inline::code-scanner",
    "remote::bedrock",
    "remote::nvidia",
    "remote::sambanova",
    "remote::passthrough",
  ],
  vector_io: [
    "inline::faiss",
    "inline::sqlite-vec",
    "inline::chromadb",
    "inline::qdrant",
    "inline::milvus",
    "remote::pgvector",
    "remote::chromadb",
    "remote::qdrant",
    "remote::milvus",
    "remote::weaviate",
    "remote::elasticsearch",
    "remote::oci",
    "remote::infinispan",
  ],
  tool_runtime: [
    "remote::tavily-search",
    "remote::brave-search",
    "remote::bing-search",
    "remote::wolfram-alpha",
    "inline::file-search",
    "remote::model-context-protocol",
  ],
  responses: ["inline::builtin"],
  files: ["inline::localfs", "remote::s3", "remote::openai"],
  batches: ["inline::reference"],
  file_processors: ["inline::pypdf", "inline::docling"],
};

/** API → provider types the server registers for it, per release. */
export const PROVIDER_TYPES: Readonly<Record<Release, Readonly<Record<string, readonly string[]>>>> = {
  "0.7": {
    ...COMMON,
    // faiss aliases, deprecated in 0.7 and removed in 0.8
    vector_io: [...(COMMON["vector_io"] ?? []), "inline::sqlite_vec", "inline::builtin"],
    eval: ["inline::builtin", "remote::nvidia"],
    datasetio: ["inline::localfs", "remote::huggingface", "remote::nvidia"],
    scoring: ["inline::basic", "inline::llm-as-judge", "inline::braintrust"],
  },
  "0.8": {
    ...COMMON,
    file_processors: [...(COMMON["file_processors"] ?? []), "remote::docling-serve"],
    messages: ["inline::builtin"],
    interactions: ["inline::builtin"],
  },
  "1.2": registryOf("v1.2.2"),
  "1.3": registryOf("v1.3.0"),
};

/** APIs a release does not have at all: a config naming one fails with "API 'x' does not exist". */
export const ABSENT_APIS: Readonly<Record<Release, readonly string[]>> = {
  "0.7": ["messages", "interactions", "agents", "post_training", "telemetry"],
  "0.8": ["eval", "datasetio", "scoring", "agents", "post_training", "telemetry"],
  "1.2": ["safety", "shields", "eval", "datasetio", "scoring", "agents", "post_training", "telemetry"],
  "1.3": ["safety", "shields", "eval", "datasetio", "scoring", "agents", "post_training", "telemetry"],
};

/**
 * api_dependencies: a provider of the key API (optionally only of one provider type) needs a
 * provider of each listed API, or startup fails with "required dependency 'x' is not available".
 */
export const DEPENDENCIES: readonly { api: string; providerType?: string; needs: readonly string[] }[] = [
  { api: "responses", providerType: "inline::builtin", needs: ["inference", "vector_io", "tool_runtime", "files"] },
  { api: "tool_runtime", providerType: "inline::file-search", needs: ["vector_io", "inference", "files"] },
  { api: "batches", needs: ["inference", "files"] },
  { api: "file_processors", needs: ["files"] },
  { api: "vector_io", needs: ["inference"] },
  { api: "safety", needs: ["inference"] },
  { api: "skills", needs: ["files"] },
  { api: "messages", needs: ["inference"] },
];

/**
 * APIs the server builds a router for even when every provider is disabled
 * (`specs_for_autorouted_apis`). Any other dependency needs a provider that is always on.
 */
export const AUTO_ROUTED_APIS: readonly string[] = ["inference", "safety", "vector_io", "tool_runtime"];

/** Which backend kind each server store must point at (`validate_server_stores`); connectors by convention. 1.x moved prompts and connectors to SQL. */
const STORES_0X: Readonly<Record<string, "kv" | "sql">> = {
  metadata: "kv",
  prompts: "kv",
  connectors: "kv",
  inference: "sql",
  conversations: "sql",
  responses: "sql",
};
export const STORE_KINDS: Readonly<Record<Release, Readonly<Record<string, "kv" | "sql">>>> = {
  "0.7": STORES_0X,
  "0.8": STORES_0X,
  "1.2": { ...STORES_0X, prompts: "sql", connectors: "sql" },
  "1.3": { ...STORES_0X, prompts: "sql", connectors: "sql" },
};

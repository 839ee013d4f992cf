/**
 * `provider: vllm` → `provider_type: remote::vllm`, and which config keys the real server
 * reads for the endpoint and the API key of each type (research llamastack-config §2.3–2.4).
 */
import type { Release } from "../distributions/table";
import { REMOVED_TYPES } from "./releases";

export interface TypeInfo {
  /** Where `endpoint` goes; `split-postgres` spreads a URL over host/port/db (pgvector). */
  readonly urlKey?: string | "split-postgres";
  /** Appended to the endpoint when missing: vLLM and Ollama serve the OpenAI API under /v1. */
  readonly urlSuffix?: string;
  /** Where `apiKey` goes. */
  readonly keyField?: string;
  /** Secret field names users write → the key the server reads (e.g. vLLM `api_key` → `api_token`). */
  readonly aliases?: { readonly [written: string]: string };
}

type Table = { readonly [name: string]: { readonly remote?: TypeInfo; readonly inline?: TypeInfo } };

const openAiStyle: TypeInfo = { urlKey: "base_url", keyField: "api_key" };
const keyOnly: TypeInfo = { keyField: "api_key" };
const search: TypeInfo = { keyField: "api_key" };

const INFERENCE: Table = {
  vllm: { remote: { urlKey: "base_url", urlSuffix: "/v1", keyField: "api_token", aliases: { api_key: "api_token", apiKey: "api_token" } } },
  ollama: { remote: { urlKey: "base_url", urlSuffix: "/v1" } },
  openai: { remote: openAiStyle }, anthropic: { remote: keyOnly }, gemini: { remote: keyOnly },
  vertexai: { remote: {} }, bedrock: { remote: keyOnly }, azure: { remote: openAiStyle },
  fireworks: { remote: openAiStyle }, together: { remote: openAiStyle }, groq: { remote: openAiStyle },
  sambanova: { remote: openAiStyle }, cerebras: { remote: openAiStyle }, databricks: { remote: openAiStyle },
  nvidia: { remote: openAiStyle }, runpod: { remote: openAiStyle }, watsonx: { remote: openAiStyle },
  oci: { remote: {} }, "llama-openai-compat": { remote: openAiStyle }, passthrough: { remote: openAiStyle },
  "llama-cpp-server": { remote: openAiStyle },
  "sentence-transformers": { inline: {} }, transformers: { inline: {} },
};

const SAFETY: Table = {
  "llama-guard": { inline: {} }, "prompt-guard": { inline: {} }, "code-scanner": { inline: {} },
  bedrock: { remote: {} }, nvidia: { remote: { urlKey: "guardrails_service_url" } }, sambanova: { remote: keyOnly },
  passthrough: { remote: openAiStyle },
};

const VECTOR_IO: Table = {
  faiss: { inline: {} }, "sqlite-vec": { inline: {} },
  chromadb: { inline: {}, remote: { urlKey: "url" } },
  qdrant: { inline: {}, remote: { urlKey: "url", keyField: "api_key" } },
  milvus: { inline: {}, remote: { urlKey: "uri", keyField: "token" } },
  pgvector: { remote: { urlKey: "split-postgres", keyField: "password" } },
  weaviate: { remote: { urlKey: "weaviate_cluster_url", keyField: "weaviate_api_key" } },
  elasticsearch: { remote: { urlKey: "elasticsearch_url", keyField: "elasticsearch_api_key" } },
  oci: { remote: {} }, infinispan: { remote: { urlKey: "url", keyField: "password" } },
};

const TOOL_RUNTIME: Table = {
  "tavily-search": { remote: search }, "brave-search": { remote: search }, "bing-search": { remote: search },
  "wolfram-alpha": { remote: search }, "model-context-protocol": { remote: {} }, "file-search": { inline: {} },
};

const TABLES: { readonly [serverApi: string]: Table } = {
  inference: INFERENCE, safety: SAFETY, vector_io: VECTOR_IO, tool_runtime: TOOL_RUNTIME,
};

/** Old names users may still write, and what the supported releases call them. */
const RENAMED_TYPES: { readonly [name: string]: string } = { "rag-runtime": "file-search", "sqlite_vec": "sqlite-vec" };

export interface ResolvedType {
  readonly type: string;
  readonly info: TypeInfo;
  /** False for types outside the table: their keys cannot be checked, so defaults apply. */
  readonly known: boolean;
  readonly note?: string;
  readonly error?: string;
}

function withPrefix(kind: "remote" | "inline", name: string, info: TypeInfo): { type: string; info: TypeInfo; known: true } {
  return { type: `${kind}::${name}`, info, known: true };
}

/** FR-030, refined: the type table first, `remote::<name>` for unknown names (with a note). */
export function resolveProviderType(serverApi: string, provider: string, hasEndpoint: boolean, release: Release): ResolvedType {
  if (provider.includes("::")) {
    const [kind, name = ""] = provider.split("::", 2) as ["remote" | "inline", string];
    const known = TABLES[serverApi]?.[name]?.[kind];
    if (REMOVED_TYPES[release].has(provider)) return { type: provider, info: {}, known: false, error: removedMessage(provider, release) };
    return { type: provider, info: known ?? {}, known: known !== undefined };
  }
  const renamed = RENAMED_TYPES[provider];
  const name = renamed ?? provider;
  const entry = TABLES[serverApi]?.[name];
  const note = renamed ? `provider "${provider}" is called "${renamed}" on ${release}.x servers; generated ${name}` : undefined;
  const removed = [`remote::${name}`, `inline::${name}`].find((t) => REMOVED_TYPES[release].has(t) && (t.startsWith("remote::") || !entry?.remote));
  if (removed) return { type: removed, info: {}, known: false, error: removedMessage(removed, release) };
  if (entry?.remote && (hasEndpoint || !entry.inline)) return { ...withPrefix("remote", name, entry.remote), ...(note ? { note } : {}) };
  if (entry?.inline) return { ...withPrefix("inline", name, entry.inline), ...(note ? { note } : {}) };
  return {
    type: `remote::${name}`,
    info: {},
    known: false,
    note: `provider "${provider}" is not a known ${serverApi} provider; generated provider_type remote::${name} (write the full type, e.g. inline::${name}, to choose)`,
  };
}

function removedMessage(type: string, release: Release): string {
  return `${type} does not exist on ${release}.x servers (removed upstream); choose another provider, e.g. vllm or ollama`;
}

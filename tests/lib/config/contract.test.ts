/**
 * Contract with the real server: a generated provider entry uses only config keys the server
 * reads for that provider type. The key lists are written here from the server's provider
 * config classes and the upstream distribution configs, independently of the
 * generator's own table, so a wrong table entry fails this test.
 */
import { aSecretRef, aSpec } from "../../builders";
import { doc, run } from "../../config-helpers";

const REMOTE_INFERENCE_BASE = ["allowed_models", "refresh_models", "api_key", "network"];

const SERVER_KEYS: Record<string, readonly string[]> = {
  "remote::vllm": ["base_url", "max_tokens", "api_token", "tls_verify", "allowed_models", "refresh_models", "network"],
  "remote::ollama": ["base_url", "allowed_models", "refresh_models", "network"],
  "remote::openai": ["base_url", ...REMOTE_INFERENCE_BASE],
  "remote::fireworks": ["base_url", ...REMOTE_INFERENCE_BASE],
  "remote::together": ["base_url", ...REMOTE_INFERENCE_BASE],
  "remote::groq": ["base_url", ...REMOTE_INFERENCE_BASE],
  "remote::cerebras": ["base_url", ...REMOTE_INFERENCE_BASE],
  "remote::nvidia": ["base_url", ...REMOTE_INFERENCE_BASE],
  "remote::sambanova": ["base_url", ...REMOTE_INFERENCE_BASE],
  "remote::anthropic": REMOTE_INFERENCE_BASE,
  "remote::gemini": REMOTE_INFERENCE_BASE,
  "remote::pgvector": ["host", "port", "db", "user", "password", "distance_metric", "vector_index", "persistence"],
  "remote::chromadb": ["url", "persistence"],
  "remote::weaviate": ["weaviate_api_key", "weaviate_cluster_url", "persistence"],
  "remote::elasticsearch": ["elasticsearch_url", "elasticsearch_api_key", "persistence"],
  "remote::infinispan": ["url", "username", "password", "use_https", "auth_mechanism", "verify_tls", "persistence"],
  "remote::tavily-search": ["api_key", "max_results"],
  "remote::brave-search": ["api_key", "max_results"],
  "inline::faiss": ["persistence"],
  "inline::sqlite-vec": ["db_path", "persistence"],
  "inline::llama-guard": ["excluded_categories"],
  "inline::code-scanner": [],
  "inline::file-search": [],
  "inline::sentence-transformers": ["trust_remote_code"],
  "remote::model-context-protocol": [],
};

/** Keys that hold where a provider is / its credential: the test gives endpoint/apiKey only to types that have one. */
const URL_KEYS = ["base_url", "url", "host", "weaviate_cluster_url", "elasticsearch_url"];
const SECRET_KEYS = ["api_key", "api_token", "password", "weaviate_api_key", "elasticsearch_api_key"];

const API_OF: Record<string, string> = {
  vllm: "inference",
  ollama: "inference",
  openai: "inference",
  fireworks: "inference",
  together: "inference",
  groq: "inference",
  cerebras: "inference",
  nvidia: "inference",
  sambanova: "inference",
  anthropic: "inference",
  gemini: "inference",
  "sentence-transformers": "inference",
  pgvector: "vectorIo",
  chromadb: "vectorIo",
  weaviate: "vectorIo",
  elasticsearch: "vectorIo",
  infinispan: "vectorIo",
  faiss: "vectorIo",
  "sqlite-vec": "vectorIo",
  "tavily-search": "toolRuntime",
  "brave-search": "toolRuntime",
  "model-context-protocol": "toolRuntime",
  "file-search": "toolRuntime",
  "llama-guard": "safety",
  "code-scanner": "safety",
};

describe("generated provider entries use only keys the server reads", () => {
  it.each(Object.keys(SERVER_KEYS))("%s", (type) => {
    const name = type.split("::")[1] ?? type;
    const keys = SERVER_KEYS[type] ?? [];
    const p = {
      id: `t-${name}`,
      provider: type,
      ...(keys.some((k) => URL_KEYS.includes(k)) ? { endpoint: "http://svc.ns:1234/db" } : {}),
      ...(keys.some((k) => SECRET_KEYS.includes(k)) ? { apiKey: aSecretRef() } : {}),
    };
    const config = doc(run(aSpec({ providers: { [API_OF[name] ?? "inference"]: p } })));
    const entry = Object.values(config.providers)
      .flat()
      .find((e) => e.provider_id === p.id);
    expect(entry?.provider_type).toBe(type);
    const unknown = Object.keys(entry?.config ?? {}).filter((k) => !SERVER_KEYS[type]?.includes(k));
    expect(unknown).toEqual([]);
  });

  it.each(Object.keys(API_OF))("short name %s resolves to a type in the contract table", (name) => {
    const p = {
      id: `s-${name}`,
      provider: name,
      ...(name === "pgvector" || name === "chromadb" ? { endpoint: "http://db:5432/x" } : {}),
    };
    const config = doc(run(aSpec({ providers: { [API_OF[name] ?? "inference"]: p } })));
    const entry = Object.values(config.providers)
      .flat()
      .find((e) => e.provider_id === p.id);
    expect(Object.keys(SERVER_KEYS)).toContain(entry?.provider_type);
  });
});

describe("fields a known type cannot use", () => {
  it.each([
    [
      "toolRuntime",
      { provider: "model-context-protocol", apiKey: aSecretRef() },
      "spec.providers.toolRuntime.apiKey",
      /remote::model-context-protocol takes no API key/,
    ],
    [
      "vectorIo",
      { provider: "faiss", id: "f2", endpoint: "http://f:1" },
      "spec.providers.vectorIo.endpoint",
      /inline::faiss has no endpoint setting/,
    ],
  ])("given %s %j, fails instead of letting the server ignore it", (api, p, path, message) => {
    const result = run(aSpec({ providers: { [api]: p } }));
    expect(result).toEqual(
      expect.objectContaining({ ok: false, errors: [{ path, message: expect.stringMatching(message) }] }),
    );
  });
});

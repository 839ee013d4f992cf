/**
 * The start-up rule of the 1.x vector_io providers, as the server's code states it (facts of
 * `src/ogx/providers/utils/memory/openai_vector_store_mixin.py`, `initialize_openai_vector_stores`,
 * and `src/ogx/core/resolver.py`, `_inject_config_defaults`, at v1.3.0; 0.7.3 and 0.8.0 have
 * neither): an enabled provider stops the server when tenancy mode is `multi`, or when the access
 * policy is not empty and its factory receives the policy, unless it has a `metadata_store`. The
 * resolver fills `metadata_store` from `storage.stores.vector_stores` into every config class that
 * declares the field. Read on the substituted config, so providers switched off by env are skipped.
 */
import type { SchemaTag } from "../../lib/distributions/releases";
import { isDict } from "./substitution";

/** Tags whose mixin has the rule (`metadata_store is required when …`). */
const GUARDING_TAGS: ReadonlySet<string> = new Set(["v1.2.2", "v1.3.0"]);

/** vector_io types whose `get_provider_impl`/`get_adapter_impl` take no `policy` at v1.3.0 (`__init__.py` of each). */
const NO_POLICY_TYPES: ReadonlySet<string> = new Set(["inline::chromadb", "remote::oci"]);

/**
 * inline::chromadb shares the remote adapter, whose `initialize` reads `self.config.metadata_store`
 * first; the inline config class has no such field (`providers/remote/vector_io/chroma/chroma.py`
 * at v1.2.2 and v1.3.0): pydantic raises AttributeError, whatever the config says.
 */
const NEVER_STARTS = "inline::chromadb";

/** `declares(type)`: the type's config class (its JSON Schema) has a `metadata_store` property. */
export function vectorMetadataProblems(
  config: Record<string, unknown>,
  tag: SchemaTag,
  declares: (providerType: string) => boolean,
): string[] {
  if (!GUARDING_TAGS.has(tag)) return [];
  const list = isDict(config.providers) && Array.isArray(config.providers.vector_io) ? config.providers.vector_io : [];
  const enabled = list.filter(isDict).filter((p) => p.provider_id && p.provider_id !== "__disabled__");
  const chroma = enabled
    .filter((p) => p.provider_type === NEVER_STARTS)
    .map(
      (p) =>
        `providers.vector_io ${String(p.provider_id)}: AttributeError: 'ChromaVectorIOConfig' object has no attribute 'metadata_store'`,
    );
  const server = isDict(config.server) ? config.server : {};
  const auth = isDict(server.auth) ? server.auth : {};
  const tenancy = isDict(server.tenancy) ? server.tenancy : {};
  const multi = tenancy.mode === "multi";
  const policy = Array.isArray(auth.access_policy) && auth.access_policy.length > 0;
  if (!multi && !policy) return chroma;
  const storage = isDict(config.storage) ? config.storage : {};
  const shared = isDict(storage.stores) && isDict(storage.stores.vector_stores);
  return chroma.concat(
    enabled.flatMap((p) => {
      const id = p.provider_id;
      if (typeof p.provider_type !== "string" || p.provider_type === NEVER_STARTS) return [];
      const own = isDict(p.config) && isDict(p.config.metadata_store);
      const injected = shared && declares(p.provider_type);
      if (own || injected) return [];
      if (multi)
        return [
          `providers.vector_io ${String(id)}: Failed to initialize vector store provider: metadata_store is required when tenancy mode is 'multi'`,
        ];
      if (NO_POLICY_TYPES.has(p.provider_type)) return [];
      return [
        `providers.vector_io ${String(id)}: Failed to initialize vector store provider: metadata_store is required when access control policies are configured`,
      ];
    }),
  );
}

/**
 * Startup checks the server makes after its schema validation, which JSON Schema cannot
 * express: a registered resource names an enabled provider of its API ("Provider ollama not
 * found"), every storage reference names a declared backend, and each enabled provider's
 * required APIs have an enabled provider ("required dependency 'files' is not available").
 */
import { shown } from "../shown";
import { isDict } from "./substitution";

/** The API whose providers serve each kind of registered resource. */
const RESOURCE_API: { readonly [kind: string]: string } = {
  models: "inference",
  shields: "safety",
  vector_stores: "vector_io",
};

function enabledIds(config: Record<string, unknown>, api: string): string[] {
  const list = isDict(config.providers) ? config.providers[api] : undefined;
  if (!Array.isArray(list)) return [];
  return list
    .filter(isDict)
    .map((p) => p.provider_id)
    .filter((id): id is string => typeof id === "string" && id !== "" && id !== "__disabled__");
}

function resourceProblems(config: Record<string, unknown>): string[] {
  const rr = isDict(config.registered_resources) ? config.registered_resources : {};
  return Object.entries(RESOURCE_API).flatMap(([kind, api]) => {
    const list = rr[kind];
    if (!Array.isArray(list)) return [];
    const ids = enabledIds(config, api);
    return list.filter(isDict).flatMap((r, i) => {
      const provider = r.provider_id;
      // Skipped by the server: no provider, or a disabled one; `all` is the first active model provider.
      if (!provider || provider === "__disabled__" || (kind === "models" && provider === "all")) return [];
      return ids.includes(shown(provider))
        ? []
        : [
            `registered_resources.${kind}[${i}]: Provider ${shown(provider)} not found (enabled ${api} providers: ${ids.join(", ") || "none"})`,
          ];
    });
  });
}

/**
 * Every `{backend: name, namespace|table_name: …}` reference names a declared backend of its kind:
 * the server registers `kv_*` and `sql_*` backends apart (`_initialize_storage`), so a KV store
 * (`namespace`) on a `sql_*` backend stops it ("Unknown KVStore backend", kvstore.py) and the reverse
 * too ("Unknown SQL store backend", sqlstore.py), at 0.7.3, 0.8.0 and 1.3.0.
 */
function backendProblems(config: Record<string, unknown>): string[] {
  const storage = isDict(config.storage) ? config.storage : {};
  const declared = isDict(storage.backends) ? storage.backends : {};
  const backends = Object.keys(declared);
  const problems: string[] = [];
  const walk = (value: unknown, path: string): void => {
    if (Array.isArray(value)) return value.forEach((v, i) => walk(v, `${path}[${i}]`));
    if (!isDict(value)) return;
    const kind = "table_name" in value ? "sql" : "namespace" in value ? "kv" : undefined;
    if (typeof value.backend === "string" && kind !== undefined) {
      const backend = declared[value.backend];
      const type = isDict(backend) ? String(backend.type) : undefined;
      if (type === undefined)
        problems.push(
          `${path}.backend: backend "${value.backend}" is not declared in storage.backends (${backends.join(", ") || "none"})`,
        );
      else if (!type.startsWith(`${kind}_`))
        problems.push(`${path}.backend: a ${kind} store on backend "${value.backend}" of type ${type}`);
    }
    for (const [k, v] of Object.entries(value)) walk(v, path ? `${path}.${k}` : k);
  };
  walk(config, "");
  return problems;
}

interface Registered {
  readonly api: string;
  readonly provider_type: string;
  readonly api_dependencies?: readonly string[];
}

/** APIs behind an automatic router (`builtin_automatically_routed_apis`, union of the tags): served whenever listed in `apis`. */
const ROUTED_APIS = new Set(["inference", "safety", "datasetio", "scoring", "eval", "tool_runtime", "vector_io"]);

function dependencyProblems(config: Record<string, unknown>, index: readonly Registered[]): string[] {
  const providerApis = new Set(index.map((e) => e.api));
  const listed = Array.isArray(config.apis) && config.apis.length > 0 ? new Set(config.apis.map(String)) : undefined;
  const providers = isDict(config.providers) ? config.providers : {};
  const toServe = listed ?? new Set([...Object.keys(providers), ...ROUTED_APIS]);
  // resolve_impls: a routed API exists when served; any other API when one of its providers is enabled.
  const served = (api: string): boolean =>
    ROUTED_APIS.has(api) ? toServe.has(api) : enabledIds(config, api).length > 0;
  return Object.entries(providers).flatMap(([api, list]) => {
    if (!Array.isArray(list)) return [];
    return list
      .filter(isDict)
      .filter((p) => typeof p.provider_id === "string" && p.provider_id !== "" && p.provider_id !== "__disabled__")
      .flatMap((p) => {
        const deps = index.find((e) => e.api === api && e.provider_type === p.provider_type)?.api_dependencies ?? [];
        return deps
          .filter((d) => providerApis.has(d) && !served(d))
          .map((d) => `providers.${api} ${String(p.provider_id)}: required dependency '${d}' is not available`);
      });
  });
}

/** validate_safety_config: a default shield must be registered, when any shield is. */
function defaultShieldProblems(config: Record<string, unknown>): string[] {
  const id = isDict(config.safety) ? config.safety.default_shield_id : undefined;
  const shields =
    isDict(config.registered_resources) && Array.isArray(config.registered_resources.shields)
      ? config.registered_resources.shields.filter(isDict)
      : [];
  if (id === undefined || id === null || shields.length === 0 || shields.some((s) => s.shield_id === id)) return [];
  return [`safety.default_shield_id: Configured default_shield_id '${shown(id)}' not found among registered shields`];
}

export function startupProblems(config: Record<string, unknown>, index: readonly Registered[]): string[] {
  return [
    ...resourceProblems(config),
    ...backendProblems(config),
    ...dependencyProblems(config, index),
    ...defaultShieldProblems(config),
  ];
}

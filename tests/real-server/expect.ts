/**
 * What the server must list, from config.yaml as the server reads it: `${env.X}` forms resolved
 * against the container env (`:=` default, `:+` only when set), and a registered model's id as
 * 1.3 makes it: `<provider_id>/<model_id>`, unless the model_id already starts with that prefix
 * (ogx/core/routing_tables/models.py, register_model, at v1.3.0).
 */
import { isPlainObject } from "../../lib/json";

export type Env = { readonly [name: string]: string };

/** A scalar of config.yaml as text; `fallback` for anything else (missing, a map, a list). */
export const text = (v: unknown, fallback = ""): string =>
  typeof v === "string" || typeof v === "number" || typeof v === "boolean" ? String(v) : fallback;

export function resolveEnv(text: string, env: Env): string {
  return text.replace(/\$\{env\.(\w+)(?::([=+])([^}]*))?\}/g, (_, name: string, op?: string, arg?: string) => {
    const value = env[name] ?? "";
    if (op === "+") return value === "" ? "" : (arg ?? "");
    return value === "" && op === "=" ? (arg ?? "") : value;
  });
}

export interface ExpectedModel {
  readonly id: string;
  readonly providerId: string;
  readonly providerModelId: string;
  readonly type: string;
}

/** Models registered in config.yaml on a provider that is on; `provider_id: all` aliases are the server's choice. */
export function expectedModels(config: { readonly [k: string]: unknown }, env: Env): ExpectedModel[] {
  const resources = isPlainObject(config.registered_resources) ? config.registered_resources : {};
  const models = Array.isArray(resources.models) ? resources.models.filter(isPlainObject) : [];
  return models.flatMap((m) => {
    const providerId = resolveEnv(text(m.provider_id), env);
    const modelId = resolveEnv(text(m.model_id), env);
    if (providerId === "" || providerId === "all" || providerId === "__disabled__" || modelId === "") return [];
    const providerModelId = resolveEnv(text(m.provider_model_id, modelId), env);
    const id = modelId.startsWith(`${providerId}/`) ? modelId : `${providerId}/${modelId}`;
    return [{ id, providerId, providerModelId, type: text(m.model_type, "llm") }];
  });
}

/** Provider types of config.yaml that are on, by provider_id. */
export function activeProviders(config: { readonly [k: string]: unknown }, env: Env): Map<string, string> {
  const providers = isPlainObject(config.providers) ? config.providers : {};
  const active = new Map<string, string>();
  for (const list of Object.values(providers))
    for (const p of Array.isArray(list) ? list.filter(isPlainObject) : []) {
      const id = resolveEnv(text(p.provider_id), env);
      if (id !== "" && id !== "__disabled__") active.set(id, text(p.provider_type));
    }
  return active;
}

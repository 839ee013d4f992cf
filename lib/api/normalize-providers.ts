/**
 * `spec.providers` → canonical providers: one object or a list per API, secret references in
 * either form, each element with its field path (normalize.ts is the rest of the spec).
 */
import { child } from "../errors";
import { isPlainObject } from "../json";
import { PROVIDER_APIS } from "./apis";
import type * as C from "./canonical";
import type { LlsdSpecV1alpha2, ProviderApi, ProviderInput, ProviderListInput, SecretRefInput } from "./v1alpha2";

const PROVIDER_KEYS = new Set(["id", "provider", "endpoint", "apiKey", "secretRefs", "settings"]);

export function toSecretRef(input: SecretRefInput, path: string): C.SecretRef {
  const flat = "secretKeyRef" in input ? input.secretKeyRef : input;
  return { name: flat.name, key: flat.key, path };
}

/** Extra provider fields are typed `unknown` (the schema makes them Secret references). */
function isSecretRefInput(value: unknown): value is SecretRefInput {
  if (!isPlainObject(value)) return false;
  const flat = value.secretKeyRef ?? value;
  return isPlainObject(flat) && typeof flat.name === "string" && typeof flat.key === "string";
}

function secretFields(p: ProviderInput, path: string): C.SecretField[] {
  const out: C.SecretField[] = [];
  if (p.apiKey) out.push({ field: "apiKey", ref: toSecretRef(p.apiKey, child(path, "apiKey")) });
  const refs = p.secretRefs ?? {};
  for (const field of Object.keys(refs).sort()) {
    const ref = refs[field];
    if (ref) out.push({ field, ref: toSecretRef(ref, child(child(path, "secretRefs"), field)) });
  }
  const extra: string[] = [];
  for (const key of Object.keys(p)) if (!PROVIDER_KEYS.has(key)) extra.push(key);
  for (const field of extra.sort()) {
    const value = p[field];
    if (isSecretRefInput(value)) out.push({ field, ref: toSecretRef(value, child(path, field)) });
  }
  return out;
}

/**
 * Required keys in the literal, optional ones assigned when set: a literal with spreads costs
 * a runtime call, per provider on every sync (the canonical spec is never serialized: key order is free).
 */
function provider(api: ProviderApi, p: ProviderInput, path: string): C.Provider {
  const out: { -readonly [K in keyof C.Provider]: C.Provider[K] } = {
    api,
    id: p.id ?? p.provider,
    explicitId: p.id !== undefined,
    provider: p.provider,
    secrets: secretFields(p, path),
    path,
  };
  if (p.endpoint !== undefined) out.endpoint = p.endpoint;
  if (p.settings !== undefined) out.settings = p.settings;
  return out;
}

/** `Array.isArray` does not narrow a readonly array out of a union; this does. */
const isProviderList = (section: ProviderListInput): section is readonly ProviderInput[] => Array.isArray(section);

/** Every provider of every API, in API order then list order. */
export function providersOf(input: LlsdSpecV1alpha2["providers"]): C.Provider[] {
  const out: C.Provider[] = [];
  for (const api of PROVIDER_APIS) {
    const section = input?.[api];
    if (section === undefined) continue;
    const base = child("spec.providers", api);
    if (!isProviderList(section)) out.push(provider(api, section, base));
    else {
      let i = 0;
      for (const p of section) out.push(provider(api, p, child(base, i++)));
    }
  }
  return out;
}

/**
 * Polymorphic v1alpha2 spec → one canonical shape (docs/spec-reference.md). Pure and total: it never
 * throws on schema-valid input, and keeps each element's field path for later errors.
 */
import { child } from "../errors";
import { DEFAULT_PORT } from "../defaults";
import { isMap } from "../config/doc";
import { EXTERNAL_PROVIDER_APIS, PROVIDER_APIS, serverApiName } from "./apis";
import type * as C from "./canonical";
import type {
  ExposeObject,
  KvStorageInput,
  LlsdSpecV1alpha2,
  ModelInput,
  ProviderInput,
  ProviderApi,
  ProviderListInput,
  SecretRefInput,
  SqlStorageInput,
  TlsInput,
} from "./v1alpha2";

const PROVIDER_KEYS = new Set(["id", "provider", "endpoint", "apiKey", "secretRefs", "settings"]);

export function toSecretRef(input: SecretRefInput, path: string): C.SecretRef {
  const flat = "secretKeyRef" in input ? input.secretKeyRef : input;
  return { name: flat.name, key: flat.key, path };
}

/** Extra provider fields are typed `unknown` (the schema makes them Secret references). */
function isSecretRefInput(value: unknown): value is SecretRefInput {
  if (!isMap(value)) return false;
  const flat = value.secretKeyRef ?? value;
  return isMap(flat) && typeof flat.name === "string" && typeof flat.key === "string";
}

function secretFields(p: ProviderInput, path: string): C.SecretField[] {
  const out: C.SecretField[] = [];
  if (p.apiKey) out.push({ field: "apiKey", ref: toSecretRef(p.apiKey, child(path, "apiKey")) });
  const refs = p.secretRefs ?? {};
  for (const field of Object.keys(refs).sort()) {
    const ref = refs[field];
    if (ref) out.push({ field, ref: toSecretRef(ref, child(child(path, "secretRefs"), field)) });
  }
  for (const field of Object.keys(p)
    .filter((k) => !PROVIDER_KEYS.has(k))
    .sort()) {
    const value = p[field];
    if (isSecretRefInput(value)) out.push({ field, ref: toSecretRef(value, child(path, field)) });
  }
  return out;
}

/** `Array.isArray` does not narrow a readonly array out of a union; this does. */
const isProviderList = (section: ProviderListInput): section is readonly ProviderInput[] => Array.isArray(section);

function providersOf(api: ProviderApi, input: LlsdSpecV1alpha2["providers"]): C.Provider[] {
  const section = input?.[api];
  if (section === undefined) return [];
  const base = child("spec.providers", api);
  const list = isProviderList(section) ? section : [section];
  return list.map((p, i) => {
    const path = isProviderList(section) ? child(base, i) : base;
    return {
      api,
      id: p.id ?? p.provider,
      explicitId: p.id !== undefined,
      provider: p.provider,
      ...(p.endpoint !== undefined ? { endpoint: p.endpoint } : {}),
      secrets: secretFields(p, path),
      ...(p.settings !== undefined ? { settings: p.settings } : {}),
      path,
    };
  });
}

function model(input: ModelInput, path: string): C.Model {
  if (typeof input === "string") return { name: input, modelType: "llm", path };
  const { name, modelType, ...rest } = input;
  return { name, modelType: modelType ?? "llm", ...rest, path };
}

function resources(spec: LlsdSpecV1alpha2): C.Resources {
  const r = spec.resources ?? {};
  const named = (key: "tools" | "shields") =>
    (r[key] ?? []).map((name, i) => ({ name, path: child(child("spec.resources", key), i) }));
  return {
    models: (r.models ?? []).map((m, i) => model(m, child("spec.resources.models", i))),
    tools: named("tools"),
    shields: named("shields"),
  };
}

function kvStorage(kv: KvStorageInput): C.KvStorage {
  const path = "spec.storage.kv";
  if (kv.type !== "redis") return { type: "sqlite", path };
  return {
    type: "redis",
    ...(kv.endpoint !== undefined ? { endpoint: kv.endpoint } : {}),
    ...(kv.password ? { password: toSecretRef(kv.password, `${path}.password`) } : {}),
    path,
  };
}

function sqlStorage(sql: SqlStorageInput): C.SqlStorage {
  const path = "spec.storage.sql";
  if (sql.type !== "postgres") return { type: "sqlite", path };
  return {
    type: "postgres",
    ...(sql.connectionString
      ? { connectionString: toSecretRef(sql.connectionString, `${path}.connectionString`) }
      : {}),
    path,
  };
}

function storage(spec: LlsdSpecV1alpha2): C.Storage | undefined {
  if (spec.storage === undefined) return undefined;
  const { kv, sql } = spec.storage;
  const out: { -readonly [K in keyof C.Storage]: C.Storage[K] } = {};
  if (kv) out.kv = kvStorage(kv);
  if (sql) out.sql = sqlStorage(sql);
  return out;
}

/** `true`, `{}` and `{enabled: true}` all mean exposed; absent or `false` means not. */
export function normalizeExpose(expose: boolean | ExposeObject | undefined): C.Expose {
  if (expose === undefined || typeof expose === "boolean") return { enabled: expose === true };
  return { enabled: expose.enabled ?? true, ...(expose.hostname !== undefined ? { hostname: expose.hostname } : {}) };
}

function tls(input: TlsInput | undefined): C.Tls {
  const caBundle = input?.caBundle;
  return {
    enabled: input?.enabled === true,
    ...(input?.secretName !== undefined ? { secretName: input.secretName } : {}),
    ...(caBundle
      ? {
          caBundle: {
            configMapName: caBundle.configMapName,
            configMapKeys: caBundle.configMapKeys ?? ["ca-bundle.crt"],
          },
        }
      : {}),
  };
}

function distribution(spec: LlsdSpecV1alpha2): C.Distribution {
  const { name, image } = spec.distribution ?? {};
  if (name !== undefined && image === undefined) return { kind: "name", name };
  if (image !== undefined && name === undefined) return { kind: "image", image };
  return { kind: "invalid" };
}

/** Sections in the schema's order (not the map's, which the apiserver does not keep), then list order. */
function externalProviders(spec: LlsdSpecV1alpha2): C.ExternalProvider[] {
  const sections = spec.externalProviders ?? {};
  return EXTERNAL_PROVIDER_APIS.flatMap((api) =>
    (sections[api] ?? []).map((p, i) => ({
      ...p,
      api: serverApiName(api),
      path: child(child("spec.externalProviders", api), i),
    })),
  );
}

export function normalize(spec: LlsdSpecV1alpha2): C.CanonicalSpec {
  const net = spec.networking ?? {};
  return {
    distribution: distribution(spec),
    providers: PROVIDER_APIS.flatMap((api) => providersOf(api, spec.providers)),
    resources: resources(spec),
    ...(spec.storage !== undefined ? { storage: storage(spec) } : {}),
    disabled: (spec.disabled ?? []).map((written, i) => ({
      api: serverApiName(written),
      written,
      path: child("spec.disabled", i),
    })),
    networking: {
      port: net.port ?? DEFAULT_PORT,
      expose: normalizeExpose(net.expose),
      tls: tls(net.tls),
      ...(net.allowedFrom ? { allowedFrom: net.allowedFrom } : {}),
    },
    workload: spec.workload ?? {},
    externalProviders: externalProviders(spec),
    ...(spec.overrideConfig ? { overrideConfig: spec.overrideConfig } : {}),
    present: {
      providers: spec.providers !== undefined && Object.keys(spec.providers).length > 0,
      resources: spec.resources !== undefined,
      storage: spec.storage !== undefined,
      disabled: (spec.disabled ?? []).length > 0,
    },
  };
}

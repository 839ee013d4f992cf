/**
 * Polymorphic v1alpha2 spec → one canonical shape (docs/spec-reference.md). Pure and total: it never
 * throws on schema-valid input, and keeps each element's field path for later errors.
 *
 * Runs on every sync and admission: objects are built key by key in the canonical order, with
 * plain loops. A literal that spreads an optional `{key}` in, an object rest (`...rest`) or a
 * closure per element each cost far more than the assignments.
 */
import { child } from "../errors";
import { DEFAULT_PORT } from "../defaults";
import { DEFAULT_METRICS_PORT, type Monitoring } from "../distributions/monitoring";
import { EXTERNAL_PROVIDER_APIS, isResourceKind, serverApiName } from "./apis";
import type * as C from "./canonical";
import { caBundles, configMapKey } from "./normalize-config-maps";
import { providersOf, toSecretRef } from "./normalize-providers";
import { normalizeAuth } from "./normalize-auth";
import type {
  ExposeObject,
  KvStorageInput,
  LlsdSpecV1alpha2,
  ModelInput,
  MonitoringInput,
  NetworkingInput,
  SecretRefInput,
  SqlStorageInput,
  TlsInput,
} from "./v1alpha2";

type Writable<T> = { -readonly [K in keyof T]: T[K] };

function model(input: ModelInput, path: string): C.Model {
  if (typeof input === "string") return { name: input, modelType: "llm", path };
  const { name, modelType, ...rest } = input;
  return { name, modelType: modelType ?? "llm", ...rest, path };
}

function named(names: readonly string[] | undefined, base: string): { name: string; path: string }[] {
  const out: { name: string; path: string }[] = [];
  let i = 0;
  for (const name of names ?? []) out.push({ name, path: child(base, i++) });
  return out;
}

function resources(spec: LlsdSpecV1alpha2): C.Resources {
  const r = spec.resources ?? {};
  const models: C.Model[] = [];
  let i = 0;
  for (const m of r.models ?? []) models.push(model(m, child("spec.resources.models", i++)));
  return {
    models,
    tools: named(r.tools, "spec.resources.tools"),
    shields: named(r.shields, "spec.resources.shields"),
  };
}

function kvStorage(kv: KvStorageInput): C.KvStorage {
  const path = "spec.storage.kv";
  if (kv.type === "postgres") return postgresStore(kv, path);
  if (kv.type !== "redis") return { type: "sqlite", path };
  // Required keys in the literal, optional ones assigned: no spreads in a literal on every sync.
  const out: Writable<C.KvStorage & { type: "redis" }> = { type: "redis", path };
  if (kv.endpoint !== undefined) out.endpoint = kv.endpoint;
  if (kv.password) out.password = toSecretRef(kv.password, `${path}.password`);
  return out;
}

/** A store on Postgres (kv or sql): its DSN's Secret key. */
function postgresStore(
  store: { readonly connectionString?: SecretRefInput },
  path: string,
): { type: "postgres"; connectionString?: C.SecretRef; path: string } {
  if (!store.connectionString) return { type: "postgres", path };
  return { type: "postgres", connectionString: toSecretRef(store.connectionString, `${path}.connectionString`), path };
}

function sqlStorage(sql: SqlStorageInput): C.SqlStorage {
  const path = "spec.storage.sql";
  if (sql.type !== "postgres") return { type: "sqlite", path };
  return postgresStore(sql, path);
}

function storage(spec: LlsdSpecV1alpha2): C.Storage | undefined {
  if (spec.storage === undefined) return undefined;
  const { kv, sql } = spec.storage;
  const out: Writable<C.Storage> = {};
  if (kv) out.kv = kvStorage(kv);
  if (sql) out.sql = sqlStorage(sql);
  return out;
}

/** `true`, `{}` and `{enabled: true}` all mean exposed; absent or `false` means not. */
export function normalizeExpose(expose: boolean | ExposeObject | undefined): C.Expose {
  if (expose === undefined || typeof expose === "boolean") return { enabled: expose === true };
  const out: Writable<C.Expose> = { enabled: expose.enabled ?? true };
  if (expose.hostname !== undefined) out.hostname = expose.hostname;
  // The edge fields as written, each only when set (unset changes no child).
  if (expose.className !== undefined) out.className = expose.className;
  if (expose.annotations !== undefined) out.annotations = expose.annotations;
  if (expose.tls !== undefined) out.tls = expose.tls;
  if (expose.parentRefs !== undefined) out.parentRefs = expose.parentRefs;
  if (expose.backendTLS !== undefined) out.backendTLS = expose.backendTLS;
  return out;
}

function tls(input: TlsInput | undefined): C.Tls {
  const out: Writable<C.Tls> = { enabled: input?.enabled === true };
  if (input?.secretName !== undefined) out.secretName = input.secretName;
  const caBundle = input?.caBundle;
  if (caBundle) out.caBundle = caBundles(caBundle);
  return out;
}

function networking(net: NetworkingInput): C.Networking {
  const out: Writable<C.Networking> = {
    port: net.port ?? DEFAULT_PORT,
    expose: normalizeExpose(net.expose),
    tls: tls(net.tls),
  };
  if (net.allowedFrom) out.allowedFrom = net.allowedFrom;
  if (net.policy) out.policy = net.policy;
  return out;
}

function monitoring(m: MonitoringInput): Monitoring {
  const out: Writable<Monitoring> = { enabled: m.enabled ?? true, port: m.port ?? DEFAULT_METRICS_PORT };
  if (m.allowedFrom?.namespaces) out.allowedFrom = m.allowedFrom.namespaces;
  return out;
}

function distribution(spec: LlsdSpecV1alpha2): C.Distribution {
  const { name, image } = spec.distribution ?? {};
  if (name !== undefined && image === undefined) return { kind: "name", name };
  if (image !== undefined && name === undefined) return { kind: "image", image };
  return { kind: "invalid" };
}

function disabled(spec: LlsdSpecV1alpha2): C.DisabledApi[] {
  const out: C.DisabledApi[] = [];
  let i = 0;
  for (const written of spec.disabled ?? [])
    out.push({ api: serverApiName(written), written, path: child("spec.disabled", i++) });
  return out;
}

function replaced(spec: LlsdSpecV1alpha2): C.Replaced[] {
  return (spec.replace ?? []).map((written, i) => ({
    kind: isResourceKind(written) ? "resources" : "api",
    name: serverApiName(written),
    written,
    path: child("spec.replace", i),
  }));
}

/** Sections in the schema's order (not the map's, which the apiserver does not keep), then list order. */
function externalProviders(spec: LlsdSpecV1alpha2): C.ExternalProvider[] {
  const sections = spec.externalProviders ?? {};
  const out: C.ExternalProvider[] = [];
  for (const api of EXTERNAL_PROVIDER_APIS) {
    let i = 0;
    for (const p of sections[api] ?? [])
      out.push({ ...p, api: serverApiName(api), path: child(child("spec.externalProviders", api), i++) });
  }
  return out;
}

function present(spec: LlsdSpecV1alpha2): C.CanonicalSpec["present"] {
  return {
    providers: spec.providers !== undefined && Object.keys(spec.providers).length > 0,
    resources: spec.resources !== undefined,
    storage: spec.storage !== undefined,
    disabled: (spec.disabled ?? []).length > 0,
    replace: (spec.replace ?? []).length > 0,
  };
}

export function normalize(spec: LlsdSpecV1alpha2): C.CanonicalSpec {
  // Required keys in the literal, optional ones assigned (the canonical spec is never serialized: key order is free).
  const out: Writable<C.CanonicalSpec> = {
    distribution: distribution(spec),
    providers: providersOf(spec.providers),
    resources: resources(spec),
    disabled: disabled(spec),
    replace: replaced(spec),
    networking: networking(spec.networking ?? {}),
    workload: spec.workload ?? {},
    externalProviders: externalProviders(spec),
    present: present(spec),
  };
  if (spec.storage !== undefined) out.storage = storage(spec);
  if (spec.overrideConfig) out.overrideConfig = configMapKey(spec.overrideConfig);
  if (spec.baseConfig) out.baseConfig = configMapKey(spec.baseConfig);
  if (spec.monitoring) out.monitoring = monitoring(spec.monitoring);
  if (spec.registryRefreshIntervalSeconds !== undefined)
    out.registryRefreshIntervalSeconds = spec.registryRefreshIntervalSeconds;
  if (spec.auth) out.auth = normalizeAuth(spec.auth);
  return out;
}

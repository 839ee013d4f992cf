/**
 * An OGXServer `spec` → our v1alpha2 `spec` (docs/migrating-from-ogxserver.md has the table).
 * Pure. Where a default differs the value is written out, so the server behaves the same; what
 * we cannot hold is left out with a warning, and the conversion keeps it in its annotation.
 */
import { DISABLE_NAMES, type DisableName } from "../api/apis";
import { distributionNames } from "../distributions/table";
import { asList, compact, Notes } from "./json";
import { isPlainObject, type JsonMap, own } from "../json";
import { monitoringFromOgx, networkFromOgx } from "./network-from";
import { providersFromOgx } from "./providers-from";
import { workloadFromOgx } from "./workload";

const MODEL_TYPES = ["llm", "embedding", "rerank"];
const DEFAULT_CONFIG_KEY = "config.yaml";

function distributionFromOgx(distribution: unknown, notes: Notes): JsonMap {
  const name = own(distribution, "name");
  if (typeof name === "string" && !distributionNames().includes(name))
    notes.warn(
      "spec.distribution.name",
      `llsd-hooks has no distribution named ${JSON.stringify(name)} (it has ${distributionNames().join(", ")}); set distribution.image`,
    );
  return compact([
    ["name", name],
    ["image", own(distribution, "image")],
  ]);
}

/** The peer's default model provider: the alphabetically first inference provider id (pkg/config/resource.go). */
function peerDefaultProvider(providers: JsonMap | undefined): string | undefined {
  const ids = asList(own(providers, "inference"))
    .map((p) => own(p, "id"))
    .filter((id): id is string => typeof id === "string");
  return ids.sort()[0];
}

function modelFromOgx(model: unknown, i: number, fallback: string | undefined, notes: Notes): JsonMap {
  const path = `spec.resources.models[${i}]`;
  const modelType = own(model, "modelType");
  const known = modelType === undefined || MODEL_TYPES.some((t) => t === modelType);
  if (!known)
    notes.warn(
      `${path}.modelType`,
      `not converted (kept in the annotation): llsd-hooks takes ${MODEL_TYPES.join(", ")}`,
    );
  const provider = own(model, "provider");
  if (provider === undefined && fallback !== undefined)
    notes.warn(
      `${path}.provider`,
      `written as ${fallback}: the peer defaults to the alphabetically first inference provider, llsd-hooks to the first one listed`,
    );
  return compact([
    ["name", own(model, "name")],
    ["provider", provider ?? fallback],
    ["contextLength", own(model, "contextLength")],
    ["modelType", known ? modelType : undefined],
    ["quantization", own(model, "quantization")],
  ]);
}

function resourcesFromOgx(resources: unknown, providers: JsonMap | undefined, notes: Notes): JsonMap | undefined {
  const models = asList(own(resources, "models"));
  if (models.length === 0) return undefined;
  const fallback = peerDefaultProvider(providers);
  return { models: models.map((m, i) => modelFromOgx(m, i, fallback, notes)) };
}

/**
 * The peer's Redis password reaches a server with no such field, which never used it: left out
 * of the LLSD (a new LLSD with one is refused), kept in the annotation for the way back.
 */
function withoutRedisPassword(storage: unknown, notes: Notes): unknown {
  const kv = own(storage, "kv");
  if (!isPlainObject(storage) || !isPlainObject(kv) || kv.password === undefined) return storage;
  notes.warn(
    "spec.storage.kv.password",
    "left out: the peer passes the Redis password to the server, which has no such field and never used it (the LLSD keeps it in its annotation for the way back); for a key-value store behind a password set storage.kv type postgres with a connectionString",
  );
  const { password: _unused, ...rest } = kv;
  return { ...storage, kv: rest };
}

function storageFromOgx(storage: unknown, notes: Notes): unknown {
  if (own(own(storage, "sql"), "type") === "postgres")
    notes.warn(
      "spec.storage.sql.connectionString",
      "llsd-hooks splits the DSN into host, port, db, user and password; the peer passes it whole as connection_string",
    );
  return withoutRedisPassword(storage, notes);
}

/**
 * What the peer replaces in the base config (pkg/config/merge.go, generator.go): the whole
 * provider block of each API it is given providers for, and the models when it lists some.
 */
export function replaceFromOgx(providers: JsonMap | undefined, resources: JsonMap | undefined): string[] | undefined {
  const out = [...Object.keys(providers ?? {}), ...(resources?.models !== undefined ? ["models"] : [])];
  return out.length > 0 ? out : undefined;
}

const isDisableName = (name: unknown): name is DisableName => DISABLE_NAMES.some((n) => n === name);

const configRef = (ref: unknown): JsonMap | undefined => {
  if (!isPlainObject(ref)) return undefined;
  return ref.key === DEFAULT_CONFIG_KEY ? { configMapName: ref.name } : { configMapName: ref.name, key: ref.key };
};

export function specFromOgx(spec: JsonMap): { spec: JsonMap; warnings: Notes["warnings"] } {
  const notes = new Notes();
  const providers = providersFromOgx(spec.providers, notes);
  const disabled = asList(spec.disabledAPIs).filter(isDisableName);
  const resources = resourcesFromOgx(spec.resources, providers, notes);
  const out = compact([
    ["distribution", distributionFromOgx(spec.distribution, notes)],
    ["providers", providers],
    ["resources", resources],
    ["storage", storageFromOgx(spec.storage, notes)],
    ["disabled", disabled.length > 0 ? disabled : undefined],
    ["replace", replaceFromOgx(providers, resources)],
    ["registryRefreshIntervalSeconds", spec.registryRefreshIntervalSeconds],
    ["networking", networkFromOgx(spec, notes)],
    ["workload", workloadFromOgx(spec.workload, notes)],
    ["monitoring", monitoringFromOgx(spec.monitoring, notes)],
    ["baseConfig", configRef(spec.baseConfig)],
    ["overrideConfig", configRef(spec.overrideConfig)],
  ]);
  return { spec: out, warnings: notes.warnings };
}

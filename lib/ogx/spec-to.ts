/**
 * Our v1alpha2 `spec` → an OGXServer `spec` (research: the field table of
 * docs/migrating-from-ogxserver.md). Pure: the same spec gives the same object and warnings.
 * What the peer cannot hold is left out, with a warning naming the field; the conversion keeps
 * it in its annotation (convert.ts), so coming back gives the same spec.
 */
import { serverApiName } from "../api/apis";
import { asList, compact, compactOrNone, flatSecretRef, objectOr, Notes } from "./json";
import { isPlainObject, type JsonMap, own } from "../json";
import { monitoringToOgx, networkToOgx } from "./network-to";
import { providersToOgx } from "./providers-to";
import { replaceFromOgx } from "./spec-from";
import { OGX_DISABLED_APIS, OGX_PROVIDER_SECTIONS } from "./schema";
import { workloadToOgx } from "./workload";

/** The peer operator's distribution names (its distributions.json at commit 1784464). */
export const OGX_DISTRIBUTION_NAMES = ["starter", "remote-vllm", "meta-reference-gpu", "postgres-demo"];
const DEFAULT_CONFIG_KEY = "config.yaml";

function distributionToOgx(distribution: unknown, notes: Notes): JsonMap {
  const name = own(distribution, "name");
  if (typeof name === "string")
    notes.warn(
      "spec.distribution.name",
      OGX_DISTRIBUTION_NAMES.includes(name)
        ? "the peer runs the image its operator release maps this name to, not the one llsd-hooks pins; set distribution.image to keep the same server"
        : `the peer's operator has no distribution named ${JSON.stringify(name)} (it has ${OGX_DISTRIBUTION_NAMES.join(", ")}); set distribution.image`,
    );
  return compact([
    ["name", name],
    ["image", own(distribution, "image")],
  ]);
}

/** The provider our generator gives a model without one: the first inference provider of the spec. */
function defaultModelProvider(spec: JsonMap): string | undefined {
  const first = asList(own(own(spec, "providers"), "inference"))[0];
  const id = own(first, "id") ?? own(first, "provider");
  return typeof id === "string" ? id : undefined;
}

function modelToOgx(model: unknown, i: number, fallback: string | undefined, notes: Notes): JsonMap {
  const m = typeof model === "string" ? { name: model } : isPlainObject(model) ? model : {};
  const path = `spec.resources.models[${i}]`;
  for (const field of ["providerModelId", "embeddingDimension", "metadata"])
    if (m[field] !== undefined)
      notes.warn(`${path}.${field}`, "not converted (kept in the annotation): OGXServer models have no such field");
  if (m.provider === undefined && fallback !== undefined)
    notes.warn(
      `${path}.provider`,
      `written as ${fallback}: llsd-hooks defaults to the first inference provider, the peer to the alphabetically first provider id`,
    );
  return compact([
    ["name", m.name],
    ["provider", m.provider ?? fallback],
    ["contextLength", m.contextLength],
    ["modelType", m.modelType],
    ["quantization", m.quantization],
  ]);
}

/** The server names `spec.replace` lists (`vectorIo` → `vector_io`). */
const replacedNames = (spec: JsonMap): string[] =>
  asList(spec.replace).flatMap((name) => (typeof name === "string" ? [serverApiName(name)] : []));

/** A `replace` entry the peer's own replace would not give back: it replaces only the blocks it is given and the models it lists. */
function replaceToOgx(spec: JsonMap, out: JsonMap, notes: Notes): void {
  const back = (replaceFromOgx(objectOr(out.providers), objectOr(out.resources)) ?? []).map(serverApiName);
  asList(spec.replace).forEach((name, i) => {
    if (typeof name === "string" && !back.includes(serverApiName(name)))
      notes.warn(
        `spec.replace[${i}]`,
        `not converted (kept in the annotation): the peer replaces only the provider blocks it is given and the base's models when it lists some, not ${name}`,
      );
  });
}

function resourcesToOgx(spec: JsonMap, notes: Notes): JsonMap | undefined {
  const resources = own(spec, "resources");
  if (own(resources, "shields") !== undefined)
    notes.warn(
      "spec.resources.shields",
      "not converted (kept in the annotation): the peer has no shields (the Safety API is gone on OGX 1.x)",
    );
  if (own(resources, "tools") !== undefined)
    notes.warn("spec.resources.tools", "not converted (kept in the annotation): OGXServer has no tools list");
  const models = asList(own(resources, "models"));
  if (models.length === 0) return undefined;
  if (!replacedNames(spec).includes("models"))
    notes.warn(
      "spec.resources.models",
      "llsd-hooks adds these models to the base config's (by model id); the peer replaces the base's models with them; list models in spec.replace to mean the same",
    );
  const fallback = defaultModelProvider(spec);
  return { models: models.map((m, i) => modelToOgx(m, i, fallback, notes)) };
}

function storageToOgx(storage: unknown, notes: Notes): JsonMap | undefined {
  const kv = own(storage, "kv");
  const sql = own(storage, "sql");
  if (own(kv, "password") !== undefined)
    notes.warn(
      "spec.storage.kv.password",
      "the peer passes the Redis password to the server, which has no such field; llsd-hooks never passes it (refused on new CRs, kept with a warning on running ones)",
    );
  if (own(sql, "type") === "postgres")
    notes.warn(
      "spec.storage.sql.connectionString",
      "the peer passes the DSN as connection_string; llsd-hooks splits it into host, port, db, user and password",
    );
  // The peer's kv store is sqlite or redis only: a Postgres one rides the annotation.
  const kvOnPostgres = own(kv, "type") === "postgres";
  if (kvOnPostgres)
    notes.warn(
      "spec.storage.kv",
      "not converted (kept in the annotation): the peer has no Postgres key-value store (its storage.kv type is sqlite or redis), so the peer's server would keep kv state in sqlite",
    );
  return compactOrNone([
    [
      "kv",
      isPlainObject(kv) && !kvOnPostgres
        ? compact([
            ["type", kv.type],
            ["endpoint", kv.endpoint],
            ["password", flatSecretRef(kv.password)],
          ])
        : undefined,
    ],
    [
      "sql",
      isPlainObject(sql)
        ? compact([
            ["type", sql.type],
            ["connectionString", flatSecretRef(sql.connectionString)],
          ])
        : undefined,
    ],
  ]);
}

/** The peer's name of a disabled API (`vectorIo` → `vector_io`), when the peer can disable it. */
function normalizeDisabledName(name: unknown): string | undefined {
  const api = typeof name === "string" ? serverApiName(name) : undefined;
  return OGX_DISABLED_APIS.find((a) => a === api);
}

function disabledToOgx(disabled: unknown, providers: JsonMap | undefined, notes: Notes): string[] | undefined {
  const out: string[] = [];
  asList(disabled).forEach((name, i) => {
    const api = normalizeDisabledName(name);
    const section = Object.entries(OGX_PROVIDER_SECTIONS).find(([, a]) => a === api)?.[0];
    const path = `spec.disabled[${i}]`;
    if (api === undefined)
      notes.warn(path, "not converted (kept in the annotation): OGXServer cannot disable this API");
    else if (section !== undefined && own(providers, section) !== undefined)
      notes.warn(
        path,
        "not converted (kept in the annotation): the peer refuses an API both disabled and given providers",
      );
    else if (!out.includes(api)) out.push(api);
  });
  return out.length > 0 ? out : undefined;
}

const configRef = (ref: unknown): JsonMap | undefined =>
  isPlainObject(ref) ? { name: ref.configMapName, key: ref.key ?? DEFAULT_CONFIG_KEY } : undefined;

function unsupported(spec: JsonMap, notes: Notes): void {
  if (spec.auth !== undefined)
    notes.warn("spec.auth", "not converted (kept in the annotation): the peer's server has no authentication settings");
  if (spec.externalProviders !== undefined)
    notes.warn(
      "spec.externalProviders",
      "not converted (kept in the annotation): the peer does not support external providers",
    );
}

export function specToOgx(spec: JsonMap): { spec: JsonMap; warnings: Notes["warnings"] } {
  const notes = new Notes();
  const providers = providersToOgx(spec.providers, notes, replacedNames(spec));
  unsupported(spec, notes);
  const out = compact([
    ["distribution", distributionToOgx(spec.distribution, notes)],
    ["providers", providers],
    ["resources", resourcesToOgx(spec, notes)],
    ["storage", storageToOgx(spec.storage, notes)],
    ["disabledAPIs", disabledToOgx(spec.disabled, providers, notes)],
    ["registryRefreshIntervalSeconds", spec.registryRefreshIntervalSeconds],
    ...Object.entries(networkToOgx(spec.networking, notes)),
    ["workload", workloadToOgx(spec.workload, notes)],
    ["monitoring", monitoringToOgx(spec.monitoring, notes)],
    ["baseConfig", configRef(spec.baseConfig)],
    ["overrideConfig", configRef(spec.overrideConfig)],
  ]);
  replaceToOgx(spec, out, notes);
  return { spec: out, warnings: notes.warnings };
}

/**
 * Checks a generated config.yaml as the real server of one line would read it (the "Usage" of
 * tests/fixtures/server-schemas/README.md): PyYAML `safe_load`, the tag's env substitution with
 * the container's environment, the tag's `stack-config.schema.json` (unknown keys are errors),
 * then every enabled provider's config against its own schema from `providers/index.json`
 * (a type missing there, or with `deprecation_error`, is refused). A few startup checks the
 * schemas cannot express follow: registered resources on an enabled provider, storage
 * references to declared backends, and provider API dependencies.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type Ajv2020 from "ajv/dist/2020";
import type { ErrorObject, ValidateFunction } from "ajv/dist/2020";
import type { SchemaTag } from "../../lib/distributions/releases";
import { pyyamlLoadAll } from "../pyyaml";
import { shown } from "../shown";
import { EnvVarError, isDict, replaceEnvVars, resourceIdFields, SCHEMAS_DIR, type Env } from "./substitution";
import { startupProblems } from "./startup";
import { pydanticAjv } from "./ajv";
import { vectorMetadataProblems } from "./vector-metadata";

interface IndexEntry {
  readonly api: string;
  readonly provider_type: string;
  readonly deprecation_error: string | null;
  readonly schema: string;
}

interface TagModels {
  readonly stack: ValidateFunction;
  readonly index: readonly IndexEntry[];
  readonly providers: Map<string, ValidateFunction>;
  readonly ajv: Ajv2020;
}

const modelsByTag = new Map<SchemaTag, TagModels>();

function readJson(...parts: string[]): unknown {
  return JSON.parse(readFileSync(join(SCHEMAS_DIR, ...parts), "utf8")) as unknown;
}

function modelsOf(tag: SchemaTag): TagModels {
  const known = modelsByTag.get(tag);
  if (known) return known;
  const ajv = pydanticAjv();
  const models: TagModels = {
    stack: ajv.compile(readJson(tag, "stack-config.schema.json") as object),
    index: readJson(tag, "providers", "index.json") as IndexEntry[],
    providers: new Map(),
    ajv,
  };
  modelsByTag.set(tag, models);
  return models;
}

export function providerIndex(tag: SchemaTag): readonly IndexEntry[] {
  return modelsOf(tag).index;
}

function describe(prefix: string, errors: readonly ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => {
    const extra =
      e.keyword === "additionalProperties"
        ? ` (unknown key "${String((e.params as { additionalProperty: string }).additionalProperty)}")`
        : "";
    return `${prefix}${e.instancePath || "/"}: ${e.message ?? e.keyword}${extra}`;
  });
}

function providerProblems(config: Record<string, unknown>, tag: SchemaTag): string[] {
  const models = modelsOf(tag);
  const problems: string[] = [];
  const providers = isDict(config.providers) ? config.providers : {};
  for (const [api, list] of Object.entries(providers)) {
    if (!Array.isArray(list)) continue;
    list.forEach((entry: unknown, i) => {
      if (!isDict(entry) || !entry.provider_id || entry.provider_id === "__disabled__") return;
      const where = `providers.${api}[${i}] (${shown(entry.provider_id)})`;
      // An external provider (`module:`) brings its own registry entry and config class.
      if (typeof entry.module === "string" && entry.module !== "") return;
      const found = models.index.find((e) => e.api === api && e.provider_type === entry.provider_type);
      if (!found)
        return problems.push(
          `${where}: provider_type ${String(entry.provider_type)} does not exist for ${api} at ${tag}`,
        );
      if (found.deprecation_error)
        problems.push(`${where}: ${found.provider_type} is refused at ${tag}: ${found.deprecation_error}`);
      let validate = models.providers.get(found.schema);
      if (!validate) {
        validate = models.ajv.compile(readJson(tag, "providers", found.schema) as object);
        models.providers.set(found.schema, validate);
      }
      if (!validate(entry.config ?? {})) problems.push(...describe(`${where}.config`, validate.errors));
    });
  }
  return problems;
}

/** The vector_io type's config class declares `metadata_store` (its JSON Schema has the property). */
function declaresMetadataStore(tag: SchemaTag, providerType: string): boolean {
  const found = modelsOf(tag).index.find((e) => e.api === "vector_io" && e.provider_type === providerType);
  if (!found) return false;
  const schema = readJson(tag, "providers", found.schema) as { properties?: object };
  return Object.hasOwn(schema.properties ?? {}, "metadata_store");
}

/** Problems of one already-parsed config (the YAML as PyYAML read it); empty when the server would accept it. */
export function checkParsed(parsed: unknown, env: Env, tag: SchemaTag): string[] {
  let config: unknown;
  try {
    config = replaceEnvVars(parsed, env, resourceIdFields(tag));
  } catch (error) {
    if (error instanceof EnvVarError) return [error.message];
    throw error;
  }
  if (!isDict(config)) return ["config.yaml is not a mapping"];
  if (config.distro_name !== undefined && config.distro_name !== null) config.distro_name = shown(config.distro_name);
  if (tag === "v1.2.2" || tag === "v1.3.0") migrateKvStores(config);
  const models = modelsOf(tag);
  if (!models.stack(config)) return describe("", models.stack.errors);
  return [
    ...providerProblems(config, tag),
    ...startupProblems(config, models.index),
    ...vectorMetadataProblems(config, tag, (type) => declaresMetadataStore(tag, type)),
  ];
}

/**
 * The one `mode="before"` migration of the 1.x StackConfig (the same class at 1.2.2 and 1.3.0) that a schema cannot show
 * (`StorageConfig._migrate_kv_to_sql`, src/ogx/core/storage/datatypes.py): prompts and
 * connectors written as `{namespace, backend: kv_*}` become `{table_name: namespace,
 * backend: sql_*}` before validation, so the server accepts the older form.
 */
function migrateKvStores(config: { [k: string]: unknown }): void {
  const storage = config.storage;
  if (!isDict(storage) || !isDict(storage.stores)) return;
  const stores = storage.stores;
  for (const name of ["prompts", "connectors"]) {
    const ref = stores[name];
    if (!isDict(ref) || !("namespace" in ref) || "table_name" in ref) continue;
    const backend = typeof ref.backend === "string" ? ref.backend : "sql_default";
    stores[name] = { backend: backend.replace("kv_", "sql_"), table_name: ref.namespace };
  }
}

export interface ServerCheck {
  readonly configYaml: string;
  readonly env: Env;
  readonly tag: SchemaTag;
}

/** Problems per config, in order; one PyYAML process per 40 configs. */
export function checkServerConfigs(checks: readonly ServerCheck[]): string[][] {
  if (checks.length === 0) return [];
  // In batches: the answer of one python process is read into a bounded buffer.
  const parsed: unknown[] = [];
  for (let i = 0; i < checks.length; i += 40)
    parsed.push(...pyyamlLoadAll(checks.slice(i, i + 40).map((c) => c.configYaml)));
  return checks.map((c, i) => checkParsed(parsed[i], c.env, c.tag));
}

export function checkServerConfig(configYaml: string, env: Env, tag: SchemaTag): string[] {
  return checkServerConfigs([{ configYaml, env, tag }])[0]!;
}

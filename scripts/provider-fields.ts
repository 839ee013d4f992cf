/**
 * Derives, from each release's own configuration models (tests/fixtures/server-schemas/<tag>),
 * what the generator needs to know about every provider type: the key that takes an endpoint
 * URL, the key that takes a credential, the APIs the type requires, the scalar kinds each
 * config key accepts, and the same kinds for each storage backend type. The result is the
 * committed module lib/config/provider-fields.generated.ts (`npm run gen:provider-fields`).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isPlainObject, type JsonMap as Schema } from "../lib/json";
import { SCHEMA_TAGS } from "../lib/distributions/releases";
import type { TypeFields } from "../lib/config/provider-fields-types";
import { isStringList } from "../lib/lists";

export const SCHEMAS_DIR = join(__dirname, "..", "tests", "fixtures", "server-schemas");
export const TARGET = join("lib", "config", "provider-fields.generated.ts");

/** Where `endpoint` goes, in order of preference: the plain URL keys, then any `*_url`. */
const URL_KEYS = ["base_url", "url", "uri"];
/** Where an API key goes, in order of preference (`weaviate_api_key`, `elasticsearch_api_key` match the pattern). */
const KEY_RULES: readonly (string | RegExp)[] = [
  "api_key",
  "api_token",
  /^[a-z]+_api_key$/,
  "token",
  "access_token",
  "auth_credential",
  "password",
];

/** The JSON Schema type names, as kind letters. */
const LETTER: { readonly [t: string]: string } = {
  string: "s",
  integer: "i",
  number: "n",
  boolean: "b",
  null: "z",
  object: "o",
  array: "a",
};

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, "utf8"));
}

export function schemaFile(path: string): Schema {
  const schema = readJson(path);
  if (!isPlainObject(schema)) throw new Error(`${path}: expected a JSON Schema object`);
  return schema;
}

/** `parent[key]` when it is a schema (an object); the files are pydantic's output, read here as any JSON. */
function member(parent: unknown, key: string): Schema | undefined {
  const value = isPlainObject(parent) ? parent[key] : undefined;
  return isPlainObject(value) ? value : undefined;
}

function schemasIn(value: unknown): Schema[] {
  return Array.isArray(value) ? value.filter(isPlainObject) : [];
}

function resolve(schema: Schema, root: Schema): Schema {
  const ref = schema.$ref;
  if (typeof ref !== "string") return schema;
  const target = member(root.$defs, ref.split("/").pop() ?? "");
  if (target === undefined) throw new Error(`unresolved $ref ${ref}`);
  return resolve(target, root);
}

const constKind = (value: unknown): string => (typeof value === "string" ? "s" : typeof value === "number" ? "n" : "*");

function typeKinds(s: Schema): string {
  const types: unknown[] = Array.isArray(s.type) ? s.type : typeof s.type === "string" ? [s.type] : [];
  if (types.length === 0) return s.properties || s.additionalProperties ? "o" : "*";
  return types
    .map((t) => (typeof t === "string" ? LETTER[t] : undefined) ?? "*")
    .sort()
    .join("");
}

/** Scalar kinds a property accepts: s string, i integer, n number, b boolean, z null, o object, a array, * anything. */
export function kindsOf(schema: Schema, root: Schema): string {
  const s = resolve(schema, root);
  const branches = [...schemasIn(s.anyOf), ...schemasIn(s.oneOf)];
  if (branches.length > 0) return [...new Set(branches.map((b) => kindsOf(b, root)).join(""))].sort().join("");
  if ("const" in s) return constKind(s.const);
  return typeKinds(s);
}

const textual = (kinds: string): boolean => kinds.includes("s") || kinds === "*";

function urlKey(fields: { [k: string]: string }): string | undefined {
  const names = Object.keys(fields).filter((k) => textual(fields[k]!));
  const plain = URL_KEYS.find((k) => names.includes(k));
  if (plain) return plain;
  if (["host", "port", "db"].every((k) => k in fields)) return "split-postgres";
  return names.find((k) => k.endsWith("_url"));
}

function keyField(fields: { [k: string]: string }): string | undefined {
  const names = Object.keys(fields).filter((k) => textual(fields[k]!));
  for (const rule of KEY_RULES) {
    const hit = typeof rule === "string" ? names.find((k) => k === rule) : names.find((k) => rule.test(k));
    if (hit) return hit;
  }
  return undefined;
}

export type { TypeFields };

export interface IndexEntry {
  readonly api: string;
  readonly provider_type: string;
  readonly api_dependencies: readonly string[];
  readonly deprecation_error: string | null;
  readonly schema: string;
}

function isIndexEntry(value: unknown): value is IndexEntry {
  return (
    isPlainObject(value) &&
    typeof value.api === "string" &&
    typeof value.provider_type === "string" &&
    isStringList(value.api_dependencies) &&
    (value.deprecation_error === null || typeof value.deprecation_error === "string") &&
    typeof value.schema === "string"
  );
}

export function readIndex(path: string): IndexEntry[] {
  const index = readJson(path);
  if (!Array.isArray(index) || !index.every(isIndexEntry)) throw new Error(`${path}: expected a list of providers`);
  return index;
}

function fieldsOf(schema: Schema): { [k: string]: string } {
  const props = member(schema, "properties") ?? {};
  return Object.fromEntries(
    Object.keys(props)
      .sort()
      .map((k) => [k, kindsOf(member(props, k) ?? {}, schema)]),
  );
}

/** What the generator needs to know about one provider type, from its config class's schema. */
function typeFieldsOf(e: IndexEntry, schema: Schema, providerApis: ReadonlySet<string>): TypeFields {
  const fields = fieldsOf(schema);
  const required = [...(isStringList(schema.required) ? schema.required : [])].sort();
  const needs = e.api_dependencies.filter((d) => providerApis.has(d));
  const url = urlKey(fields);
  const key = keyField(fields);
  return {
    ...(url ? { url } : {}),
    ...(key ? { key } : {}),
    ...(needs.length > 0 ? { needs } : {}),
    ...(e.deprecation_error ? { refused: true as const } : {}),
    ...(required.length > 0 ? { required } : {}),
    fields,
  };
}

function providersOf(dir: string, tag: string): { [api: string]: { [type: string]: TypeFields } } {
  const index = readIndex(join(dir, tag, "providers", "index.json"));
  const providerApis = new Set(index.map((e) => e.api));
  const providers: { [api: string]: { [type: string]: TypeFields } } = {};
  const sorted = [...index].sort((a, b) => `${a.api} ${a.provider_type}`.localeCompare(`${b.api} ${b.provider_type}`));
  for (const e of sorted) {
    const schema = schemaFile(join(dir, tag, "providers", e.schema));
    providers[e.api] ??= {};
    providers[e.api]![e.provider_type] = typeFieldsOf(e, schema, providerApis);
  }
  return providers;
}

/** The `kv_*` and `sql_*` storage backend types of StackConfig, with the kinds of their keys, sorted by type. */
function backendsOf(dir: string, tag: string): { [type: string]: { [k: string]: string } } {
  const stack = schemaFile(join(dir, tag, "stack-config.schema.json"));
  const backends: { [type: string]: { [k: string]: string } } = {};
  for (const def of Object.values(member(stack, "$defs") ?? {})) {
    const type = member(member(def, "properties"), "type")?.const;
    if (isPlainObject(def) && typeof type === "string" && /^(kv|sql)_/.test(type))
      backends[type] = fieldsOf({ ...def, $defs: stack.$defs });
  }
  return Object.fromEntries(Object.entries(backends).sort(([a], [b]) => a.localeCompare(b)));
}

function tagData(
  dir: string,
  tag: string,
): {
  providers: { [api: string]: { [type: string]: TypeFields } };
  backends: { [type: string]: { [k: string]: string } };
} {
  return { providers: providersOf(dir, tag), backends: backendsOf(dir, tag) };
}

/** The module text: one line per provider type, so a regenerated file diffs by type. */
export function providerFieldsModule(dir: string = SCHEMAS_DIR): string {
  const lines = [
    "// Generated by `npm run gen:provider-fields` from tests/fixtures/server-schemas/<tag>/ (each",
    "// release's provider config classes and StackConfig as JSON Schema). Do not edit: a test fails",
    "// when this file differs from what the script writes.",
    'import type { ProviderFieldsData } from "./provider-fields-types";',
    "",
    "export const PROVIDER_FIELDS: ProviderFieldsData = {",
  ];
  for (const tag of SCHEMA_TAGS) {
    const data = tagData(dir, tag);
    lines.push(`  ${JSON.stringify(tag)}: {`, "    providers: {");
    for (const [api, types] of Object.entries(data.providers)) {
      lines.push(`      ${JSON.stringify(api)}: {`);
      for (const [type, info] of Object.entries(types))
        lines.push(`        ${JSON.stringify(type)}: ${JSON.stringify(info)},`);
      lines.push("      },");
    }
    lines.push("    },", "    backends: {");
    for (const [type, fields] of Object.entries(data.backends))
      lines.push(`      ${JSON.stringify(type)}: ${JSON.stringify(fields)},`);
    lines.push("    },", "  },");
  }
  lines.push("};", "");
  return lines.join("\n");
}

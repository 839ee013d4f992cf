/**
 * Derives, from each release's own configuration models (tests/fixtures/server-schemas/<tag>),
 * what the generator needs to know about every provider type: the key that takes an endpoint
 * URL, the key that takes a credential, the APIs the type requires, the scalar kinds each
 * config key accepts, and the same kinds for each storage backend type. The result is the
 * committed module lib/config/provider-fields.generated.ts (`npm run gen:provider-fields`).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SCHEMA_TAGS } from "../lib/config/releases";
import type { TypeFields } from "../lib/config/provider-fields-types";

type Schema = { [k: string]: unknown };

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

function resolve(schema: Schema, root: Schema): Schema {
  const ref = schema.$ref;
  if (typeof ref !== "string") return schema;
  const defs = root.$defs as { [k: string]: Schema };
  return resolve(defs[ref.split("/").pop()!]!, root);
}

/** Scalar kinds a property accepts: s string, i integer, n number, b boolean, z null, o object, a array, * anything. */
export function kindsOf(schema: Schema, root: Schema): string {
  const s = resolve(schema, root);
  const branches = [...((s.anyOf as Schema[] | undefined) ?? []), ...((s.oneOf as Schema[] | undefined) ?? [])];
  if (branches.length > 0) return [...new Set(branches.map((b) => kindsOf(b, root)).join(""))].sort().join("");
  if ("const" in s) return typeof s.const === "string" ? "s" : typeof s.const === "number" ? "n" : "*";
  const letter: { [t: string]: string } = {
    string: "s",
    integer: "i",
    number: "n",
    boolean: "b",
    null: "z",
    object: "o",
    array: "a",
  };
  const types = Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === "string" ? [s.type] : [];
  if (types.length === 0) return s.properties || s.additionalProperties ? "o" : "*";
  return types
    .map((t) => letter[t] ?? "*")
    .sort()
    .join("");
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

interface IndexEntry {
  readonly api: string;
  readonly provider_type: string;
  readonly api_dependencies: readonly string[];
  readonly deprecation_error: string | null;
  readonly schema: string;
}

function fieldsOf(schema: Schema): { [k: string]: string } {
  const props = (schema.properties ?? {}) as { [k: string]: Schema };
  return Object.fromEntries(
    Object.keys(props)
      .sort()
      .map((k) => [k, kindsOf(props[k]!, schema)]),
  );
}

function tagData(
  dir: string,
  tag: string,
): {
  providers: { [api: string]: { [type: string]: TypeFields } };
  backends: { [type: string]: { [k: string]: string } };
} {
  const index = JSON.parse(readFileSync(join(dir, tag, "providers", "index.json"), "utf8")) as IndexEntry[];
  const providerApis = new Set(index.map((e) => e.api));
  const providers: { [api: string]: { [type: string]: TypeFields } } = {};
  for (const e of [...index].sort((a, b) =>
    `${a.api} ${a.provider_type}`.localeCompare(`${b.api} ${b.provider_type}`),
  )) {
    const schema = JSON.parse(readFileSync(join(dir, tag, "providers", e.schema), "utf8")) as Schema;
    const fields = fieldsOf(schema);
    const required = [...((schema.required as string[] | undefined) ?? [])].sort();
    const needs = e.api_dependencies.filter((d) => providerApis.has(d));
    const url = urlKey(fields);
    const key = keyField(fields);
    providers[e.api] ??= {};
    providers[e.api]![e.provider_type] = {
      ...(url ? { url } : {}),
      ...(key ? { key } : {}),
      ...(needs.length > 0 ? { needs } : {}),
      ...(e.deprecation_error ? { refused: true as const } : {}),
      ...(required.length > 0 ? { required } : {}),
      fields,
    };
  }
  const stack = JSON.parse(readFileSync(join(dir, tag, "stack-config.schema.json"), "utf8")) as Schema;
  const backends: { [type: string]: { [k: string]: string } } = {};
  for (const def of Object.values(stack.$defs as { [k: string]: Schema })) {
    const type = ((def.properties ?? {}) as { [k: string]: Schema }).type?.const;
    if (typeof type === "string" && /^(kv|sql)_/.test(type)) backends[type] = fieldsOf({ ...def, $defs: stack.$defs });
  }
  return { providers, backends: Object.fromEntries(Object.entries(backends).sort(([a], [b]) => a.localeCompare(b))) };
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

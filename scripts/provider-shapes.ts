/**
 * Derives, from each line's own configuration models (tests/fixtures/server-schemas/<tag>),
 * every provider type's config class at every depth: the part of its JSON Schema that says
 * which keys exist and what each accepts (types, unions, enums, bounds, nested classes), with
 * the classes several types share written once per tag. The result is the committed module
 * lib/config/provider-shapes.generated.ts (`npm run gen:provider-fields`).
 */
import { join } from "node:path";
import { isPlainObject, type JsonMap as Schema } from "../lib/json";
import { SCHEMA_TAGS } from "../lib/distributions/releases";
import type { Shape, TagShapes } from "../lib/config/provider-shapes-types";
import { readIndex, schemaFile, SCHEMAS_DIR } from "./provider-fields";

export const SHAPES_TARGET = join("lib", "config", "provider-shapes.generated.ts");

/** Keywords that decide what the server accepts; the rest (title, description, default…) only describe. */
const KEPT = ["type", "required", "enum", "const", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"];
const LENGTHS = ["minLength", "maxLength"];

/** A tag's shared classes: each `$defs` entry of each file, named once (the same class in several files is one). */
class Defs {
  readonly shapes: { [name: string]: Shape } = {};
  private readonly texts = new Map<string, string>();

  /** The pool name of `name` whose compact shape is `shape`: the same name for the same shape. */
  add(name: string, shape: Shape): string {
    const text = JSON.stringify(shape);
    for (let n = 1; ; n++) {
      const candidate = n === 1 ? name : `${name}~${n}`;
      const known = this.texts.get(candidate);
      if (known === undefined) {
        this.texts.set(candidate, text);
        this.shapes[candidate] = shape;
        return candidate;
      }
      if (known === text) return candidate;
    }
  }
}

type Refs = { readonly [ref: string]: string };

function branchesOf(s: Schema, file: string): Schema[] | undefined {
  const list = (value: unknown): Schema[] => (Array.isArray(value) ? value.filter(isPlainObject) : []);
  if (s.anyOf !== undefined) return list(s.anyOf);
  if (s.oneOf === undefined) return undefined;
  // Read as anyOf: exact only when no value can match two branches, as a discriminator ensures.
  if (!isPlainObject(s.discriminator)) throw new Error(`${file}: oneOf without a discriminator`);
  return list(s.oneOf);
}

/** The compact shape of `s`, its `$ref`s renamed to the pool's names. */
function compact(s: unknown, refs: Refs, file: string): Shape {
  if (!isPlainObject(s)) throw new Error(`${file}: expected a schema object`);
  if (typeof s.$ref === "string") {
    const name = refs[s.$ref];
    if (name === undefined) throw new Error(`${file}: unresolved $ref ${s.$ref}`);
    return { $ref: name };
  }
  const out: { [k: string]: unknown } = {};
  for (const k of KEPT) if (k in s) out[k] = s[k];
  // pydantic's URL types: a length bound and `format: uri`; a plain `str` field has neither.
  for (const k of LENGTHS) if (k in s) out[k] = s[k];
  if (s.format === "uri") out.format = "uri";
  return { ...out, ...nested(s, refs, file) };
}

/** The parts of a schema that hold schemas: properties, extra keys, items, union branches. */
function nested(s: Schema, refs: Refs, file: string): Partial<Shape> {
  const out: { -readonly [K in keyof Shape]: Shape[K] } = {};
  if (isPlainObject(s.properties)) {
    const props: { [k: string]: Shape } = {};
    for (const key of Object.keys(s.properties)) props[key] = compact(s.properties[key], refs, file);
    out.properties = props;
  }
  const extra = s.additionalProperties;
  if (typeof extra === "boolean") out.additionalProperties = extra;
  else if (isPlainObject(extra)) out.additionalProperties = compact(extra, refs, file);
  if (s.items !== undefined) out.items = compact(s.items, refs, file);
  const branches = branchesOf(s, file);
  if (branches) out.anyOf = branches.map((b) => compact(b, refs, file));
  const d = s.discriminator;
  if (isPlainObject(d) && typeof d.propertyName === "string") out.discriminator = d.propertyName;
  return out;
}

/** One file's root class, its nested classes added to the tag's pool. */
function shapeOfFile(path: string, defs: Defs): Shape {
  const schema = schemaFile(path);
  const local = isPlainObject(schema.$defs) ? schema.$defs : {};
  const refs: { [ref: string]: string } = {};
  // Classes refer to each other in any order: names first (each class's own name), then shapes.
  const names = Object.keys(local).sort();
  for (const name of names) refs[`#/$defs/${name}`] = name;
  // A name another file gave a different class is renamed; refs follow by re-reading until stable.
  for (let changed = true; changed;) {
    changed = false;
    for (const name of names) {
      const pooled = defs.add(name, compact(local[name], refs, path));
      if (refs[`#/$defs/${name}`] !== pooled) {
        refs[`#/$defs/${name}`] = pooled;
        changed = true;
      }
    }
  }
  const { $defs: _defs, ...root } = schema;
  return compact(root, refs, path);
}

function tagShapes(dir: string, tag: string): TagShapes {
  const index = readIndex(join(dir, tag, "providers", "index.json"));
  const defs = new Defs();
  const providers: { [api: string]: { [type: string]: Shape } } = {};
  const sorted = [...index].sort((a, b) => `${a.api} ${a.provider_type}`.localeCompare(`${b.api} ${b.provider_type}`));
  for (const e of sorted) {
    providers[e.api] ??= {};
    providers[e.api]![e.provider_type] = shapeOfFile(join(dir, tag, "providers", e.schema), defs);
  }
  return { defs: defs.shapes, providers };
}

/** The module text: one line per class and per provider type, so a regenerated file diffs by class. */
export function providerShapesModule(dir: string = SCHEMAS_DIR): string {
  const lines = [
    "// Generated by `npm run gen:provider-fields` from tests/fixtures/server-schemas/<tag>/providers/",
    "// (each line's provider config classes as JSON Schema). Do not edit: a test fails when this",
    "// file differs from what the script writes.",
    'import type { ProviderShapesData } from "./provider-shapes-types";',
    "",
    "export const PROVIDER_SHAPES: ProviderShapesData = {",
  ];
  for (const tag of SCHEMA_TAGS) {
    const data = tagShapes(dir, tag);
    lines.push(`  ${JSON.stringify(tag)}: {`, "    defs: {");
    for (const name of Object.keys(data.defs).sort())
      lines.push(`      ${JSON.stringify(name)}: ${JSON.stringify(data.defs[name])},`);
    lines.push("    },", "    providers: {");
    for (const [api, types] of Object.entries(data.providers)) {
      lines.push(`      ${JSON.stringify(api)}: {`);
      for (const [type, shape] of Object.entries(types))
        lines.push(`        ${JSON.stringify(type)}: ${JSON.stringify(shape)},`);
      lines.push("      },");
    }
    lines.push("    },", "  },");
  }
  lines.push("};", "");
  return lines.join("\n");
}

/**
 * What each version can hold, asked of its own JSON Schema. A value moves only where the target's
 * schema accepts it, except on the webhook path where the target's rules for a field accept all
 * the source's do (`acceptsAll`): the apiserver checked it in the version it came in. So a
 * converted object passes its version's schema whenever the source passed its own, and nothing
 * the other version cannot say is ever silently dropped: it rides in the annotation.
 */
import { V1ALPHA2_STATUS_SCHEMA } from "../api/schema-status-v1alpha2";
import { compile } from "../api/schema";
import type { Schema } from "../api/schema-parts";
import { mapSubschemas } from "../api/schema-defs";
import { VALUE_KEYWORDS } from "../crd/structural-check";
import { V1ALPHA1_SPEC_SCHEMA, V1ALPHA1_STATUS_SCHEMA } from "../api/schema-v1alpha1";
import { V1ALPHA2_SPEC_SCHEMA } from "../api/schema-v1alpha2";
import { formatPath, isPlainObject, own, stringList, type JsonMap, type Segments } from "./paths";

/** The converted part of an object, `spec` and `status` (metadata is never converted). */
function body(spec: Schema, status: Schema): Schema {
  return { type: "object", properties: { spec, status } };
}

export const V1ALPHA1_BODY = body(V1ALPHA1_SPEC_SCHEMA, V1ALPHA1_STATUS_SCHEMA);
export const V1ALPHA2_BODY = body(V1ALPHA2_SPEC_SCHEMA, V1ALPHA2_STATUS_SCHEMA);

/** The schema of the field at `segments`, when the version has that field. */
export function schemaAt(root: Schema, segments: Segments): Schema | undefined {
  let schema: unknown = root;
  for (const key of segments) schema = own(own(schema, "properties"), key);
  return isPlainObject(schema) ? schema : undefined;
}

/** A closed object schema: its fields can be moved one by one. */
export function hasFields(schema: Schema | undefined): boolean {
  return isPlainObject(own(schema, "properties"));
}

export function requiredOf(schema: Schema | undefined): readonly string[] {
  return stringList(own(schema, "required"));
}

export function fits(schema: Schema | undefined, value: unknown): boolean {
  return schema !== undefined && compile(schema).fast(value) === true;
}

/** A schema's rules: the schema without its prose (`description`), at every level. */
function rulesOf(schema: Schema): Schema {
  const { description: _prose, ...rules } = schema;
  return mapSubschemas(rules, rulesOf);
}

/**
 * Whether two schemas have the same rules (descriptions aside), so accept the same values.
 * Keywords written in another order read as different rules: such a row is checked anyway.
 */
export function sameRules(a: Schema | undefined, b: Schema | undefined): boolean {
  return a !== undefined && b !== undefined && JSON.stringify(rulesOf(a)) === JSON.stringify(rulesOf(b));
}

/** Prose and defaults: they change nothing a schema accepts (the apiserver applies defaults, not the conversion). */
const NOT_RULES = new Set(["description", "default"]);

/**
 * Keywords that only narrow what a schema accepts: a source schema may have them where the
 * target has not, and the target still accepts everything the source does. Any other keyword
 * the target lacks (one that could widen the source, such as a preserve-unknown-fields mark)
 * makes the answer no.
 */
const NARROWING = new Set<string>([
  ...VALUE_KEYWORDS,
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "const",
  "uniqueItems",
  "oneOf",
  "anyOf",
  "allOf",
  "not",
]);

/**
 * Whether `target` accepts every value `source` accepts, judged keyword by keyword and never
 * guessed: each rule of the target is one the source has too (or, for `properties`,
 * `required` and `items`, one the source's rules imply), and the source has no rule that
 * could widen it. No answers yes for any schema it cannot judge. v1alpha1, the Go operator's
 * API, is looser than v1alpha2 in most fields (no `minLength`, no `minimum`): a v1alpha2 value
 * always fits there.
 */
export function acceptsAll(target: Schema | undefined, source: Schema | undefined): boolean {
  if (target === undefined || source === undefined) return false;
  if (sameRules(target, source)) return true;
  const widening = Object.keys(source).some(
    (k) => own(target, k) === undefined && !NARROWING.has(k) && !NOT_RULES.has(k),
  );
  return !widening && Object.keys(target).every((keyword) => NOT_RULES.has(keyword) || keeps(keyword, target, source));
}

/** Whether the target's `keyword` accepts every value the source accepts. */
function keeps(keyword: string, target: Schema, source: Schema): boolean {
  const rule = own(target, keyword);
  switch (keyword) {
    case "properties":
      return isPlainObject(rule) && Object.keys(rule).every((field) => keepsField(field, rule, source));
    case "required":
      return stringList(rule).every((field) => requiredOf(source).includes(field));
    case "items":
      return isPlainObject(rule) && acceptsAll(rule, schemaOf(own(source, "items")));
    case "additionalProperties":
      return rule === true || (rule === false && closedWithin(source, target));
    default:
      return own(source, keyword) !== undefined && sameRules({ [keyword]: rule }, { [keyword]: own(source, keyword) });
  }
}

/** A target field's rules: the source's field must fit them, or the source must never have that field. */
function keepsField(field: string, properties: JsonMap, source: Schema): boolean {
  const theirs = own(own(source, "properties"), field);
  if (theirs === undefined) return own(source, "additionalProperties") === false;
  return acceptsAll(schemaOf(own(properties, field)), schemaOf(theirs));
}

/** The source allows no field beyond its own properties, and the target names every one of them. */
function closedWithin(source: Schema, target: Schema): boolean {
  const fields = own(source, "properties");
  const named = own(target, "properties");
  if (own(source, "additionalProperties") !== false) return false;
  return !isPlainObject(fields) || Object.keys(fields).every((field) => own(named, field) !== undefined);
}

const schemaOf = (value: unknown): Schema | undefined => (isPlainObject(value) ? value : undefined);

type FieldsNode = { readonly type: "object"; readonly properties: { [field: string]: Schema } };

/**
 * A schema for a body (`{spec, status}`) that applies `root`'s schema at each of `paths` to the
 * value there and asks nothing else: no other field, no required one. Paths never nest (the
 * field table's rows), and come from the table, never from a request.
 */
export function schemaOfFields(root: Schema, paths: readonly Segments[]): Schema {
  const top: FieldsNode = { type: "object", properties: {} };
  const nodes = new Map<string, FieldsNode>();
  for (const path of paths) {
    const leaf = schemaAt(root, path);
    const last = path[path.length - 1];
    if (leaf === undefined || last === undefined) continue;
    let node = top;
    path.slice(0, -1).forEach((key, i) => {
      const id = formatPath(path.slice(0, i + 1));
      const next = nodes.get(id) ?? { type: "object", properties: {} };
      nodes.set(id, next);
      node.properties[key] = next;
      node = next;
    });
    node.properties[last] = leaf;
  }
  return top;
}

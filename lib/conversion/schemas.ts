/**
 * What each version can hold, asked of its own JSON Schema. A value moves only where the target's
 * schema accepts it, so a converted object passes its version's schema whenever the source passed
 * its own, and nothing the other version cannot say is ever silently dropped: it rides in the
 * annotation.
 */
import { V1ALPHA2_STATUS_SCHEMA } from "../api/schema-status-v1alpha2";
import { compile } from "../api/schema";
import type { Schema } from "../api/schema-parts";
import { V1ALPHA1_SPEC_SCHEMA, V1ALPHA1_STATUS_SCHEMA } from "../api/schema-v1alpha1";
import { V1ALPHA2_SPEC_SCHEMA } from "../api/schema-v1alpha2";
import { formatPath, isPlainObject, own, stringList, type Segments } from "../json";

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

/**
 * The schema whose fields a value can be moved by: a closed object's own, or the object form of
 * "one object, or a list of them" (`networking.tls.caBundle`).
 */
export function objectForm(schema: Schema | undefined): Schema | undefined {
  if (hasFields(schema)) return schema;
  const branches = own(schema, "oneOf");
  if (!Array.isArray(branches)) return undefined;
  const object: unknown = branches.find((b) => isPlainObject(b) && hasFields(b));
  return isPlainObject(object) ? object : undefined;
}

export function requiredOf(schema: Schema | undefined): readonly string[] {
  return stringList(own(schema, "required"));
}

export function fits(schema: Schema | undefined, value: unknown): boolean {
  return schema !== undefined && compile(schema).fast(value) === true;
}

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

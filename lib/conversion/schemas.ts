/**
 * What each version can hold, asked of its own JSON Schema: a value moves to the other version
 * only where that version's schema accepts it, so a converted object always passes its
 * version's schema and nothing the other version cannot say is ever silently dropped.
 */
import { V1ALPHA2_STATUS_SCHEMA } from "../api/schema-status-v1alpha2";
import { compile } from "../api/schema";
import type { Schema } from "../api/schema-parts";
import { V1ALPHA1_SPEC_SCHEMA, V1ALPHA1_STATUS_SCHEMA } from "../api/schema-v1alpha1";
import { V1ALPHA2_SPEC_SCHEMA } from "../api/schema-v1alpha2";
import { isPlainObject, own, stringList, type Segments } from "./paths";

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

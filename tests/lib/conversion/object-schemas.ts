/**
 * Whole-object schemas for the tests: each version's spec and status schema, plus the metadata
 * the apiserver insists on after a conversion (labels and annotations are string maps).
 * The v1alpha2 check also runs the project's own `V1ALPHA2_OBJECT_SCHEMA`.
 */
import { compile, schemaErrors, V1ALPHA2_OBJECT_SCHEMA } from "../../../lib/api/schema";
import type { Schema } from "../../../lib/api/schema-parts";
import { V1ALPHA2_STATUS_SCHEMA } from "../../../lib/api/schema-status-v1alpha2";
import { V1ALPHA1_SPEC_SCHEMA, V1ALPHA1_STATUS_SCHEMA } from "../../../lib/api/schema-v1alpha1";
import { V1ALPHA2_SPEC_SCHEMA } from "../../../lib/api/schema-v1alpha2";
import { V1ALPHA1 } from "../../../lib/api/v1alpha1";
import { KIND, V1ALPHA2 } from "../../../lib/api/v1alpha2";
import type { FieldError } from "../../../lib/errors";

const stringMap = { type: "object", additionalProperties: { type: "string" } };
const metadata = {
  type: "object",
  properties: { name: { type: "string" }, labels: stringMap, annotations: stringMap },
  required: ["name"],
};

function objectSchema(apiVersion: string, spec: Schema, status: Schema): Schema {
  return {
    type: "object",
    properties: { apiVersion: { const: apiVersion }, kind: { const: KIND }, metadata, spec, status },
    required: ["apiVersion", "kind", "metadata", "spec"],
    additionalProperties: false,
  };
}

const v1alpha1 = compile(objectSchema(V1ALPHA1, V1ALPHA1_SPEC_SCHEMA, V1ALPHA1_STATUS_SCHEMA));
const v1alpha2 = compile(objectSchema(V1ALPHA2, V1ALPHA2_SPEC_SCHEMA, V1ALPHA2_STATUS_SCHEMA));
const v1alpha2Project = compile(V1ALPHA2_OBJECT_SCHEMA);

export function v1alpha1Errors(object: unknown): FieldError[] {
  return schemaErrors(v1alpha1, object);
}

export function v1alpha2Errors(object: unknown): FieldError[] {
  return [...schemaErrors(v1alpha2Project, object), ...schemaErrors(v1alpha2, object)];
}

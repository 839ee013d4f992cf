/**
 * Schema nodes, read safely: the JSON Schemas of lib/api and the `openAPIV3Schema` built from
 * them are plain JSON, so a keyword may hold anything. These helpers hand back only what has the
 * shape the caller needs (a sub-schema, a list of schemas, a CEL rule), and nothing for anything
 * else, instead of assuming it. The JSON guards themselves (`isPlainObject`, `own`,
 * `stringList`) are the conversion's, in lib/json.ts.
 */
import { isPlainObject, own } from "../json";

/** One node of an `openAPIV3Schema` (apiextensions.k8s.io/v1 JSONSchemaProps), as built. */
export type JsonSchemaProps = { [keyword: string]: unknown };
/** A node only read: a lib/api JSON Schema or an `openAPIV3Schema` node. */
export type SchemaNode = { readonly [keyword: string]: unknown };

export const INT_OR_STRING = "x-kubernetes-int-or-string";
export const PRESERVE_UNKNOWN = "x-kubernetes-preserve-unknown-fields";
export const VALIDATIONS = "x-kubernetes-validations";

/** The `reason`s the apiserver accepts on a rule. */
export const REASONS = [
  "FieldValueInvalid",
  "FieldValueRequired",
  "FieldValueForbidden",
  "FieldValueDuplicate",
] as const;

/** An entry of `x-kubernetes-validations`. */
export interface ValidationRule {
  readonly rule: string;
  readonly message: string;
  /** Where the apiserver reports the error, relative to the node (`.endpoint`). */
  readonly fieldPath?: string;
  readonly reason?: (typeof REASONS)[number];
}

export const isReason = (value: unknown): value is ValidationRule["reason"] =>
  REASONS.some((reason) => reason === value);

export function isValidationRule(value: unknown): value is ValidationRule {
  return (
    isPlainObject(value) &&
    typeof value.rule === "string" &&
    typeof value.message === "string" &&
    (value.fieldPath === undefined || typeof value.fieldPath === "string") &&
    (value.reason === undefined || isReason(value.reason))
  );
}

/** The node's CEL rules; none when it has no list of them. */
export function rulesOf(node: SchemaNode): readonly ValidationRule[] {
  const rules = node[VALIDATIONS];
  return Array.isArray(rules) ? rules.filter(isValidationRule) : [];
}

/** The schema under `key` (`items`, `additionalProperties`, `not`); undefined when there is none. */
export function subschema(node: SchemaNode | undefined, key: string): JsonSchemaProps | undefined {
  const sub = node?.[key];
  return isPlainObject(sub) ? sub : undefined;
}

/** The schema of property `name` (an own property: `constructor` is a field name like any other). */
export function propertySchema(node: SchemaNode | undefined, name: string): JsonSchemaProps | undefined {
  const sub = own(node?.properties, name);
  return isPlainObject(sub) ? sub : undefined;
}

/** The schema of field `name` of an object value: its property, else the map's value schema. */
export function fieldSchema(node: SchemaNode | undefined, name: string): JsonSchemaProps | undefined {
  return propertySchema(node, name) ?? subschema(node, "additionalProperties");
}

/** The node's properties that are schemas, in order. */
export function schemaEntries(node: SchemaNode): [string, JsonSchemaProps][] {
  const properties = node.properties;
  if (!isPlainObject(properties)) return [];
  return Object.entries(properties).flatMap(([name, sub]): [string, JsonSchemaProps][] =>
    isPlainObject(sub) ? [[name, sub]] : [],
  );
}

/** `oneOf`/`anyOf` branches: a list of schemas, or undefined for anything else. */
export function schemaList(value: unknown): readonly JsonSchemaProps[] | undefined {
  return Array.isArray(value) && value.every(isPlainObject) ? value : undefined;
}

/** Object keys in alphabetical order, recursively (controller-gen's layout); list order is kept. */
export function sortKeys(node: SchemaNode): JsonSchemaProps {
  return Object.fromEntries(
    Object.keys(node)
      .sort()
      .map((key) => [key, sortedValue(node[key])]),
  );
}

function sortedValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedValue);
  return isPlainObject(value) ? sortKeys(value) : value;
}

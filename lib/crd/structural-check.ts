/**
 * The structural-schema rules, checked on the generated `openAPIV3Schema`: the apiserver rejects
 * a CRD that breaks one, so `buildCrd()` refuses to produce it. Every node is read as untrusted
 * JSON (a keyword may hold anything), and every problem is reported with its path.
 */
import { isPlainObject, own, stringList, type JsonMap } from "../json";
import {
  INT_OR_STRING,
  isReason,
  PRESERVE_UNKNOWN,
  propertySchema,
  VALIDATIONS,
  type JsonSchemaProps,
} from "./schema-node";

/** Value validations that mean the same in JSON Schema and in a structural schema. */
export const VALUE_KEYWORDS = [
  "enum",
  "default",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "minItems",
  "maxItems",
  "minProperties",
  "maxProperties",
] as const;

const ALLOWED = new Set<string>([
  "type",
  "description",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "anyOf",
  "oneOf",
  "allOf",
  "not",
  "nullable",
  "title",
  INT_OR_STRING,
  PRESERVE_UNKNOWN,
  VALIDATIONS,
  "x-kubernetes-embedded-resource",
  "x-kubernetes-list-type",
  "x-kubernetes-list-map-keys",
  "x-kubernetes-map-type",
  ...VALUE_KEYWORDS,
]);
/** Forbidden inside anyOf/oneOf/allOf/not (value validations only). */
const NOT_IN_VALUE_VALIDATION = [
  "type",
  "description",
  "default",
  "additionalProperties",
  "nullable",
  INT_OR_STRING,
  PRESERVE_UNKNOWN,
  VALIDATIONS,
];
const TYPES = new Set(["object", "array", "string", "integer", "number", "boolean"]);
const BRANCH_KEYWORDS = ["anyOf", "oneOf", "allOf"] as const;

type Check = (node: JsonMap, path: string, problems: string[]) => void;

/** A keyword's value in a message: a string as it is, anything else as JSON. */
const shown = (value: unknown): string => (typeof value === "string" ? value : String(JSON.stringify(value)));

/** Every way `schema` breaks the structural-schema rules; empty when the apiserver would accept it. */
export function structuralProblems(schema: JsonSchemaProps, path = "openAPIV3Schema"): string[] {
  const problems: string[] = [];
  checkNode(schema, path, problems);
  const metadata = own(schema.properties, "metadata");
  if (metadata !== undefined && JSON.stringify(metadata) !== JSON.stringify({ type: "object" })) {
    problems.push(`${path}.properties.metadata: the root metadata schema must be exactly {type: object}`);
  }
  if (schema.type !== "object") problems.push(`${path}: the root must be type object`);
  return problems;
}

function checkNode(node: unknown, path: string, problems: string[]): void {
  if (!isPlainObject(node)) {
    problems.push(`${path}: must be a schema`);
    return;
  }
  // In this order, so the problems read top-down: the node, its branches, its shape, its children, its rules.
  const checks: readonly Check[] = [
    checkKeywords,
    checkType,
    checkIntOrString,
    checkBranches,
    checkShape,
    checkListMap,
  ];
  for (const check of checks) check(node, path, problems);
  checkChildren(node, path, problems);
  checkRules(node, path, problems);
}

function checkKeywords(node: JsonMap, path: string, problems: string[]): void {
  for (const k of Object.keys(node)) if (!ALLOWED.has(k)) problems.push(`${path}: unknown keyword "${k}"`);
}

function checkType(node: JsonMap, path: string, problems: string[]): void {
  if (node.type === undefined) {
    if (node[INT_OR_STRING] !== true && node[PRESERVE_UNKNOWN] !== true)
      problems.push(`${path}: type is required (or ${INT_OR_STRING} / ${PRESERVE_UNKNOWN})`);
  } else if (typeof node.type !== "string" || !TYPES.has(node.type)) {
    problems.push(`${path}: unknown type "${shown(node.type)}"`);
  }
}

function checkIntOrString(node: JsonMap, path: string, problems: string[]): void {
  if (node[INT_OR_STRING] !== true) return;
  if (node.type !== undefined) problems.push(`${path}: an int-or-string node has no type`);
  const anyOf = JSON.stringify(node.anyOf);
  if (node.anyOf !== undefined && anyOf !== JSON.stringify([{ type: "integer" }, { type: "string" }])) {
    problems.push(`${path}: an int-or-string anyOf must be exactly [{type: integer}, {type: string}]`);
  }
}

function checkBranches(node: JsonMap, path: string, problems: string[]): void {
  for (const key of BRANCH_KEYWORDS) {
    const branches: unknown = node[key];
    // An int-or-string's anyOf is the fixed pair checkIntOrString checks.
    if (branches === undefined || (key === "anyOf" && node[INT_OR_STRING] === true)) continue;
    if (!Array.isArray(branches)) problems.push(`${path}.${key}: must be a list`);
    else branches.forEach((b: unknown, i) => checkValueValidation(b, `${path}.${key}[${i}]`, problems));
  }
  if (node.not !== undefined) checkValueValidation(node.not, `${path}.not`, problems);
}

function checkShape(node: JsonMap, path: string, problems: string[]): void {
  const extra = node.additionalProperties;
  if (node.properties !== undefined && extra !== undefined) {
    problems.push(`${path}: properties and additionalProperties are mutually exclusive`);
  }
  if (extra !== undefined && typeof extra !== "object") problems.push(`${path}.additionalProperties: must be a schema`);
  if (node.type === "array" && typeof node.items !== "object") problems.push(`${path}: an array needs items`);
  for (const name of stringList(node.required)) {
    if (own(node.properties, name) === undefined) problems.push(`${path}: required field "${name}" is not a property`);
  }
}

const SCALAR_TYPES = ["string", "integer", "number", "boolean"];

/** Is `key` a scalar field of `items` that every item has (required, or defaulted)? */
function isListMapKey(items: JsonMap, key: string): boolean {
  const field = own(items.properties, key);
  if (!isPlainObject(field) || !SCALAR_TYPES.includes(String(field.type))) return false;
  return stringList(items.required).includes(key) || field.default !== undefined;
}

/** A list-map is a list of objects whose keys every item has. */
function checkListMap(node: JsonMap, path: string, problems: string[]): void {
  if (node["x-kubernetes-list-type"] !== "map") return;
  const items = isPlainObject(node.items) ? node.items : {};
  const keys = stringList(node["x-kubernetes-list-map-keys"]);
  if (node.type !== "array" || items.type !== "object" || keys.length === 0)
    problems.push(`${path}: a list-map is an array of objects with x-kubernetes-list-map-keys`);
  for (const key of keys)
    if (!isListMapKey(items, key))
      problems.push(`${path}: list-map key "${key}" must be a scalar field every item has`);
}

function checkChildren(node: JsonMap, path: string, problems: string[]): void {
  const properties = isPlainObject(node.properties) ? node.properties : {};
  for (const [name, sub] of Object.entries(properties)) checkNode(sub, `${path}.properties.${name}`, problems);
  if (isPlainObject(node.items)) checkNode(node.items, `${path}.items`, problems);
  if (isPlainObject(node.additionalProperties))
    checkNode(node.additionalProperties, `${path}.additionalProperties`, problems);
}

function checkValueValidation(node: unknown, path: string, problems: string[]): void {
  if (!isPlainObject(node)) return;
  for (const k of NOT_IN_VALUE_VALIDATION)
    if (node[k] !== undefined) problems.push(`${path}: "${k}" is not allowed inside anyOf/oneOf/allOf/not`);
  for (const key of BRANCH_KEYWORDS) {
    const branches: unknown = node[key];
    if (Array.isArray(branches))
      branches.forEach((b: unknown, i) => checkValueValidation(b, `${path}.${key}[${i}]`, problems));
  }
  const properties = isPlainObject(node.properties) ? node.properties : {};
  for (const [name, sub] of Object.entries(properties))
    checkValueValidation(sub, `${path}.properties.${name}`, problems);
}

function checkRules(node: JsonMap, path: string, problems: string[]): void {
  const rules: unknown = node[VALIDATIONS];
  if (rules === undefined) return;
  if (node.type === undefined && node[INT_OR_STRING] !== true) {
    problems.push(`${path}: rules need a typed node (the apiserver gives an untyped node no CEL type)`);
  }
  if (!Array.isArray(rules) || rules.length === 0) {
    problems.push(`${path}: ${VALIDATIONS} must be a non-empty list`);
    return;
  }
  rules.forEach((rule: unknown, i) => {
    const at = `${path}.${VALIDATIONS}[${i}]`;
    const fields: JsonMap = isPlainObject(rule) ? rule : {};
    checkRuleText(fields, at, problems);
    checkRuleTarget(node, fields, at, problems);
  });
}

function checkRuleText(rule: JsonMap, at: string, problems: string[]): void {
  const { rule: text, message } = rule;
  if (typeof text !== "string" || text.trim() === "") problems.push(`${at}: rule is required`);
  if (typeof message !== "string" || message.trim() === "" || /[\r\n]/.test(message))
    problems.push(`${at}: a one-line message is required`);
}

function checkRuleTarget(node: JsonMap, rule: JsonMap, at: string, problems: string[]): void {
  if (rule.reason !== undefined && !isReason(rule.reason))
    problems.push(`${at}: unknown reason "${shown(rule.reason)}"`);
  const fieldPath = rule.fieldPath;
  if (fieldPath !== undefined && (typeof fieldPath !== "string" || resolveFieldPath(node, fieldPath) === undefined)) {
    problems.push(`${at}: fieldPath "${shown(fieldPath)}" does not name a field of this node`);
  }
}

/** `.a.b` → the schema of field b of field a; undefined when the path leaves the schema. */
export function resolveFieldPath(node: JsonSchemaProps, fieldPath: string): JsonSchemaProps | undefined {
  if (!/^(\.[A-Za-z_][A-Za-z0-9_]*)+$/.test(fieldPath)) return undefined;
  let at: JsonSchemaProps | undefined = node;
  for (const name of fieldPath.slice(1).split(".")) at = propertySchema(at, name);
  return at;
}

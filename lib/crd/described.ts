/**
 * Fields described for `kubectl explain` inside a node the apiserver keeps as written (an untyped
 * `x-kubernetes-preserve-unknown-fields` node: one provider object, or a list of them).
 *
 * A structural schema allows `properties` on such a node, and the apiserver publishes them in
 * its OpenAPI v3 document (v2 drops them: there only the node's description is shown). But the
 * apiserver also acts on them when the value is an object, and only then, never on the items of
 * a list: it would type-check, default, require, run CEL rules and prune unknown fields of typed
 * objects below. So the fields keep their type and description only, and every object among
 * them keeps unknown fields too: the one form and the list form are stored alike, as written,
 * and `/validate` and `/sync` check both against the JSON Schema.
 */
import type { Schema } from "../api/schema-parts";
import { isPlainObject } from "../json";
import { INT_OR_STRING, PRESERVE_UNKNOWN, type JsonSchemaProps } from "./schema-node";

/** A schema node reduced to what `kubectl explain` shows: type, description, and the same for its fields. */
export function describedOnly(node: JsonSchemaProps): JsonSchemaProps {
  const out: JsonSchemaProps = {};
  if (typeof node.type === "string") out.type = node.type;
  if (typeof node.description === "string") out.description = node.description;
  if (node[INT_OR_STRING] === true) Object.assign(out, { anyOf: node.anyOf, [INT_OR_STRING]: true });
  if (isPlainObject(node.properties))
    out.properties = Object.fromEntries(
      Object.entries(node.properties).map(([name, sub]) => [name, isPlainObject(sub) ? describedOnly(sub) : sub]),
    );
  if (isPlainObject(node.items)) out.items = describedOnly(node.items);
  if (isPlainObject(node.additionalProperties)) out.additionalProperties = describedOnly(node.additionalProperties);
  if (node.type === "object" || node[PRESERVE_UNKNOWN] === true) out[PRESERVE_UNKNOWN] = true;
  return out;
}

/** The object of a "one object, or a list of them" union; undefined for any other union. */
export function objectOrListOf(branches: readonly Schema[]): Schema | undefined {
  if (branches.length !== 2) return undefined;
  const one = branches.find((b) => b.type === "object" && isPlainObject(b.properties));
  const list = branches.find((b) => b.type === "array");
  return one !== undefined && list !== undefined && JSON.stringify(list.items) === JSON.stringify(one)
    ? one
    : undefined;
}

/** What the converting commands share: an object's name for messages, the refusal of a nameless one, and its v1alpha2 form. */
import { formatErrors } from "../errors";
import { V1ALPHA1 } from "../api/v1alpha1";
import { V1ALPHA2 } from "../api/v1alpha2";
import { compile, schemaErrors } from "../api/schema";
import { V1ALPHA1_BODY, V1ALPHA2_BODY } from "../conversion/schemas";
import { own, type JsonMap } from "../json";
import { toHub, type Conversion } from "../conversion/v1alpha1";
import { isNamed, unnamed } from "./documents";
import type { CliIo } from "./io";

type Doc = JsonMap;

/** `metadata.name` for messages; a missing or non-scalar one reads "(unnamed)". */
export const nameOf = (o: Doc): string => {
  const name = own(o.metadata, "name");
  return typeof name === "string" || typeof name === "number" || typeof name === "boolean" ? String(name) : "(unnamed)";
};

/** True (and why on stderr) when `object` has no name: what it converts to, a `kind`, would be refused. */
export function refusedUnnamed(object: Doc, kind: string, io: CliIo): boolean {
  if (isNamed(object)) return false;
  io.stderr(`error: ${nameOf(object)}:\n${formatErrors([unnamed(kind)])}\n`);
  return true;
}

/** The document in v1alpha2, converted when it is not; refused where its version's schema refuses it (never validated). */
export function hubOf(object: Doc): Conversion<object> {
  const { apiVersion } = object;
  const schema = apiVersion === V1ALPHA1 ? V1ALPHA1_BODY : apiVersion === V1ALPHA2 ? V1ALPHA2_BODY : undefined;
  const errors = schema ? schemaErrors(compile(schema), object) : [];
  if (errors.length > 0) return { ok: false, errors };
  return object.apiVersion === V1ALPHA2 ? { ok: true, object } : toHub(object);
}

/**
 * The envelope of an object to convert, checked before anything is moved: a
 * LlamaStackDistribution of the source version, with metadata, string annotations, a spec
 * object and, when present, a status object. Every problem is reported at once, with its path.
 */
import { fieldError, type FieldError } from "../errors";
import { KIND } from "../api/v1alpha2";
import type { Annotations } from "./annotations";
import { isPlainObject, isStringMap, own, type JsonMap } from "../json";

/** A conversion result: the object, or every reason it cannot be converted. */
export type Conversion<T> =
  { readonly ok: true; readonly object: T } | { readonly ok: false; readonly errors: readonly FieldError[] };

/** The parts of a source object a conversion reads, once its envelope is known to be sound. */
export interface Parts {
  readonly source: JsonMap;
  readonly metadata: JsonMap;
  readonly annotations: Annotations | undefined;
}

/** The object's parts, or every problem of its envelope (apiVersion, kind, metadata, spec, status). */
export function partsOf(object: unknown, apiVersion: string): Conversion<Parts> {
  if (!isPlainObject(object))
    return { ok: false, errors: [fieldError("(root)", `must be a ${KIND} object, got ${typeName(object)}`)] };
  const metadata = own(object, "metadata");
  const annotations = own(metadata, "annotations");
  const hasMetadata = isPlainObject(metadata);
  const annotationsOk = annotations === undefined || isStringMap(annotations);
  const errors = [
    ...identityErrors(object, apiVersion),
    ...(hasMetadata ? [] : [fieldError("metadata", `must be an object, got ${typeName(metadata)}`)]),
    ...(annotationsOk ? [] : [fieldError("metadata.annotations", "must map names to string values")]),
    ...bodyErrors(object),
  ];
  if (!hasMetadata || !annotationsOk || errors.length > 0) return { ok: false, errors };
  return { ok: true, object: { source: object, metadata, annotations } };
}

function identityErrors(object: JsonMap, apiVersion: string): FieldError[] {
  const got = own(object, "apiVersion");
  const kind = own(object, "kind");
  return [
    ...(got === apiVersion ? [] : [fieldError("apiVersion", `must be "${apiVersion}", got ${shortJson(got)}`)]),
    ...(kind === KIND ? [] : [fieldError("kind", `must be "${KIND}", got ${shortJson(kind)}`)]),
  ];
}

function bodyErrors(object: JsonMap): FieldError[] {
  const spec = own(object, "spec");
  const status = own(object, "status");
  return [
    ...(isPlainObject(spec) ? [] : [fieldError("spec", `is required and must be an object, got ${typeName(spec)}`)]),
    ...(status === undefined || isPlainObject(status)
      ? []
      : [fieldError("status", `must be an object, got ${typeName(status)}`)]),
  ];
}

export function typeName(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  return Array.isArray(value) ? "a list" : `a ${typeof value}`;
}

/** A short JSON rendering for messages (apiVersion and kind strings, never spec values). */
export function shortJson(value: unknown): string {
  if (value === undefined) return "nothing";
  const text = JSON.stringify(value) ?? typeName(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

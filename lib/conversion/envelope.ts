/**
 * The envelope of an object to convert, checked before anything is moved: a
 * LlamaStackDistribution of the source version, with metadata, string annotations, a spec
 * object and, when present, a status object. Every problem is reported at once, with its path.
 */
import { fieldError, type FieldError } from "../errors";
import { KIND } from "../api/v1alpha2";
import type { Annotations } from "./annotations";
import { isPlainObject, isStringMap, own, type JsonMap } from "./paths";

/** A conversion result: the object, or every reason it cannot be converted. */
export type Conversion<T> =
  { readonly ok: true; readonly object: T } | { readonly ok: false; readonly errors: readonly FieldError[] };

/** The parts of a source object a conversion reads, once its envelope is known to be sound. */
export interface Parts {
  readonly source: JsonMap;
  readonly metadata: JsonMap;
  readonly annotations: Annotations | undefined;
}

/**
 * The object's parts, or every problem of its envelope (apiVersion, kind, metadata, spec, status).
 * Written as plain checks that push their error: this runs on every converted object, mostly
 * before V8 has optimized it.
 */
export function partsOf(object: unknown, apiVersion: string): Conversion<Parts> {
  if (!isPlainObject(object))
    return { ok: false, errors: [fieldError("(root)", `must be a ${KIND} object, got ${typeName(object)}`)] };
  const errors: FieldError[] = [];
  const got = own(object, "apiVersion");
  if (got !== apiVersion) errors.push(fieldError("apiVersion", `must be "${apiVersion}", got ${shortJson(got)}`));
  const kind = own(object, "kind");
  if (kind !== KIND) errors.push(fieldError("kind", `must be "${KIND}", got ${shortJson(kind)}`));
  const metadata = own(object, "metadata");
  if (!isPlainObject(metadata)) errors.push(fieldError("metadata", `must be an object, got ${typeName(metadata)}`));
  const annotations = own(metadata, "annotations");
  const stringMap = isStringMap(annotations) ? annotations : undefined;
  if (annotations !== undefined && stringMap === undefined)
    errors.push(fieldError("metadata.annotations", "must map names to string values"));
  errors.push(...bodyErrors(object));
  if (errors.length > 0 || !isPlainObject(metadata)) return { ok: false, errors };
  return { ok: true, object: { source: object, metadata, annotations: stringMap } };
}

function bodyErrors(object: JsonMap): FieldError[] {
  const errors: FieldError[] = [];
  const spec = own(object, "spec");
  if (!isPlainObject(spec)) errors.push(fieldError("spec", `is required and must be an object, got ${typeName(spec)}`));
  const status = own(object, "status");
  if (status !== undefined && !isPlainObject(status))
    errors.push(fieldError("status", `must be an object, got ${typeName(status)}`));
  return errors;
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

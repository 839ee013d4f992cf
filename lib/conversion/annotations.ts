/**
 * The two annotations that make the conversion lossless (docs/hook-api.md, "/convert"). Each
 * holds the fields of one version that the other cannot hold, as a JSON object of field path →
 * value with sorted keys (so the same fields always give the same text), e.g. on a v1alpha2
 * object:
 *
 *   llamastack.io/v1alpha1-fields: '{"spec.server.containerSpec.name":"llama-stack"}'
 *
 * A conversion reads the annotation written by the previous one, puts its fields back and
 * removes it, then writes its own when it has anything to keep.
 */
import { fieldError, type FieldError } from "../errors";
import { define, isPlainObject, own, parsePath, type StringMap } from "../json";
import type { Stash } from "./carry";

/** On a v1alpha2 object: what its v1alpha1 form had that v1alpha2 cannot say. */
export const V1ALPHA1_FIELDS = "llamastack.io/v1alpha1-fields";
/** On a v1alpha1 object: what its v1alpha2 form had that v1alpha1 cannot say. */
export const V1ALPHA2_FIELDS = "llamastack.io/v1alpha2-fields";

/** The apiserver's limit for all annotations of one object together (TotalAnnotationSizeLimitB). */
export const ANNOTATIONS_LIMIT_BYTES = 256 * 1024;

/** Metadata annotations as the apiserver requires them: names to string values (checked with isStringMap). */
export type Annotations = StringMap;

type Read<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: FieldError };

export function annotationPath(key: string): string {
  return `metadata.annotations[${JSON.stringify(key)}]`;
}

/**
 * `JSON.stringify` of the entries as one object with sorted keys, written entry by entry: the
 * same text as sorting `[path, value]` pairs and stringifying `Object.fromEntries`, without
 * the pairs. Paths start with `spec` or `status`, so no key is an array index that an object
 * would move to the front.
 */
export function serializeStash(stash: Stash): string {
  // Default sort order is by UTF-16 code units, as `<` compares strings.
  const paths = Array.from(stash.keys()).sort();
  let text = "";
  for (const path of paths) {
    const value = stash.get(path);
    if (value === undefined) continue; // JSON has no undefined: stringify leaves such a key out
    text += `${text === "" ? "" : ","}${JSON.stringify(path)}:${JSON.stringify(value)}`;
  }
  return `{${text}}`;
}

/** The entries of annotation `key`; none when it is absent. Never quotes the text (it may be anything). */
export function readStash(annotations: Annotations | undefined, key: string): Read<Stash> {
  // Annotations are strings (the caller parsed them with isStringMap), so only absence is left.
  const text = own(annotations, key);
  if (typeof text !== "string") return { ok: true, value: new Map() };
  const fail = (message: string): Read<Stash> => ({ ok: false, error: fieldError(annotationPath(key), message) });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return fail(
      "is not valid JSON; restore the value the conversion wrote, or remove the annotation (its fields are then lost)",
    );
  }
  if (!isPlainObject(parsed)) return fail("must be a JSON object of field path → value, as the conversion writes it");
  const stash = new Map<string, unknown>();
  for (const path of Object.keys(parsed)) {
    const segments = parsePath(path);
    // Only spec and status are converted: an entry must never reach metadata.
    if (!segments || segments.length < 2 || (segments[0] !== "spec" && segments[0] !== "status")) {
      return fail(
        `entry ${JSON.stringify(path)} is not a field path under spec or status (e.g. "spec.server.containerSpec.name")`,
      );
    }
    stash.set(path, own(parsed, path));
  }
  return { ok: true, value: stash };
}

/** What a conversion does to the annotations: the one it read goes, the one it keeps is written. */
export interface StashWrite {
  /** The annotation the previous conversion wrote, now read: removed. */
  readonly consumed: string;
  /** The annotation this conversion writes. */
  readonly key: string;
  readonly stash: Stash;
  /** Write `{}` when the stash is empty: it marks the object (see v1alpha1.ts). */
  readonly always: boolean;
}

/**
 * The converted object's annotations: `consumed` removed, `key` set to `stash` (or removed
 * when empty, unless `always`). A map left empty is dropped, as the apiserver never sends an
 * empty one.
 */
export function writeStash(annotations: Annotations | undefined, write: StashWrite): Read<Annotations | undefined> {
  const { consumed, key, stash, always } = write;
  const out: { [key: string]: string } = {};
  let bytes = 0;
  const keep = (name: string, value: string): void => {
    define(out, name, value);
    bytes += Buffer.byteLength(name) + Buffer.byteLength(value);
  };
  // Keys, not entries: this runs once per converted object, mostly before V8 has optimized
  // it, where destructuring each entry cost more than the rest of the function.
  for (const name of Object.keys(annotations ?? {})) {
    if (name !== consumed && name !== key) keep(name, String(own(annotations, name)));
  }
  if (stash.size > 0 || always) keep(key, serializeStash(stash));
  if (bytes > ANNOTATIONS_LIMIT_BYTES) {
    const message = `the fields the other version cannot hold need this annotation, but all annotations together would take ${bytes} bytes (the apiserver allows ${ANNOTATIONS_LIMIT_BYTES}); make the spec smaller`;
    return { ok: false, error: fieldError(annotationPath(key), message) };
  }
  if (Object.keys(out).length > 0) return { ok: true, value: out };
  // An empty map that came in stays (the object had one); otherwise there is none.
  return { ok: true, value: isEmptyMap(annotations) ? annotations : undefined };
}

const isEmptyMap = (annotations: Annotations | undefined): boolean =>
  annotations !== undefined && Object.keys(annotations).length === 0;

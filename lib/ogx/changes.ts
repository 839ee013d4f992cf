/**
 * What makes the conversion between LLSD and OGXServer lossless. The two APIs differ in shape
 * (typed provider buckets against one generic provider), so fields do not map one to one as in
 * lib/conversion/table.ts; instead a conversion A → B converts B straight back, compares that
 * with A, and keeps each difference as a change `path → {was, is}`: what the plain conversion
 * back gives there (`was`) and what A had (`is`); a missing side means the field is absent.
 * The way back applies each change only where the object still gives `was`: a field edited in B
 * wins over the kept value, as in lib/conversion/carry.ts `restore`.
 */
import { fieldError, type FieldError } from "../errors";
import { annotationPath, readStash, type Annotations } from "../conversion/annotations";
import { define, formatPath, isPlainObject, type JsonMap, own, parsePath } from "../json";
import { copyJson } from "../json-copy";
import { sameJson } from "./json";

export interface Change {
  readonly was?: unknown;
  readonly is?: unknown;
}
export type Changes = ReadonlyMap<string, Change>;

const change = (was: unknown, is: unknown): Change => ({
  ...(was === undefined ? {} : { was }),
  ...(is === undefined ? {} : { is }),
});

const keysOf = (a: unknown, b: unknown): Set<string> =>
  new Set([...Object.keys(objectOf(a)), ...Object.keys(objectOf(b))]);

/** Where to look deeper: the child pairs of two objects, or of two lists of one length; none for anything else. */
function childPairs(a: unknown, b: unknown): [string, unknown, unknown][] | undefined {
  if (isPlainObject(a) && isPlainObject(b)) return [...keysOf(a, b)].map((key) => [key, own(a, key), own(b, key)]);
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length)
    return a.map((item: unknown, i): [string, unknown, unknown] => [String(i), item, b[i]]);
  return undefined;
}

/** The changes that turn `plain` into `original`, as deep as both have the same objects or same-length lists. */
export function changesBetween(plain: JsonMap, original: JsonMap): Map<string, Change> {
  const out = new Map<string, Change>();
  const walk = (a: unknown, b: unknown, path: string[]): void => {
    if (sameJson(a, b)) return;
    const pairs = childPairs(a, b);
    if (pairs) for (const [key, x, y] of pairs) walk(x, y, [...path, key]);
    else out.set(formatPath(path), change(a, b));
  };
  // The top level (spec, status) is never one entry: a path names a field under it (an absent status reads {}).
  for (const key of keysOf(plain, original)) walk(own(plain, key) ?? {}, own(original, key) ?? {}, [key]);
  return out;
}

const objectOf = (value: unknown): JsonMap => (isPlainObject(value) ? value : {});

function child(node: unknown, key: string): unknown {
  if (Array.isArray(node)) return /^\d+$/.test(key) ? (node[Number(key)] as unknown) : undefined;
  return own(node, key);
}

/** Applies each change whose `was` is still what `body` holds there; the others are dropped (the edit wins). */
export function applyChanges(body: JsonMap, changes: Changes): void {
  const hadStatus = body.status !== undefined;
  if (!hadStatus) body.status = {};
  for (const [path, { was, is }] of changes) {
    const segments = parsePath(path) ?? [];
    const parent = segments.slice(0, -1).reduce<unknown>(child, body);
    const key = segments[segments.length - 1];
    if (key === undefined || !sameJson(child(parent, key), was)) continue;
    setChild(parent, key, is === undefined ? undefined : copyJson(is));
  }
  if (!hadStatus && Object.keys(objectOf(body.status)).length === 0) delete body.status;
}

function setChild(parent: unknown, key: string, value: unknown): void {
  if (Array.isArray(parent) && /^\d+$/.test(key) && Number(key) < parent.length) parent[Number(key)] = value;
  else if (isPlainObject(parent) && value === undefined) Reflect.deleteProperty(parent, key);
  else if (isPlainObject(parent)) define(parent, key, value);
}

/** One entry of the annotation as a change, or undefined when it is not one the conversion writes. */
function entryOf(value: unknown): Change | undefined {
  if (!isPlainObject(value) || Object.keys(value).some((k) => k !== "was" && k !== "is")) return undefined;
  return change(own(value, "was"), own(value, "is"));
}

/** The changes kept in annotation `key` (lib/conversion/annotations.ts reads it); none when it is absent. */
export function readChanges(
  annotations: Annotations | undefined,
  key: string,
): { changes: Changes } | { error: FieldError } {
  const read = readStash(annotations, key);
  if (!read.ok) return { error: read.error };
  const changes = new Map<string, Change>();
  for (const [path, value] of read.value) {
    const entry = entryOf(value);
    if (!entry)
      return {
        error: fieldError(
          annotationPath(key),
          `entry ${JSON.stringify(path)} must be a {was, is} change, as the conversion writes it`,
        ),
      };
    changes.set(path, entry);
  }
  return { changes };
}

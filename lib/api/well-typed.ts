/**
 * Every problem at once: a spec the schema refuses still gets the semantic rules, on the part of
 * it whose own values are well-typed. Each value the schema refuses is left out of a copy (an
 * object that then lacks a required field too), until the copy passes; the rules judge the copy
 * and their errors are read back at the paths of the spec as written. So `replicas: "2"` no
 * longer hides an endpoint that is not a URL elsewhere in the same spec.
 */
import type { ErrorObject } from "ajv";
import { define, isPlainObject } from "../json";
import { fieldError, type FieldError } from "../errors";
import { compile, isV1alpha2Spec, narrowOneOf, toFieldPath, type CompiledSchema } from "./schema";
import type { Schema } from "./schema-parts";
import { V1ALPHA2_SPEC_SCHEMA } from "./schema-v1alpha2";
import type { LlsdSpecV1alpha2 } from "./v1alpha2";

interface Verdict {
  readonly errors: readonly FieldError[];
  readonly warnings: readonly FieldError[];
}

/** Rounds of removal: each round can only empty a required field's object, so nesting bounds it. */
const MAX_ROUNDS = 12;

/** What a spec or object is checked against: its schema, the path its errors start with, its type. */
export interface Part<T> {
  readonly schema: Schema;
  readonly prefix: string;
  readonly parse: (value: unknown) => T | undefined;
}

export const V1ALPHA2_SPEC: Part<LlsdSpecV1alpha2> = {
  schema: V1ALPHA2_SPEC_SCHEMA,
  prefix: "spec",
  parse: (value) => (isV1alpha2Spec(value) ? value : undefined),
};

/**
 * `refused` (the schema's errors of `value`), then the errors `rules` find in the well-typed
 * part of `value`, at the paths of `value`; a rule's error on a field the schema already
 * reported is dropped. Only the schema's errors when nothing is left to judge.
 */
export function withRulesOnWellTyped<T>(
  value: unknown,
  refused: readonly FieldError[],
  part: Part<T>,
  rules: (wellTyped: T) => Verdict,
): Verdict {
  const pruned = wellTypedPart(compile(part.schema), value, part.prefix);
  const parsed = pruned && part.parse(pruned.value);
  if (!pruned || parsed === undefined) return { errors: refused, warnings: [] };
  const judged = rules(parsed);
  const back = (errors: readonly FieldError[]): FieldError[] =>
    errors.map((e) => fieldError(pruned.original(e.path), e.message));
  const seen = new Set(refused.map((e) => e.path));
  const errors = [...refused];
  for (const e of back(judged.errors)) {
    if (seen.has(e.path)) continue; // one voice per field: the schema's, or the first rule's
    seen.add(e.path);
    errors.push(e);
  }
  return { errors, warnings: back(judged.warnings) };
}

interface Pruned {
  readonly value: unknown;
  /** A field path of the pruned value → the same field's path in the value as written. */
  readonly original: (path: string) => string;
}

/** `value` without what `schema` refuses (see the file comment); undefined when the root itself goes. */
function wellTypedPart(schema: CompiledSchema, value: unknown, prefix: string): Pruned | undefined {
  const removed = new Set<string>();
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const kept = new Map<string, number[]>();
    const copy = without(value, { removed, kept }, "");
    const toOriginal = (pointer: string): string => originalPointer(pointer, kept);
    if (schema.fast(copy)) {
      const byPath = new Map([...kept].map(([pointer, indices]) => [toFieldPath(pointer, prefix), indices]));
      return { value: copy, original: (path) => originalPath(path, byPath) };
    }
    schema.full(copy);
    const more = narrowOneOf(schema.full.errors ?? []).map((e) => toOriginal(refusedPointer(e)));
    if (more.includes("") || more.every((pointer) => removed.has(pointer))) return undefined;
    for (const pointer of more) removed.add(pointer);
  }
  return undefined;
}

/** The JSON pointer of the value an error refuses: an unknown field itself, else where it was found. */
function refusedPointer(e: ErrorObject): string {
  if (e.keyword !== "additionalProperties") return e.instancePath;
  return `${e.instancePath}/${pointerKey(String(e.params.additionalProperty))}`;
}

/** A key as a JSON pointer segment (RFC 6901), as ajv writes instance paths. */
const pointerKey = (key: string): string => key.replace(/~/g, "~0").replace(/\//g, "~1");

/** `value` without the pointers in `removed`; `kept` gets the original indices of each list that lost items. */
function without(
  value: unknown,
  at: { readonly removed: ReadonlySet<string>; readonly kept: Map<string, number[]> },
  pointer: string,
): unknown {
  // Only the way to what goes is copied: the rest (free-form settings, however deep) is shared, as the rules only read.
  const under = `${pointer}/`;
  if (![...at.removed].some((removed) => removed.startsWith(under))) return value;
  if (Array.isArray(value)) {
    const indices = value.map((_, i) => i).filter((i) => !at.removed.has(`${pointer}/${i}`));
    if (indices.length < value.length) at.kept.set(pointer, indices);
    return indices.map((i) => without(value[i], at, `${pointer}/${i}`));
  }
  if (!isPlainObject(value)) return value;
  const out: { [key: string]: unknown } = {};
  for (const [key, item] of Object.entries(value)) {
    const inner = `${pointer}/${pointerKey(key)}`;
    if (!at.removed.has(inner)) define(out, key, without(item, at, inner));
  }
  return out;
}

/** A pointer into the copy → the pointer into the value as written (list indices shift back). */
function originalPointer(pointer: string, kept: ReadonlyMap<string, readonly number[]>): string {
  let out = "";
  for (const segment of pointer.split("/").slice(1)) {
    const indices = kept.get(out);
    out += `/${indices && /^\d+$/.test(segment) ? String(indices[Number(segment)]) : segment}`;
  }
  return out;
}

/** A field path of the copy (`spec.models[1].name`) → the path in the value as written. */
function originalPath(path: string, kept: ReadonlyMap<string, readonly number[]>): string {
  let out = "";
  let last = 0;
  for (const match of path.matchAll(/\[(\d+)\]/g)) {
    out += path.slice(last, match.index);
    const index = Number(match[1]);
    out += `[${kept.get(out)?.[index] ?? index}]`;
    last = match.index + match[0].length;
  }
  return out + path.slice(last);
}

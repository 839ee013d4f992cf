/**
 * The conversion engine, the same in both directions. `carry` moves every table row the
 * target can hold and returns what is left of the source (the fields the target cannot hold)
 * as path → value entries; `restore` puts such entries back, on the way home, wherever the
 * converted object says nothing. Round trips are the identity because every source field is
 * either moved by a row (and moved back by it) or kept as an entry (and put back from it).
 */
import type { Schema } from "../api/schema-parts";
import {
  childPath,
  define,
  formatPath,
  getPath,
  isPlainObject,
  own,
  parsePath,
  setPath,
  type JsonMap,
  type Segments,
} from "../json";
import { fits, objectForm, requiredOf, schemaAt } from "./schemas";
import type { Direction, Pair } from "./table";

/** Field path (`spec.server.containerSpec.name`) → the value the other version cannot hold. */
export type Stash = ReadonlyMap<string, unknown>;

interface Part {
  readonly value: unknown;
  /** Source paths moved whole. */
  readonly moved: readonly string[];
  /** Source objects moved field by field: the row rebuilds them on the way back. */
  readonly rebuilt: readonly string[];
}

/** `value` (at source path `from`) as the target can hold it: whole, or (an object) the fields it accepts, or nothing. */
function fitPart(value: unknown, schema: Schema | undefined, from: string): Part | undefined {
  if (fits(schema, value)) return { value, moved: [from], rebuilt: [] };
  const fields = objectForm(schema);
  if (!isPlainObject(value) || !fields) return undefined;
  const out: JsonMap = {};
  const moved: string[] = [];
  const rebuilt = [from];
  for (const key of Object.keys(value)) {
    const part = fitPart(own(value, key), schemaAt(fields, [key]), childPath(from, key));
    if (!part) continue;
    define(out, key, part.value);
    moved.push(...part.moved);
    rebuilt.push(...part.rebuilt);
  }
  // The accepted fields alone may still be refused (a required one was not accepted).
  return fits(schema, out) ? { value: out, moved, rebuilt } : undefined;
}

/** The converted `spec` and `status`, as `carry` builds them. */
export type Body = { spec: JsonMap; status?: JsonMap };

/** What the rows have done so far: the body they built and the source paths they took. */
interface Carried {
  readonly body: Body;
  /** Source paths moved whole. */
  readonly moved: Set<string>;
  /** Source objects moved field by field. */
  readonly rebuilt: Set<string>;
}

/** `source` is `{spec, status?}` of one version; the result is the other version's. */
export function carry(source: JsonMap, direction: Direction): { body: Body; stash: Stash } {
  const carried = carriedWhole(source, direction) ?? carriedRowByRow(source, direction);
  return { body: carried.body, stash: leftOver(source, carried, direction.shared) };
}

/** `carry` with every row deciding on its own: what `carry` does when the whole body is refused (the tests hold both to one result). */
export function carryRowByRow(source: JsonMap, direction: Direction): { body: Body; stash: Stash } {
  const carried = carriedRowByRow(source, direction);
  return { body: carried.body, stash: leftOver(source, carried, direction.shared) };
}

function nothingCarried(source: JsonMap): Carried {
  const hasStatus = isPlainObject(own(source, "status"));
  return {
    body: hasStatus ? { spec: {}, status: {} } : { spec: {} },
    moved: new Set(),
    rebuilt: new Set(hasStatus ? ["spec", "status"] : ["spec"]),
  };
}

/** Each row asks the target's schema about its own value (`fitPart`). */
function carriedRowByRow(source: JsonMap, direction: Direction): Carried {
  const carried = nothingCarried(source);
  for (const pair of direction.pairs) movePair(source, pair, carried);
  return carried;
}

/**
 * Every row's value moved whole, then the target's schema asked once about the rows' values
 * (`Direction.check`): the usual case, one small validator run instead of one per row. That
 * schema applies each row's field's own schema to its value, so a body it accepts means every
 * row's value fits where it went, and `carriedRowByRow` would have moved each one whole too:
 * the same result. Undefined when it is refused; the rows then decide one
 * by one.
 */
function carriedWhole(source: JsonMap, direction: Direction): Carried | undefined {
  const carried = nothingCarried(source);
  for (const pair of direction.pairs) {
    const value = getPath(source, pair.from);
    const projected = value !== undefined && pair.project ? pair.project(value) : value;
    // A field the target does not have is never moved (`fitPart` refuses it too).
    if (projected === undefined || pair.toSchema === undefined) continue;
    setPath(carried.body, pair.to, projected);
    if (projected === value) carried.moved.add(pair.fromPath);
  }
  return fits(direction.check, carried.body) ? carried : undefined;
}

function movePair(source: JsonMap, pair: Pair, carried: Carried): void {
  const value = getPath(source, pair.from);
  if (value === undefined) return;
  const projected = pair.project ? pair.project(value) : value;
  if (projected === undefined) return;
  const part = fitPart(projected, pair.toSchema, pair.fromPath);
  if (!part) return;
  setPath(carried.body, pair.to, part.value);
  // An approximation (`expose: {hostname}` → `exposeRoute: true`) also keeps the original.
  if (projected !== value) return;
  for (const path of part.moved) carried.moved.add(path);
  for (const path of part.rebuilt) carried.rebuilt.add(path);
}

/** What the rows did not take from the source's spec and status, as path → value entries. */
function leftOver(source: JsonMap, carried: Carried, shared: ReadonlySet<string>): Stash {
  const stash = new Map<string, unknown>();
  const leave = (value: unknown, path: string): void => {
    if (carried.moved.has(path)) return;
    const isRebuilt = carried.rebuilt.has(path);
    if (!isPlainObject(value) || !(isRebuilt || shared.has(path))) return void stash.set(path, value);
    const keys = Object.keys(value);
    // An empty object no row rebuilds would vanish, and its presence can matter.
    if (keys.length === 0 && !isRebuilt) stash.set(path, {});
    for (const key of keys) leave(own(value, key), childPath(path, key));
  };
  for (const key of ["spec", "status"]) {
    const value = own(source, key);
    if (value !== undefined) leave(value, key);
  }
  return stash;
}

/** Puts `stash` back into a converted `body`. Where the two disagree, the converted object wins. */
export function restore(body: JsonMap, stash: Stash, direction: Direction): void {
  const entries = new Map(stash);
  for (const { path, project } of direction.refinements) {
    const key = formatPath(path);
    if (!entries.has(key)) continue;
    const richer = entries.get(key);
    entries.delete(key);
    const converted = getPath(body, path);
    // The richer form comes back only while it still means what the other version says.
    if (converted !== undefined && project(richer) === converted) setPath(body, path, richer);
  }
  for (const [key, value] of entries) {
    const segments = parsePath(key);
    if (segments) put(body, segments, value, direction.target);
  }
}

/**
 * One entry, where the converted object has nothing. Missing parent objects are created,
 * unless one would lack a required field: then the object the entry belonged to was removed
 * in the other version (`userConfig.configMapNamespace` without `userConfig`) and it goes too.
 */
function put(body: JsonMap, segments: Segments, value: unknown, schema: Schema): void {
  const key = segments[segments.length - 1];
  if (key === undefined) return;
  const parents = segments.slice(0, -1);
  const found = deepestParent(body, parents);
  if (!found) return;
  let node = found.node;
  const missing = parents.slice(found.depth);
  if (missing.length === 0) {
    if (own(node, key) === undefined) define(node, key, value);
    return;
  }
  if (!canCreate(schema, segments, found.depth)) return;
  for (const segment of missing) {
    const created: JsonMap = {};
    define(node, segment, created);
    node = created;
  }
  define(node, key, value);
}

/** The deepest of `parents` the body has, and how deep it is; undefined when a non-object is in the way. */
function deepestParent(body: JsonMap, parents: Segments): { node: JsonMap; depth: number } | undefined {
  let node = body;
  let depth = 0;
  for (const segment of parents) {
    const next = own(node, segment);
    if (next === undefined) break;
    if (!isPlainObject(next)) return undefined;
    node = next;
    depth++;
  }
  return { node, depth };
}

/** Whether the parents of `segments` from `depth` on can be created holding only the entry (no other required field). */
function canCreate(schema: Schema, segments: Segments, depth: number): boolean {
  const last = segments.length - 1;
  const key = segments[last];
  for (let i = depth; i < last; i++) {
    const allowed = i === last - 1 ? key : undefined;
    if (requiredOf(schemaAt(schema, segments.slice(0, i + 1))).some((field) => field !== allowed)) return false;
  }
  return true;
}

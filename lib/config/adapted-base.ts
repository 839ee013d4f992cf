/**
 * The base config brought to the server line before any spec is merged in: shapes an older
 * line wrote adapted (lib/config/dialect.ts), tool_groups dropped. A kept (frozen) base's
 * adapted form is a pure function of it and the line, and every admission and sync on a
 * bundled config asks for it: it is kept beside that base, frozen too, one per line (four at
 * most), and handed out as an `editable` copy. Its frozen parts then carry their facts
 * (lib/remembered.ts) like the base's own. A base that is not kept is adapted every time.
 */
import type { Release } from "../distributions/table";
import { deepFreeze } from "../json-copy";
import { perFrozen } from "../remembered";
import { BASE_PATH, checkedBase, editable } from "./base";
import { baseLineErrors } from "./base-line";
import { adaptBase } from "./dialect";
import type { ConfigDoc } from "./doc";
import type { FieldError } from "../errors";
import { dropToolGroups } from "./resources";

export type AdaptedBase =
  | { readonly ok: true; readonly doc: ConfigDoc; readonly notes: readonly string[] }
  | { readonly ok: false; readonly errors: readonly FieldError[] };

/** `doc` (a checked base) adapted to `release`, on a private copy; refused when what is left is another line's. */
export function adaptedCopy(doc: ConfigDoc, release: Release): AdaptedBase {
  const copy = editable(doc);
  const notes = adaptBase(copy, release);
  const foreign = baseLineErrors(copy, release, BASE_PATH);
  if (foreign.length > 0) return { ok: false, errors: foreign };
  dropToolGroups(copy);
  return { ok: true, doc: copy, notes };
}

/** The adapted forms of one kept base, by line. */
const adaptedByLine = perFrozen((_doc: ConfigDoc) => new Map<Release, AdaptedBase>());

function keptAdapted(doc: ConfigDoc, release: Release): AdaptedBase {
  const byLine = adaptedByLine(doc);
  const hit = byLine.get(release);
  if (hit !== undefined) return hit;
  const adapted = adaptedCopy(doc, release);
  deepFreeze(adapted);
  byLine.set(release, adapted);
  return adapted;
}

/**
 * A checked base adapted to `release`, as a private copy the generator may edit, with what
 * adapting said; refused when what is left is another line's (lib/config/base-line.ts).
 */
export function readAdaptedBase(base: string | object, release: Release): AdaptedBase {
  const checked = checkedBase(base);
  if (!checked.ok) return checked;
  if (!Object.isFrozen(checked.doc)) return adaptedCopy(checked.doc, release);
  const kept = keptAdapted(checked.doc, release);
  return kept.ok ? { ok: true, doc: editable(kept.doc), notes: kept.notes } : kept;
}

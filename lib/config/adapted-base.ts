/**
 * The base config brought to the server line before any spec is merged in: shapes an older
 * line wrote adapted (lib/config/dialect.ts), tool_groups dropped. Both depend only on the
 * base and the line, so for a shared (cached, frozen) base the result is kept per line and
 * every sync starts from a copy of it, instead of adapting the whole base again.
 */
import type { Release } from "../distributions/table";
import { checkedBase, editable } from "./base";
import { adaptBase } from "./dialect";
import type { ConfigDoc } from "./doc";
import type { FieldError } from "../errors";
import { deepFreeze } from "../json-copy";
import { dropToolGroups } from "./resources";

export type AdaptedBase =
  | { readonly ok: true; readonly doc: ConfigDoc; readonly notes: readonly string[] }
  | { readonly ok: false; readonly errors: readonly FieldError[] };

interface Adapted {
  readonly doc: ConfigDoc;
  readonly notes: readonly string[];
}

/** Dropped with the checked base it was made from (lib/config/base.ts keeps those, bounded). */
const adaptedByBase = new WeakMap<ConfigDoc, Map<Release, Adapted>>();

function adapt(doc: ConfigDoc, release: Release): Adapted {
  const copy = editable(doc);
  const notes = adaptBase(copy, release);
  dropToolGroups(copy);
  return { doc: copy, notes };
}

function sharedAdapted(doc: ConfigDoc, release: Release): Adapted {
  let byRelease = adaptedByBase.get(doc);
  const hit = byRelease?.get(release);
  if (hit) return hit;
  const adapted = adapt(doc, release);
  deepFreeze(adapted);
  if (!byRelease) adaptedByBase.set(doc, (byRelease = new Map<Release, Adapted>()));
  byRelease.set(release, adapted);
  return adapted;
}

/** A checked base adapted to `release`, as a private copy the generator may edit, with what adapting said. */
export function readAdaptedBase(base: string | object, release: Release): AdaptedBase {
  const checked = checkedBase(base);
  if (!checked.ok) return checked;
  if (!Object.isFrozen(checked.doc)) return { ok: true, ...adapt(checked.doc, release) };
  const shared = sharedAdapted(checked.doc, release);
  return { ok: true, doc: editable(shared.doc), notes: shared.notes };
}

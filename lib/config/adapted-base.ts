/**
 * The base config brought to the server line before any spec is merged in: shapes an older
 * line wrote adapted (lib/config/dialect.ts), tool_groups dropped. Done on every sync, on a
 * private copy of the checked base: keeping the result per line gained nothing measurable
 * (docs/development.md, "Caches").
 */
import type { Release } from "../distributions/table";
import { BASE_PATH, checkedBase, editable } from "./base";
import { baseLineErrors } from "./base-line";
import { adaptBase } from "./dialect";
import type { ConfigDoc } from "./doc";
import type { FieldError } from "../errors";
import { dropToolGroups } from "./resources";

export type AdaptedBase =
  | { readonly ok: true; readonly doc: ConfigDoc; readonly notes: readonly string[] }
  | { readonly ok: false; readonly errors: readonly FieldError[] };

/**
 * A checked base adapted to `release`, as a private copy the generator may edit, with what
 * adapting said; refused when what is left is another line's (lib/config/base-line.ts).
 */
export function readAdaptedBase(base: string | object, release: Release): AdaptedBase {
  const checked = checkedBase(base);
  if (!checked.ok) return checked;
  const doc = editable(checked.doc);
  const notes = adaptBase(doc, release);
  const foreign = baseLineErrors(doc, release, BASE_PATH);
  if (foreign.length > 0) return { ok: false, errors: foreign };
  dropToolGroups(doc);
  return { ok: true, doc, notes };
}

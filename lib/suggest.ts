/**
 * "Did you mean": the one rule for every name looked up (a kind, a field, a distribution, a
 * provider, a model's provider id, a CLI command or flag). A name close to exactly one known name
 * is most likely a typo of it; short names need a closer match, so `oci` is not taken for `gcp`.
 */
import leven from "leven";

/** The known names closest to `name` (case-insensitive, sorted), when they are close enough to be a typo. */
function closest(name: string, known: Iterable<string>): string[] {
  const limit = name.length <= 4 ? 1 : 2;
  const lower = name.toLowerCase();
  let best: string[] = [];
  let bestDistance = limit + 1;
  for (const candidate of [...known].sort()) {
    const distance = leven(lower, candidate.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [[candidate], distance];
    else if (distance === bestDistance) best.push(candidate);
  }
  return best;
}

/** The known name closest to `name`, the first in sort order on a tie (a provider type: refused either way). */
export function nearest(name: string, known: Iterable<string>): string | undefined {
  return closest(name, known)[0];
}

/**
 * ` did you mean "x"?` for a near miss of exactly one name, else "" (appended to a message that
 * says what is wrong): `v1alpha3` is as near `v1alpha1` as `v1alpha2`, and a guess would mislead.
 */
export function didYouMean(name: string, known: Iterable<string>): string {
  const near = closest(name, known);
  return near.length === 1 ? ` did you mean "${near[0]}"?` : "";
}

/** `: did you mean "x"?` after a near miss, else `otherwise` (how the sentence ends without one). */
export function meant(name: string, known: Iterable<string>, otherwise: string): string {
  const near = didYouMean(name, known);
  return near === "" ? otherwise : `:${near}`;
}

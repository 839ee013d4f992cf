/**
 * "Did you mean": the one rule for every name looked up (a kind, a field, a distribution, a
 * provider, a model's provider id, a CLI command or flag). A name close to exactly one known name
 * is most likely a typo of it.
 */
/**
 * Edits between two strings, a swap of neighbours counting as one (`modles` → `models`): the
 * optimal string alignment distance.
 */
function distance(a: string, b: string): number {
  const at = (row: readonly number[], j: number): number => row[j] ?? 0;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const swapped = i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1];
      const edit = Math.min(at(previous, j) + 1, at(row, j - 1) + 1, at(previous, j - 1) + cost);
      row.push(swapped ? Math.min(edit, at(before, j - 2) + 1) : edit);
    }
    [before, previous] = [previous, row];
  }
  return at(previous, b.length);
}

/**
 * The known names closest to `name` (case-insensitive, sorted), when they are close enough to be a
 * typo: one edit up to 7 characters, two from 8 (`ghost` is not a typo of `groq`).
 */
function closest(name: string, known: Iterable<string>): string[] {
  const limit = name.length < 8 ? 1 : 2;
  const lower = name.toLowerCase();
  let best: string[] = [];
  let bestDistance = limit + 1;
  for (const candidate of [...known].sort()) {
    const d = distance(lower, candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [[candidate], d];
    else if (d === bestDistance) best.push(candidate);
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

/** The parts of a name (`vllm-openai` → vllm, openai), to rank known names that share one first. */
const parts = (name: string): string[] =>
  name
    .toLowerCase()
    .split(/[-_.:]+/)
    .filter(Boolean);

/**
 * The `count` known names nearest to `name`, however far (for a name that is no typo, the
 * closest to show beside the refusal): names sharing a part with it first (`vllm-openai` →
 * `openai`, `vllm`), then by edits, then in sort order.
 */
export function closestNames(name: string, known: Iterable<string>, count = 3): string[] {
  const own = new Set(parts(name));
  const lower = name.toLowerCase();
  const ranked = [...new Set(known)].map((candidate) => ({
    candidate,
    shares: parts(candidate).some((p) => own.has(p)) ? 0 : 1,
    edits: distance(lower, candidate.toLowerCase()),
  }));
  ranked.sort((a, b) => a.shares - b.shares || a.edits - b.edits || (a.candidate < b.candidate ? -1 : 1));
  return ranked.slice(0, count).map((r) => r.candidate);
}

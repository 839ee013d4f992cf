/** Small list helpers shared by the generator and the child builders. */

/** Entries of `theirs` replace entries of `ours` with the same `key` in place; the rest are appended. */
export function upsertBy<T extends object>(ours: readonly T[], theirs: readonly T[], key: keyof T): T[] {
  const out = [...ours];
  for (const entry of theirs) {
    const at = indexOfKey(out, key, entry[key]);
    if (at >= 0) out[at] = entry;
    else out.push(entry);
  }
  return out;
}

/** `findIndex` without a closure per entry: the child builders upsert env, volumes and mounts on every sync. */
function indexOfKey<T extends object>(list: readonly T[], key: keyof T, value: T[keyof T]): number {
  for (let i = 0; i < list.length; i++) if (list[i]![key] === value) return i;
  return -1;
}

/** True when `value` is a list of strings: for lists read from files, labels or requests. */
export function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

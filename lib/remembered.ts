/**
 * The two ways a sync remembers pure results between calls, each bounded by what it is keyed on:
 *
 * - `perText`: small lookup tables for pure string functions whose inputs repeat on every sync
 *   (provider ids, endpoints, YAML keys). A table empties itself at `limit` entries, so it needs
 *   neither an LRU nor a TTL (docs/development.md, "Caches").
 * - `perFrozen`: facts of frozen objects, the shared parts of a checked base config
 *   (lib/config/base.ts). Kept in a WeakMap, they go with the object; a mutable object is
 *   computed every time, since it may change.
 */

export function perText<V>(compute: (text: string) => V, limit: number): (text: string) => V {
  // Boxed, so that an undefined answer is remembered too.
  const table = new Map<string, { readonly value: V }>();
  return (text) => {
    const hit = table.get(text);
    if (hit) return hit.value;
    const value = compute(text);
    if (table.size >= limit) table.clear();
    table.set(text, { value });
    return value;
  };
}

export function perFrozen<K extends object, V>(compute: (key: K) => V): (key: K) => V {
  const kept = new WeakMap<K, V>();
  return (key) => {
    const hit = kept.get(key);
    if (hit !== undefined) return hit;
    const value = compute(key);
    if (Object.isFrozen(key)) kept.set(key, value);
    return value;
  };
}

/**
 * Facts of frozen objects: the shared parts of a kept base config (lib/config/base.ts). Kept in
 * a WeakMap, a fact goes with its object; a mutable object's is computed every time, since it
 * may change. Only kept outcomes are frozen, so these facts live only as long as a kept base and
 * are counted in its size (lib/caches.ts `frozenBytes`).
 */
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

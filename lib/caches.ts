/**
 * The one memory policy (docs/development.md, "Caches"): every cache and lookup table the
 * service keeps between requests is an lru-cache bounded in bytes (`maxSize` with a size
 * computed from the strings and Buffers an entry holds), and all of them share one budget,
 * `LLSD_CACHE_MB`, each its fixed share. A value larger than a small fraction of its cache is
 * computed and not kept, so no request, however large its CR, can fill a cache with one entry
 * or push the heap past the Deployment's cap: at worst it evicts, and is computed again.
 *
 * The budget is set once, at start (hooks/, from the environment); the CLI and tests run with
 * the default. A cache built before a change of budget is rebuilt empty on its next use.
 */
import { hash, randomBytes } from "node:crypto";
import { LRUCache } from "lru-cache";

/** Fits `--max-old-space-size=160` with room for the requests in flight (docs/development.md). */
export const CACHE_BUDGET_MB = 48;

/** Each cache's part of the budget. */
export const CACHE_SHARES = Object.freeze({
  /** lib/sync/memo.ts: the last answer per unchanged parent. */
  "sync memo": 0.3,
  /** lib/sync/config-memory.ts: each parent's last generated config, reused while its spec and inputs are the same. */
  "generated configs": 0.2,
  /** lib/sync/ca-bundle.ts: parsed CA certificates by ConfigMap (objectKey, content fingerprint) and key. */
  "CA certificates": 0.05,
  /** lib/sync/override-parse.ts: checked override configs by ConfigMap (objectKey, content fingerprint). */
  "override configs": 0.05,
  /** lib/config/base.ts: checked base configs by text, with the facts kept beside them. */
  "base configs": 0.15,
  /** lib/oci/image-cache.ts: what was read from an image, by digest (half for base configs, half for provider metadata). */
  "image reads": 0.1,
  /** lib/oci: tag → digest, failed reads, registry tokens and challenges, SSRF verdicts. */
  "registry lookups": 0.05,
  /** lib/live: each parent's running-server answer. */
  "live status": 0.05,
  /** hooks/parent-phases.ts: each parent's last phase, for the metric. */
  "parent phases": 0.05,
});

export type CacheName = keyof typeof CACHE_SHARES;

/** A value above this part of its cache's bytes is computed, not kept. */
export const MAX_ENTRY_FRACTION = 1 / 32;

let budgetBytes = CACHE_BUDGET_MB * 2 ** 20;
let off: ReadonlySet<CacheName> = new Set();
/** Bumped by every change of policy: shared caches built under an older one are rebuilt. */
let generation = 0;

/** The budget in bytes (0 turns every cache off); `without` turns some off (the benchmark's comparisons). */
export function setCachePolicy(bytes: number, without: readonly CacheName[] = []): void {
  budgetBytes = Math.max(0, Math.floor(bytes));
  off = new Set(without);
  generation += 1;
}

/** The bytes `name` may hold under the current budget; 0: off. */
export function cacheBytes(name: CacheName): number {
  return off.has(name) ? 0 : Math.floor(budgetBytes * CACHE_SHARES[name]);
}

/**
 * The "registry lookups" share is split evenly between its seven tables: tag → digest and
 * failed reads for each of the resolver's two image caches, SSRF verdicts, registry tokens and
 * auth challenges.
 */
export function registryLookupBytes(): number {
  return Math.floor(cacheBytes("registry lookups") / 7);
}

/** What V8 holds for a string at most: two bytes per UTF-16 unit, plus its header. */
export function textBytes(text: string): number {
  return 16 + 2 * text.length;
}

/** A conservative count of the heap JSON data holds: its strings, and a slot per key, item and number. */
export function dataBytes(value: unknown): number {
  let bytes = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === "string") bytes += textBytes(next);
    else if (Buffer.isBuffer(next)) bytes += 96 + next.length;
    else if (Array.isArray(next)) {
      const items: readonly unknown[] = next;
      bytes += 32 + 8 * items.length;
      pending.push(...items);
    } else if (typeof next === "object" && next !== null) {
      bytes += 32;
      for (const [key, item] of Object.entries(next)) {
        bytes += 16 + textBytes(key);
        pending.push(item);
      }
    } else bytes += 8;
  }
  return bytes;
}

/**
 * A kept frozen object also carries the facts kept beside it while it lives (lib/remembered.ts
 * `perFrozen`, and its parts' emitted YAML, lib/config/yaml-emit.ts), which come to at most
 * about twice its data again: counted as three times its data.
 */
export function frozenBytes(value: unknown): number {
  return 3 * dataBytes(value);
}

export interface ByteCacheOptions<K extends NonNullable<unknown>, V extends NonNullable<unknown>> {
  /** The entry's bytes: what the key and value hold (textBytes, dataBytes, Buffer lengths). */
  readonly sizeOf: (value: V, key: K) => number;
  /** An injected clock for entries with a TTL (lib/lru-clock.ts). */
  readonly lru?: Omit<LRUCache.Options<K, V, unknown>, "max" | "maxSize" | "maxEntrySize" | "sizeCalculation">;
}

/**
 * An LRU of `bytes` at most, least recently used dropped first; undefined when `bytes` is 0
 * (the caller computes every time). An entry above MAX_ENTRY_FRACTION of it is not kept.
 */
export function byteCache<K extends NonNullable<unknown>, V extends NonNullable<unknown>>(
  bytes: number,
  options: ByteCacheOptions<K, V>,
): LRUCache<K, V> | undefined {
  const maxSize = Math.floor(bytes);
  if (maxSize <= 0) return undefined;
  return new LRUCache<K, V>({
    ...options.lru,
    maxSize,
    maxEntrySize: Math.max(1, Math.floor(maxSize * MAX_ENTRY_FRACTION)),
    sizeCalculation: (value, key) => Math.max(1, Math.ceil(options.sizeOf(value, key))),
  });
}

/**
 * A process-wide cache (module state, for pure functions of static or shared data) under its
 * share of the budget, rebuilt empty when the policy changes.
 */
export function sharedCache<K extends NonNullable<unknown>, V extends NonNullable<unknown>>(
  name: CacheName,
  sizeOf: (value: V, key: K) => number,
): () => LRUCache<K, V> | undefined {
  let built: { generation: number; cache: LRUCache<K, V> | undefined } | undefined;
  return () => {
    if (built?.generation !== generation) built = { generation, cache: byteCache(cacheBytes(name), { sizeOf }) };
    return built.cache;
  };
}

/** Drawn at start, never written anywhere: a fingerprint cannot be read back, nor a short Secret value guessed, outside the process. */
const FINGERPRINT_SALT = randomBytes(32).toString("base64");

/** `value` (JSON) as a salted SHA-256: stands for content, Secret values included, in a key (one-shot: no HMAC object a call). */
export function fingerprint(value: unknown): string {
  return hash("sha256", FINGERPRINT_SALT + JSON.stringify(value), "base64url");
}

/** What `objectKey` reads of a Kubernetes object (lib/wire/metacontroller.ts KubeObject has it). */
export interface KeyedObject {
  readonly apiVersion: string;
  readonly metadata: { readonly name: string; readonly namespace?: string; readonly [k: string]: unknown };
}

/**
 * The one key of an object (the sync memo's and every per-object cache's): apiVersion, namespace,
 * name, uid and resourceVersion; undefined without uid or resourceVersion (not from the apiserver).
 * A copied or restored object can share another's uid and version, and the apiserver serves one
 * CR at every version of its CRD under one uid and resourceVersion. With `content`, a fingerprint
 * of the whole object: after an etcd restore the apiserver hands versions out again.
 */
export function objectKey(object: KeyedObject, content = false): string | undefined {
  if (!hasObjectKey(object)) return undefined;
  const { uid, resourceVersion, name, namespace } = object.metadata;
  const key = [object.apiVersion, namespace ?? null, name ?? null, uid, resourceVersion];
  return JSON.stringify(content ? [...key, fingerprint(object)] : key);
}

/** Whether `objectKey` has a key for the object (it came from the apiserver), without building it. */
export function hasObjectKey(object: KeyedObject): boolean {
  const { uid, resourceVersion } = object.metadata;
  return typeof uid === "string" && uid !== "" && typeof resourceVersion === "string" && resourceVersion !== "";
}

/**
 * A shared cache of values computed from one `part` of an object, kept under its `objectKey`
 * with content, never its text (without one, computed every time). `share` readies a value
 * before later calls share it (a freeze).
 */
export function perObjectVersion<V extends NonNullable<unknown>>(
  name: CacheName,
  sizeOf: (value: V) => number,
  share: (value: V) => void = () => undefined,
): (object: KeyedObject | undefined, part: string, compute: () => V) => V {
  const cache = sharedCache<string, V>(name, sizeOf);
  return (object, part, compute) => {
    const key = object && objectKey(object, true);
    const kept = key === undefined ? undefined : cache();
    if (!kept) return compute();
    const id = `${key}${JSON.stringify(part)}`;
    const hit = kept.get(id);
    if (hit) return hit;
    const value = compute();
    share(value);
    kept.set(id, value);
    return value;
  };
}

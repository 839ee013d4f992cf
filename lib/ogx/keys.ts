/**
 * camelCase (the peer's spec) ⇄ snake_case (the server's config, our `settings`) for the nested
 * objects the peer's generator rewrites key by key (`network`, `vectorIndex`, `vectorStoresConfig`,
 * `compactionConfig`): ogx-ai/ogx-k8s-operator pkg/config/provider.go at commit 1784464.
 */
import { define, isPlainObject, own, type JsonMap } from "../json";

/**
 * Keys the generic rule gets wrong. The peer writes `proxy.cacert` as `ca_cert`, which no line's
 * `ProxyConfig` has (it reads `cacert`, so the server would ignore it): none, the key is kept.
 */
const SPECIAL: readonly (readonly [string, string])[] = [];
/** Objects whose keys are data (HTTP header names), never renamed. */
const VERBATIM = new Set(["headers"]);

export const snakeKey = (key: string): string =>
  SPECIAL.find(([camel]) => camel === key)?.[1] ?? key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
export const camelKey = (key: string): string =>
  SPECIAL.find(([, snake]) => snake === key)?.[0] ?? key.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

function rename(value: unknown, renameKey: (key: string) => string): unknown {
  if (!isPlainObject(value)) return value;
  const out: JsonMap = {};
  for (const key of Object.keys(value)) {
    const child = own(value, key);
    define(out, renameKey(key), VERBATIM.has(key) ? child : rename(child, renameKey));
  }
  return out;
}

/** A peer value as the server's config holds it: objects renamed to snake_case, the rest as is. */
export const toSnake = (value: unknown): unknown => rename(value, snakeKey);
/** The inverse of `toSnake`. */
export const toCamel = (value: unknown): unknown => rename(value, camelKey);

/**
 * The peer's `vectorIndex` (`{hnsw: {m, efConstruction, efSearch}}` or `{ivfFlat: {nlist,
 * nprobe}}`) as pgvector's config class reads it: a union picked by `type` (`HNSW`, `IVFFlat`),
 * whose IVFFlat keys are `lists` and `probes`. Written the peer's way, the server stops at
 * start-up ("Unable to extract tag using discriminator 'type'").
 */
const INDEXES = [
  { peer: "hnsw", type: "HNSW", keys: [] as readonly (readonly [string, string])[] },
  {
    peer: "ivfFlat",
    type: "IVFFlat",
    keys: [
      ["nlist", "lists"],
      ["nprobe", "probes"],
    ] as const,
  },
];

function indexToServer(value: unknown): unknown {
  if (!isPlainObject(value) || Object.keys(value).length !== 1) return toSnake(value);
  const kind = INDEXES.find((k) => own(value, k.peer) !== undefined);
  const params = kind ? own(value, kind.peer) : undefined;
  if (!kind || !isPlainObject(params)) return toSnake(value);
  const out: JsonMap = { type: kind.type };
  for (const key of Object.keys(params)) {
    const renamed = kind.keys.find(([peer]) => peer === key)?.[1] ?? snakeKey(key);
    define(out, renamed, own(params, key));
  }
  return out;
}

function indexToPeer(value: unknown): unknown {
  const kind = INDEXES.find((k) => own(value, "type") === k.type);
  if (!kind || !isPlainObject(value)) return toCamel(value);
  const params: JsonMap = {};
  for (const key of Object.keys(value)) {
    if (key === "type") continue;
    define(params, kind.keys.find(([, server]) => server === key)?.[0] ?? camelKey(key), own(value, key));
  }
  return { [kind.peer]: params };
}

/** A peer field's value as the setting it becomes. */
export const toSetting = (setting: string, value: unknown): unknown =>
  setting === "vector_index" ? indexToServer(value) : toSnake(value);
/** The inverse of `toSetting`. */
export const fromSetting = (setting: string, value: unknown): unknown =>
  setting === "vector_index" ? indexToPeer(value) : toCamel(value);

/**
 * A model of Metacontroller's default apply (`--apply-strategy dynamic-apply`), written from
 * `pkg/dynamic/apply/apply.go` of metacontroller/metacontroller at commit 281aaf67: a 3-way merge
 * of observed, last applied and desired. Fields in `lastApplied` but not in `desired` are removed;
 * fields only the cluster (or another operator) set stay; lists whose items all carry one of
 * the conventional keys (`containerPort`, `port`, `mountPath`, `name`, `uid`, `ip`, `path`, in
 * that precedence) merge item by item, other lists are replaced. A takeover has no last-applied
 * record, so whatever the peer operator alone wrote survives the first apply.
 */
type Json = unknown;
type JsonObject = { [key: string]: Json };

const isObject = (v: Json): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

const MERGE_KEYS = ["containerPort", "port", "mountPath", "name", "uid", "ip", "path"];

/** The key every item of every list has, by precedence; undefined when some item is not an object. */
function listKey(...lists: readonly Json[][]): string | undefined {
  let common: Set<string> | undefined;
  for (const item of lists.flat()) {
    if (!isObject(item)) return undefined;
    const keys = Object.keys(item);
    common = common === undefined ? new Set(keys) : new Set(keys.filter((k) => common!.has(k)));
  }
  return MERGE_KEYS.find((k) => common?.has(k));
}

const keyOf = (item: Json, key: string): string => String((item as JsonObject)[key]);
const byKey = (list: readonly Json[], key: string): JsonObject =>
  Object.fromEntries(list.map((item) => [keyOf(item, key), item]));

function mergeObject(destination: JsonObject, last: JsonObject, desired: JsonObject): JsonObject {
  for (const key of Object.keys(last)) if (!(key in desired)) delete destination[key];
  for (const [key, value] of Object.entries(desired)) destination[key] = merge(destination[key], last[key], value);
  return destination;
}

function mergeList(destination: Json[], last: Json[], desired: Json[]): Json[] {
  const key = listKey(destination, last, desired);
  if (key === undefined) return desired;
  const merged = mergeObject(byKey(destination, key), byKey(last, key), byKey(desired, key));
  // Items already in the cluster keep their place; new ones follow in desired order.
  const order = [...destination, ...desired].map((item) => keyOf(item, key));
  return [...new Set(order)].filter((k) => k in merged).map((k) => merged[k]);
}

function merge(destination: Json, last: Json, desired: Json): Json {
  if (isObject(destination) && (isObject(desired) || desired === undefined))
    return mergeObject(destination, isObject(last) ? last : {}, isObject(desired) ? desired : {});
  if (Array.isArray(destination) && Array.isArray(desired))
    return mergeList(destination, Array.isArray(last) ? last : [], desired);
  return desired;
}

/** What the cluster holds after Metacontroller applies `desired` over `observed` (no record of a previous apply when `lastApplied` is undefined). */
export function applied<T>(observed: T, desired: Json, lastApplied: Json = {}): T {
  return merge(structuredClone(observed), lastApplied, structuredClone(desired)) as T;
}

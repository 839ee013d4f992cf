/**
 * The sync hook's side of `spec.baseConfig`: the base text from the ConfigMap Metacontroller sent
 * in `related`, and the identity config memory keeps it under (lib/sync/config-memory.ts): the
 * ConfigMap's `objectKey` with its content's fingerprint, and the key, as the override ConfigMap
 * is kept (lib/sync/override-parse.ts). An edit of the ConfigMap changes the identity, so the
 * config is generated again (and, when its text changed, the pods roll); a ConfigMap without
 * uid or resourceVersion (not from the apiserver) has no identity, and is generated from every time.
 */
import type { ConfigMapKey } from "../api/canonical";
import { objectKey } from "../caches";
import { KEYS, lookup, stringEntries, type ObjectMap } from "../wire/metacontroller";

export interface ConfigMapBase {
  readonly text: string;
  /** What config memory compares; absent: not kept. */
  readonly id?: string;
}

/** The text of `ref`'s key in `related`; undefined when the ConfigMap or the key is missing (a reference check says so). */
export function relatedBase(
  ref: ConfigMapKey,
  related: ObjectMap | undefined,
  namespace: string,
): ConfigMapBase | undefined {
  const configMap = lookup(related, KEYS.configMap, namespace, ref.configMapName);
  const text = configMap ? stringEntries(configMap.data)[ref.key] : undefined;
  if (configMap === undefined || text === undefined) return undefined;
  const key = objectKey(configMap, true);
  return key === undefined ? { text } : { text, id: `configmap@${key}${JSON.stringify(ref.key)}` };
}

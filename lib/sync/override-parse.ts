/**
 * The override ConfigMap's config.yaml checked and parsed (lib/config/override.ts), kept by the
 * ConfigMap (lib/caches.ts `objectKey`, with its content's fingerprint) and key: the `yaml`
 * library takes about 0.3 ms for a 1.6 KB config, and every resync of an override CR reads the
 * same ConfigMap (docs/development.md, "Caches"). A kept parse is frozen: a step that edited it
 * would throw.
 */
import type { ConfigMapKey } from "../api/canonical";
import { frozenBytes, perObjectVersion, textBytes } from "../caches";
import { checkOverrideConfig, type OverrideCheck } from "../config/override";
import { deepFreeze } from "../json-copy";
import { KEYS, lookup, stringEntries, type KubeObject, type ObjectMap } from "../wire/metacontroller";

/** What a kept check holds: the text and the frozen parse (with the facts kept beside it), or the error. */
function checkBytes(check: OverrideCheck): number {
  if (!check.ok) return textBytes(check.error.path) + textBytes(check.error.message);
  return textBytes(check.configYaml) + frozenBytes(check.parsed);
}

const checkedByVersion = perObjectVersion<OverrideCheck>("override configs", checkBytes, deepFreeze);

function checkOf(ref: ConfigMapKey, configMap: KubeObject | undefined): OverrideCheck {
  return checkOverrideConfig(ref, configMap ? { [ref.configMapName]: stringEntries(configMap.data) } : {});
}

/** The ConfigMap `ref` names in `namespace`, from `related`, checked as the override config. */
export function overrideCheck(ref: ConfigMapKey, related: ObjectMap | undefined, namespace: string): OverrideCheck {
  const configMap = lookup(related, KEYS.configMap, namespace, ref.configMapName);
  return checkedByVersion(configMap, ref.key, () => checkOf(ref, configMap));
}

/**
 * `overrideConfig`: the user's own config.yaml, used as is. It still has to exist, hold its key
 * (`config.yaml` unless `key` says another), parse, and carry a supported version, or the
 * server would not start.
 */
import { fieldError, listOf, type FieldError } from "../errors";
import { CONFIG_FILE_NAME } from "../defaults";
import type { ConfigMapKey } from "../api/canonical";
import { versionError } from "./base";
import { isPlainObject } from "../json";
import type { JsonMap } from "../json";
import { parseYaml } from "./yaml";

/** ConfigMaps of the CR's namespace by name → their `data`. */
export type ConfigMapData = { readonly [name: string]: { readonly [key: string]: string } };

const PATH = "spec.overrideConfig.configMapName";

/** An override ConfigMap's config.yaml, checked and parsed, or what is wrong with it. */
export type OverrideCheck =
  | { readonly ok: true; readonly configYaml: string; readonly parsed: JsonMap }
  | { readonly ok: false; readonly error: FieldError };

/** Where a config.yaml is read from a ConfigMap, for the messages: the field and what the key is for. */
export interface ConfigMapRole {
  readonly path: string;
  readonly use: string;
}

const OVERRIDE: ConfigMapRole = { path: PATH, use: `the server reads /etc/llama-stack/${CONFIG_FILE_NAME}` };

/** The text of `ref`'s key, or why there is none (the ConfigMap or the key is missing). */
export function configMapText(
  ref: ConfigMapKey,
  configMaps: ConfigMapData,
  role: ConfigMapRole,
): { readonly ok: true; readonly text: string } | { readonly ok: false; readonly error: FieldError } {
  const { configMapName: name, key } = ref;
  const data = configMaps[name];
  if (data === undefined) {
    return {
      ok: false,
      error: fieldError(
        role.path,
        `ConfigMap "${name}" not found in the CR's namespace; create it with a key "${key}" holding the server config`,
      ),
    };
  }
  const text = data[key];
  if (text === undefined) {
    return {
      ok: false,
      error: fieldError(
        role.path,
        `ConfigMap "${name}" has no key "${key}" (it has ${listOf(Object.keys(data).sort())}); ${role.use}`,
      ),
    };
  }
  return { ok: true, text };
}

export function checkOverrideConfig(ref: ConfigMapKey, configMaps: ConfigMapData): OverrideCheck {
  const read = configMapText(ref, configMaps, OVERRIDE);
  if (!read.ok) return read;
  const { configMapName: name, key } = ref;
  const parsed = parseYaml(read.text);
  if (!parsed.ok || !isPlainObject(parsed.value)) {
    return {
      ok: false,
      error: fieldError(
        PATH,
        `ConfigMap "${name}" key "${key}" is not a YAML mapping (${parsed.ok ? "wrong type" : parsed.message})`,
      ),
    };
  }
  const bad = versionError(parsed.value.version, parsed.versionSource);
  if (bad) return { ok: false, error: fieldError(PATH, `ConfigMap "${name}": ${bad.message}`) };
  // The parse is handed on: every later reader of this text (notes, external providers) reads it, not the text again.
  return { ok: true, configYaml: read.text, parsed: parsed.value };
}

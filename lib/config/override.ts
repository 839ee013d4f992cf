/**
 * `overrideConfig`: the user's own config.yaml, used as is. It still has to exist, hold the key
 * `config.yaml`, parse, and carry a supported version, or the server would not start.
 */
import { fieldError, listOf, type FieldError } from "../errors";
import { CONFIG_FILE_NAME } from "../defaults";
import { versionError } from "./base";
import { isMap } from "./doc";
import type { JsonMap } from "../conversion/paths";
import { parseYaml } from "./yaml";

/** ConfigMaps of the CR's namespace by name → their `data`. */
export type ConfigMapData = { readonly [name: string]: { readonly [key: string]: string } };

const PATH = "spec.overrideConfig.configMapName";

/** An override ConfigMap's config.yaml, checked and parsed, or what is wrong with it. */
export type OverrideCheck =
  | { readonly ok: true; readonly configYaml: string; readonly parsed: JsonMap }
  | { readonly ok: false; readonly error: FieldError };

export function checkOverrideConfig(name: string, configMaps: ConfigMapData): OverrideCheck {
  const data = configMaps[name];
  if (data === undefined) {
    return {
      ok: false,
      error: fieldError(
        PATH,
        `ConfigMap "${name}" not found in the CR's namespace; create it with a key "${CONFIG_FILE_NAME}" holding the server config`,
      ),
    };
  }
  const text = data[CONFIG_FILE_NAME];
  if (text === undefined) {
    return {
      ok: false,
      error: fieldError(
        PATH,
        `ConfigMap "${name}" has no key "${CONFIG_FILE_NAME}" (it has ${listOf(Object.keys(data).sort())}); the server reads /etc/llama-stack/${CONFIG_FILE_NAME}`,
      ),
    };
  }
  const parsed = parseYaml(text);
  if (!parsed.ok || !isMap(parsed.value)) {
    return {
      ok: false,
      error: fieldError(
        PATH,
        `ConfigMap "${name}" key "${CONFIG_FILE_NAME}" is not a YAML mapping (${parsed.ok ? "wrong type" : parsed.message})`,
      ),
    };
  }
  const bad = versionError(parsed.value.version, parsed.versionSource);
  if (bad) return { ok: false, error: fieldError(PATH, `ConfigMap "${name}": ${bad.message}`) };
  // The parse is handed on: every later reader of this text (notes, external providers) reads it, not the text again.
  return { ok: true, configYaml: text, parsed: parsed.value };
}

/**
 * `spec.baseConfig`: the base config.yaml read from a ConfigMap key of the CR's namespace instead
 * of the image's labels or the bundled copy. It goes through the same checks as any base
 * (lib/config/base.ts: `version: 2`, the run config's shape; then the line's adaptations), and
 * what those checks refuse is said at `spec.baseConfig`, naming the ConfigMap, its key and the
 * place in the file.
 */
import type { ConfigMapKey } from "../api/canonical";
import type { FieldError } from "../errors";
import { BASE_PATH } from "./base";
import { configMapText, type ConfigMapData, type ConfigMapRole } from "./override";

export const BASE_CONFIG_PATH = "spec.baseConfig";

const ROLE: ConfigMapRole = {
  path: `${BASE_CONFIG_PATH}.configMapName`,
  use: "put the base config.yaml there, or set baseConfig.key to the key that holds it",
};

/** The base text of `ref` among `configMaps` (`llsd render` reads them from files), or why there is none. */
export function baseConfigText(
  ref: ConfigMapKey,
  configMaps: ConfigMapData,
): { readonly ok: true; readonly text: string } | { readonly ok: false; readonly error: FieldError } {
  return configMapText(ref, configMaps, ROLE);
}

const isBaseError = (e: FieldError): boolean => e.path === BASE_PATH || e.path.startsWith(`${BASE_PATH}.`);

/** Errors about the base file, said at spec.baseConfig with the ConfigMap, key and place in the file; others as they are. */
export function baseConfigErrors(ref: ConfigMapKey | undefined, errors: readonly FieldError[]): FieldError[] {
  if (!ref) return [...errors];
  return errors.map((e) => {
    if (!isBaseError(e)) return e;
    const within = e.path === BASE_PATH ? "" : ` at ${e.path.slice(BASE_PATH.length + 1)}`;
    return {
      path: BASE_CONFIG_PATH,
      message: `ConfigMap ${ref.configMapName} key "${ref.key}"${within}: ${e.message}`,
    };
  });
}

/**
 * An overrideConfig (a v1alpha1 `userConfig` is one once converted) is the user's own file,
 * mounted as is: each provider the server would start is checked against its type's config
 * class on the line, whole (nothing is merged under it), and what is wrong is reported as a
 * warning and a status note, never a refusal: the hooks do not own that file.
 */
import { fieldError, type FieldError } from "../errors";
import type { CanonicalSpec } from "../api/canonical";
import type { Release } from "../distributions/table";
import { isPlainObject } from "../json";
import type { JsonMap } from "../json";
import { checkOverrideConfig, type ConfigMapData } from "./override";
import { configProblems } from "./provider-settings";
import { settingsEnv, substitution, type ContainerEnv } from "./settings-env";

const PATH = "spec.overrideConfig.configMapName";

/** Providers the server starts: not `__disabled__`, not switched off by env, not an external module's. */
function startedEntries(parsed: JsonMap, env: ContainerEnv) {
  const substitute = substitution(env);
  const providers = isPlainObject(parsed.providers) ? parsed.providers : {};
  const out: { at: string; api: string; type: string; config: unknown }[] = [];
  for (const api of Object.keys(providers)) {
    const list = providers[api];
    if (!Array.isArray(list)) continue;
    list.forEach((entry, i) => {
      if (!isPlainObject(entry) || typeof entry.provider_type !== "string" || entry.module !== undefined) return;
      const id = typeof entry.provider_id === "string" ? substitute(entry.provider_id) : { value: entry.provider_id };
      // An id known to resolve to nothing: the server skips the provider; an unknown one may start it.
      if (id !== undefined && (!id.value || id.value === "__disabled__")) return;
      out.push({ at: `providers.${api}[${i}].config`, api, type: entry.provider_type, config: entry.config });
    });
  }
  return out;
}

/**
 * StackConfig's own start-up rule on every line (`validate_distro_name_migration`, core/datatypes.py
 * at v0.7.3 … v1.3.0): a config with neither `distro_name` nor `image_name` stops the server.
 */
function nameProblems(parsed: JsonMap): { path: string; message: string }[] {
  const named = (key: string) => parsed[key] !== undefined && parsed[key] !== null && parsed[key] !== "";
  if (named("distro_name") || named("image_name")) return [];
  return [
    {
      path: "distro_name",
      message:
        "the server stops at start-up without distro_name (or the older image_name): \"Either 'distro_name' or 'image_name' must be provided\"; add distro_name: <a name for this server>",
    },
  ];
}

/** What the line's classes say of the override's providers, as warnings on the overrideConfig field. */
export function overrideConfigWarnings(
  configMapName: string,
  parsed: JsonMap,
  release: Release,
  env: ContainerEnv,
): FieldError[] {
  return [...nameProblems(parsed), ...configProblems(startedEntries(parsed, env), release, env)].map((e) =>
    fieldError(PATH, `ConfigMap ${configMapName} (mounted as is; change it there): ${e.path}: ${e.message}`),
  );
}

/** The same, for a spec whose override ConfigMap is among `configMaps` (`llsd validate` with the ConfigMap beside the CR). */
export function overrideWarnings(
  spec: CanonicalSpec,
  configMaps: ConfigMapData | undefined,
  release: Release,
): FieldError[] {
  const ref = spec.overrideConfig;
  if (ref === undefined || configMaps?.[ref.configMapName] === undefined) return [];
  const read = checkOverrideConfig(ref, configMaps);
  return read.ok ? overrideConfigWarnings(ref.configMapName, read.parsed, release, settingsEnv(spec)) : [];
}

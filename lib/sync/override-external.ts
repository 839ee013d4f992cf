/**
 * overrideConfig with external providers: the user's config.yaml is the base and the external
 * providers are merged into it (docs/external-providers.md: the base, or the user's override
 * config, then the external providers). The result is a generated ConfigMap, hash-named like any
 * other; the user's ConfigMap itself is never changed.
 */
import { readBase } from "../config/base";
import type { JsonMap } from "../json";
import { providedEnv, requireProvidedEnv } from "../config/env-check";
import { mergeExternalProviders, type ResolvedExternalProvider } from "../config/external-providers";
import { sha256, toConfigYaml } from "../config/yaml";
import { names } from "../names";
import type { ConfigPlan, PlanInput } from "./plan-types";
import type { SyncFailure } from "../status/status";

export function overrideWithExternal(
  input: PlanInput,
  configMapName: string,
  parsed: JsonMap,
  external: readonly ResolvedExternalProvider[],
): ConfigPlan | { failure: SyncFailure } {
  const base = readBase(parsed);
  if (!base.ok) {
    const errors = base.errors.map((e) => ({
      ...e,
      path: "spec.overrideConfig.configMapName",
      message: `ConfigMap ${configMapName}: ${e.message}`,
    }));
    return { failure: { type: "ConfigGenerated", reason: "OverrideConfigInvalid", errors } };
  }
  const doc = base.doc;
  const replaced = mergeExternalProviders(doc, input.spec, external);
  const env = requireProvidedEnv(doc, providedEnv(input.spec, []));
  if (env.errors.length > 0)
    return { failure: { type: "ConfigGenerated", reason: "EnvironmentMissing", errors: env.errors } };
  const text = toConfigYaml(doc);
  const hash = sha256(text);
  const generated = names.config(input.name, hash);
  return {
    mounted: { source: "generated", configMapName: generated, hash, configYaml: text },
    inUse: { source: "override", configMapName: generated, hash },
    secretEnv: [],
    plainEnv: [],
    notes: [
      `config.yaml is ConfigMap ${configMapName} with the external providers merged in (ConfigMap ${generated})`,
      ...replaced,
      ...env.notes,
    ],
  };
}

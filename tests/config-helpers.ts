/** Helpers for generator tests: run the real pipeline on a bundled base and read the YAML back. */
import { parse } from "yaml";
import { normalize } from "../lib/api/normalize";
import type { LlsdSpecV1alpha2 } from "../lib/api/v1alpha2";
import { bundledBaseConfig } from "../lib/distributions/bundled";
import type { Release } from "../lib/distributions/table";
import { generate, type Generated, type GenerateResult } from "../lib/config/generate";
import type { ConfigDoc, ProviderEntry } from "../lib/config/doc";
import type { JsonMap } from "../lib/json";

export function base(name = "starter", release: Release = "0.7"): string {
  const text = bundledBaseConfig(name, release);
  if (text === undefined) throw new Error(`no bundled base ${name}-${release}`);
  return text;
}

export function baseDoc(name = "starter", release: Release = "0.7"): ConfigDoc {
  return parse(base(name, release)) as ConfigDoc;
}

export function run(
  spec: LlsdSpecV1alpha2,
  release: Release = "0.7",
  baseConfig: string | object = base("starter", release),
): GenerateResult {
  return generate(normalize(spec), baseConfig, release, { name: "demo" });
}

export function ok(result: GenerateResult): Generated {
  if (!result.ok) throw new Error(`expected success, got ${JSON.stringify(result.errors)}`);
  return result;
}

export function doc(result: GenerateResult): ConfigDoc {
  return parse(ok(result).configYaml) as ConfigDoc;
}

export function provider(config: ConfigDoc, api: string, id: string): ProviderEntry | undefined {
  return (config.providers[api] ?? []).find((p) => p.provider_id === id);
}

export function models(config: ConfigDoc): JsonMap[] {
  return config.registered_resources?.models ?? [];
}

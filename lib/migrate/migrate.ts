/**
 * `llsd migrate`: the idiomatic upgrade a conversion webhook cannot do. A v1alpha1 CR passed
 * its server settings as env vars (migration guide); this recognises those patterns in a
 * converted v1alpha2 object and rewrites them as providers and models, reporting each change
 * and everything it left as it was. Pure: object in, object and report out.
 */
import type { JsonObject, LlsdSpecV1alpha2, ProviderInput } from "../api/v1alpha2";

interface EnvVar {
  readonly name: string;
  readonly value?: string;
  readonly valueFrom?: { readonly secretKeyRef?: { readonly name: string; readonly key: string } };
}

export interface MigrationReport {
  readonly changed: readonly string[];
  readonly kept: readonly string[];
}

interface Pattern {
  readonly provider: "vllm" | "ollama";
  readonly url: string;
  readonly model: string;
  /** Env vars that carry an API key from a Secret. */
  readonly keys: readonly string[];
}

/** The migration guide's env-var patterns, per provider. */
const PATTERNS: readonly Pattern[] = [
  { provider: "vllm", url: "VLLM_URL", model: "INFERENCE_MODEL", keys: ["VLLM_API_KEY", "VLLM_API_TOKEN"] },
  { provider: "ollama", url: "OLLAMA_URL", model: "OLLAMA_INFERENCE_MODEL", keys: [] },
];

function plain(env: readonly EnvVar[], name: string): string | undefined {
  const e = env.find((x) => x.name === name);
  return e && e.valueFrom === undefined ? e.value : undefined;
}

function secretRef(
  env: readonly EnvVar[],
  names: readonly string[],
): { name: string; via: { name: string; key: string } } | undefined {
  for (const name of names) {
    const ref = env.find((x) => x.name === name)?.valueFrom?.secretKeyRef;
    if (ref) return { name, via: { name: ref.name, key: ref.key } };
  }
  return undefined;
}

interface Found {
  readonly provider: ProviderInput;
  readonly model?: string;
  readonly consumed: readonly string[];
}

function findPatterns(env: readonly EnvVar[], report: { changed: string[]; kept: string[] }): Found[] {
  const found: Found[] = [];
  for (const p of PATTERNS) {
    const url = plain(env, p.url);
    if (url === undefined) {
      if (env.some((e) => e.name === p.url))
        report.kept.push(`env ${p.url}: not a plain value (valueFrom), so no ${p.provider} provider was derived`);
      continue;
    }
    const key = secretRef(env, p.keys);
    const model = plain(env, p.model);
    const provider: ProviderInput = { provider: p.provider, endpoint: url, ...(key ? { apiKey: key.via } : {}) };
    found.push({
      provider,
      ...(model ? { model } : {}),
      consumed: [p.url, ...(model ? [p.model] : []), ...(key ? [key.name] : [])],
    });
    report.changed.push(
      `env ${p.url}${key ? ` and ${key.name}` : ""} → spec.providers.inference (${p.provider}${key ? `, apiKey from Secret ${key.via.name}` : ""})`,
    );
    if (model) report.changed.push(`env ${p.model} → spec.resources.models (${model})`);
    for (const k of p.keys.filter((k) => k !== key?.name && env.some((e) => e.name === k))) {
      report.kept.push(`env ${k}: a literal value; put it in a Secret and use apiKey instead of a plain env var`);
    }
  }
  return found;
}

export function migrateSpec(spec: LlsdSpecV1alpha2): { spec: LlsdSpecV1alpha2; report: MigrationReport } {
  const report = { changed: [] as string[], kept: [] as string[] };
  const env = (spec.workload?.overrides?.env ?? []) as unknown as EnvVar[];
  if (spec.overrideConfig) {
    report.kept.push(
      `overrideConfig ${spec.overrideConfig.configMapName}: a complete config.yaml stays as it is (providers cannot be added beside it)`,
    );
    if (env.length > 0)
      report.kept.push("workload.overrides.env: left as it was (the override config decides what the env vars mean)");
    return { spec, report };
  }
  if (spec.providers?.inference !== undefined) {
    report.kept.push("spec.providers.inference is already set: env vars left as they were");
    return { spec, report };
  }
  const found = findPatterns(env, report);
  if (found.length === 0) {
    if (env.length > 0)
      report.kept.push(
        `workload.overrides.env: no migration-guide pattern found; ${env.length} env var(s) left as they were`,
      );
    return { spec, report };
  }
  const consumed = new Set(found.flatMap((f) => f.consumed));
  const several = found.length > 1;
  const providers = found.map((f) => (several ? { id: f.provider.provider, ...f.provider } : f.provider));
  const models = found.flatMap((f) =>
    f.model ? [several ? { name: f.model, provider: f.provider.provider } : f.model] : [],
  );
  const leftEnv = env.filter((e) => !consumed.has(e.name));
  for (const e of leftEnv) report.kept.push(`env ${e.name}: not part of a recognised pattern; left as it was`);
  const overrides = { ...spec.workload?.overrides, env: leftEnv as unknown as JsonObject[] };
  if (leftEnv.length === 0) delete (overrides as { env?: unknown }).env;
  return {
    spec: {
      ...spec,
      providers: { ...spec.providers, inference: providers.length === 1 ? providers[0]! : providers },
      ...(models.length > 0
        ? { resources: { ...spec.resources, models: [...(spec.resources?.models ?? []), ...models] } }
        : {}),
      workload: { ...spec.workload, overrides },
    },
    report,
  };
}

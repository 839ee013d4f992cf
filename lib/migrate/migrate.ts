/**
 * `llsd migrate`: the idiomatic upgrade a conversion webhook cannot do. A v1alpha1 CR passed
 * its server settings as env vars (migration guide); this recognises those patterns in a
 * converted v1alpha2 object and rewrites them as providers and models, reporting each change
 * and everything it left as it was. Pure: object in, object and report out.
 */
import type {
  FlatSecretRef,
  JsonObject,
  LlsdSpecV1alpha2,
  ProviderInput,
  WorkloadOverridesInput,
} from "../api/v1alpha2";
import { isPlainObject, own } from "../json";

/** `workload.overrides.env` entries: the user's, read field by field and kept as they were. */
type Env = readonly JsonObject[];

export interface MigrationReport {
  readonly changed: readonly string[];
  readonly kept: readonly string[];
}

interface Report {
  readonly changed: string[];
  readonly kept: string[];
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

const isNamed = (name: string) => (entry: JsonObject) => entry.name === name;

/** The value of env var `name` when it is a plain string (not `valueFrom`). */
function plain(env: Env, name: string): string | undefined {
  const e = env.find(isNamed(name));
  return e && e.valueFrom === undefined && typeof e.value === "string" ? e.value : undefined;
}

function isSecretKeyRef(value: unknown): value is FlatSecretRef {
  return isPlainObject(value) && typeof value.name === "string" && typeof value.key === "string";
}

/** An env var set from a Secret key. */
interface KeyRef {
  readonly name: string;
  readonly via: FlatSecretRef;
}

/** The first of `names` set from a Secret (`valueFrom.secretKeyRef`), and that Secret key. */
function secretRef(env: Env, names: readonly string[]): KeyRef | undefined {
  for (const name of names) {
    const ref = own(own(env.find(isNamed(name)), "valueFrom"), "secretKeyRef");
    if (isSecretKeyRef(ref)) return { name, via: { name: ref.name, key: ref.key } };
  }
  return undefined;
}

interface Found {
  readonly provider: ProviderInput;
  readonly model?: string;
  readonly consumed: readonly string[];
}

/** The provider (and model) one pattern's env vars describe, reported; undefined when its URL is not there. */
function foundFor(p: Pattern, env: Env, report: Report): Found | undefined {
  const url = plain(env, p.url);
  if (url === undefined) {
    if (env.some(isNamed(p.url)))
      report.kept.push(`env ${p.url}: not a plain value (valueFrom), so no ${p.provider} provider was derived`);
    return undefined;
  }
  const key = secretRef(env, p.keys);
  const model = plain(env, p.model);
  reportFound(p, { key, model }, env, report);
  return {
    provider: { provider: p.provider, endpoint: url, ...(key ? { apiKey: key.via } : {}) },
    ...(model ? { model } : {}),
    consumed: [p.url, ...(model ? [p.model] : []), ...(key ? [key.name] : [])],
  };
}

function reportFound(
  p: Pattern,
  found: { readonly key: KeyRef | undefined; readonly model: string | undefined },
  env: Env,
  report: Report,
): void {
  const { key, model } = found;
  report.changed.push(
    `env ${p.url}${key ? ` and ${key.name}` : ""} → spec.providers.inference (${p.provider}${key ? `, apiKey from Secret ${key.via.name}` : ""})`,
  );
  if (model) report.changed.push(`env ${p.model} → spec.resources.models (${model})`);
  for (const k of p.keys.filter((k) => k !== key?.name && env.some(isNamed(k)))) {
    report.kept.push(`env ${k}: a literal value; put it in a Secret and use apiKey instead of a plain env var`);
  }
}

export function migrateSpec(spec: LlsdSpecV1alpha2): { spec: LlsdSpecV1alpha2; report: MigrationReport } {
  const report: Report = { changed: [], kept: [] };
  const env: Env = spec.workload?.overrides?.env ?? [];
  const reason = keptReason(spec, env);
  if (reason !== undefined) {
    report.kept.push(...reason);
    return { spec, report };
  }
  const found = PATTERNS.flatMap((p) => foundFor(p, env, report) ?? []);
  if (found.length === 0) {
    if (env.length > 0)
      report.kept.push(
        `workload.overrides.env: no migration-guide pattern found; ${env.length} env var(s) left as they were`,
      );
    return { spec, report };
  }
  return { spec: rewritten(spec, env, found, report), report };
}

/** Why the env vars stay as they are, when a provider is already configured; undefined otherwise. */
function keptReason(spec: LlsdSpecV1alpha2, env: Env): string[] | undefined {
  if (spec.overrideConfig) {
    return [
      `overrideConfig ${spec.overrideConfig.configMapName}: a complete config.yaml stays as it is (providers cannot be added beside it)`,
      ...(env.length > 0
        ? ["workload.overrides.env: left as it was (the override config decides what the env vars mean)"]
        : []),
    ];
  }
  if (spec.providers?.inference !== undefined)
    return ["spec.providers.inference is already set: env vars left as they were"];
  return undefined;
}

/** The spec with the providers and models found, and without the env vars they came from. */
function rewritten(spec: LlsdSpecV1alpha2, env: Env, found: readonly Found[], report: Report): LlsdSpecV1alpha2 {
  const consumed = new Set(found.flatMap((f) => f.consumed));
  const several = found.length > 1;
  const providers = found.map((f) => (several ? { id: f.provider.provider, ...f.provider } : f.provider));
  const models = found.flatMap((f) =>
    f.model ? [several ? { name: f.model, provider: f.provider.provider } : f.model] : [],
  );
  const leftEnv = env.filter((e) => !(typeof e.name === "string" && consumed.has(e.name)));
  for (const e of leftEnv) report.kept.push(`env ${String(e.name)}: not part of a recognised pattern; left as it was`);
  const base = spec.workload?.overrides ?? {};
  const overrides = leftEnv.length > 0 ? { ...base, env: leftEnv } : withoutEnv(base);
  return {
    ...spec,
    providers: { ...spec.providers, inference: providers.length === 1 ? providers[0]! : providers },
    ...(models.length > 0
      ? { resources: { ...spec.resources, models: [...(spec.resources?.models ?? []), ...models] } }
      : {}),
    workload: { ...spec.workload, overrides },
  };
}

function withoutEnv(overrides: WorkloadOverridesInput): WorkloadOverridesInput {
  const { env: _env, ...rest } = overrides;
  return rest;
}

/** Test-object builders: each call returns a fresh deep copy, overrides make the point stand out. */
import { normalize } from "../lib/api/normalize";
import type { CanonicalSpec } from "../lib/api/canonical";
import type { LlsdSpecV1alpha2, ProviderInput } from "../lib/api/v1alpha2";

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** A spec on the starter distribution with the given fields set. */
export function aSpec(overrides: Partial<Mutable<LlsdSpecV1alpha2>> = {}): LlsdSpecV1alpha2 {
  return structuredClone({ distribution: { name: "starter" }, ...overrides });
}

export function aCanonicalSpec(overrides: Partial<Mutable<LlsdSpecV1alpha2>> = {}): CanonicalSpec {
  return normalize(aSpec(overrides));
}

export function aVllm(overrides: Record<string, unknown> = {}): ProviderInput {
  return { provider: "vllm", endpoint: "http://vllm.models.svc:8000", ...overrides };
}

export function aSecretRef(name = "creds", key = "token"): { name: string; key: string } {
  return { name, key };
}

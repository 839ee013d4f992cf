/**
 * `llamastack.io/v1alpha2` LlamaStackDistribution, as users write it (docs/spec-reference.md).
 * Several fields are polymorphic; `normalize()` turns them into the canonical shape of
 * `canonical.ts`. Kubernetes sub-objects (env, volumes…) are kept loose here: the CRD carries
 * their full schema, the hooks pass them through. The JSON Schema (schema-v1alpha2.ts) is what
 * the apiserver enforces; tests/lib/api/types-schemas.test.ts checks these types agree with it.
 */
import type { DisableName, ExternalProviderApi, ProviderApi, ReplaceName } from "./apis";
import type { NetworkPolicyInput } from "./v1alpha2-network-policy";
import type { AuthInput } from "./auth-types";
import type { ExposeEdgeInput } from "./expose-types";

/** Spec sections by name (the list itself is in apis.ts). */
export type { ProviderApi };

export const GROUP = "llamastack.io";
export const KIND = "LlamaStackDistribution";
export const V1ALPHA2 = `${GROUP}/v1alpha2`;

export type { FlatSecretRef, NestedSecretRef, SecretRefInput } from "./secret-ref-input";
import type { SecretRefInput } from "./secret-ref-input";

export type JsonObject = { readonly [key: string]: unknown };

export interface ProviderInput {
  /** Unique across every API; required when an API has more than one provider. @default provider */
  readonly id?: string;
  /** `vllm`, `ollama`, `llama-guard`… or a full `remote::x` / `inline::x` type. */
  readonly provider: string;
  /** Becomes the provider's URL key (`base_url`, `url`…). */
  readonly endpoint?: string;
  /** Becomes the provider's key field (`api_token` for vLLM, `api_key` otherwise) via env. */
  readonly apiKey?: SecretRefInput;
  /** Named secret fields: each key becomes a config key and an `LLSD_<ID>_<KEY>` env var. */
  readonly secretRefs?: { readonly [field: string]: SecretRefInput };
  /** Passed through into the provider's `config`, deep-merged last, never secret-resolved. */
  readonly settings?: JsonObject;
  /** Other secret-ref fields (e.g. `host`, `password`) behave like `secretRefs` entries. */
  readonly [secretField: string]: unknown;
}

/** One provider object, or a list of them. */
export type ProviderListInput = ProviderInput | readonly ProviderInput[];

export type ProvidersInput = { readonly [api in ProviderApi]?: ProviderListInput };

export type ModelType = "llm" | "embedding" | "rerank";
export interface ModelInputObject {
  readonly name: string;
  /** Provider id; @default the first inference provider. */
  readonly provider?: string;
  /** @default name */
  readonly providerModelId?: string;
  /** @default llm */
  readonly modelType?: ModelType;
  readonly contextLength?: number;
  readonly quantization?: string;
  /** Required for `modelType: embedding` (the server refuses embedding models without it). */
  readonly embeddingDimension?: number;
  readonly metadata?: JsonObject;
}
export type ModelInput = string | ModelInputObject;

export interface ResourcesInput {
  readonly models?: readonly ModelInput[];
  readonly tools?: readonly string[];
  readonly shields?: readonly string[];
}

export interface KvStorageInput {
  /** @default sqlite */
  readonly type?: "sqlite" | "redis" | "postgres";
  /** `redis://host:port` or `host:port` (redis only). */
  readonly endpoint?: string;
  /** Refused on new CRs, kept on running ones: the real server's kv_redis has no password field. */
  readonly password?: SecretRefInput;
  /** A `postgresql://user:password@host:port/db` DSN in a Secret (postgres only). */
  readonly connectionString?: SecretRefInput;
}
export interface SqlStorageInput {
  /** @default sqlite */
  readonly type?: "sqlite" | "postgres";
  /** A `postgresql://user:password@host:port/db` DSN in a Secret (postgres only). */
  readonly connectionString?: SecretRefInput;
}
export interface StorageInput {
  readonly kv?: KvStorageInput;
  readonly sql?: SqlStorageInput;
}

export interface ExposeObject extends ExposeEdgeInput {
  /** @default true */
  readonly enabled?: boolean;
  readonly hostname?: string;
}
export interface CaBundleInput {
  readonly configMapName: string;
  /** @default ["ca-bundle.crt"] */
  readonly configMapKeys?: readonly string[];
}
/** A config.yaml in a ConfigMap of the CR's namespace. */
export interface ConfigMapKeyInput {
  readonly configMapName: string;
  /** @default config.yaml */
  readonly key?: string;
}
export interface TlsInput {
  /** @default false */
  readonly enabled?: boolean;
  /** A `kubernetes.io/tls` Secret; the server terminates TLS with it. */
  readonly secretName?: string;
  /** One ConfigMap, or a list of them: every certificate goes into one bundle. */
  readonly caBundle?: CaBundleInput | readonly CaBundleInput[];
}
export interface AllowedFromInput {
  /** Namespace names; `"*"` allows every namespace. */
  readonly namespaces?: readonly string[];
  /** Namespace label keys, matched with `Exists`. */
  readonly labels?: readonly string[];
}
export interface NetworkingInput {
  /** @default 8321 */
  readonly port?: number;
  readonly tls?: TlsInput;
  /** `true`/`false`, `{}` (≡ true), or `{enabled, hostname, className, tls, annotations, parentRefs, backendTLS}`. */
  readonly expose?: boolean | ExposeObject;
  readonly allowedFrom?: AllowedFromInput;
  /** The server's NetworkPolicy: off, or extended with native rules. */
  readonly policy?: NetworkPolicyInput;
}

export interface AutoscalingInput {
  /** @default 1 */
  readonly minReplicas?: number;
  readonly maxReplicas: number;
  readonly targetCPUUtilizationPercentage?: number;
  readonly targetMemoryUtilizationPercentage?: number;
}
export type IntOrString = number | string;
export interface PodDisruptionBudgetInput {
  readonly minAvailable?: IntOrString;
  readonly maxUnavailable?: IntOrString;
}
export interface WorkloadStorageInput {
  /** @default 10Gi */
  readonly size?: IntOrString;
  /** @default /.llama */
  readonly mountPath?: string;
}
export interface WorkloadOverridesInput {
  readonly serviceAccountName?: string;
  readonly terminationGracePeriodSeconds?: number;
  readonly env?: readonly JsonObject[];
  readonly command?: readonly string[];
  readonly args?: readonly string[];
  readonly volumes?: readonly JsonObject[];
  readonly volumeMounts?: readonly JsonObject[];
}
/** corev1.ResourceClaim: the server container's use of a pod claim (`WorkloadInput.resourceClaims`). */
export interface ContainerClaimInput {
  /** The name of an entry of `workload.resourceClaims`. */
  readonly name: string;
  /** One request of that claim; unset, everything the claim allocated. */
  readonly request?: string;
}
/** corev1.ResourceRequirements, its claims typed (v1alpha1 keeps them free: `LegacyResourceRequirements`). */
export interface ResourceRequirements {
  /** Maximum compute resources allowed (`cpu`, `memory`…). */
  readonly limits?: { readonly [resource: string]: IntOrString };
  /** Minimum compute resources required. */
  readonly requests?: { readonly [resource: string]: IntOrString };
  /** Dynamic resource claims used by the container. */
  readonly claims?: readonly ContainerClaimInput[];
}
/** corev1.PodResourceClaim: exactly one of the two sources (validate.ts; the apiserver too). */
export interface PodResourceClaimInput {
  /** A DNS label, unique in the pod. */
  readonly name: string;
  readonly resourceClaimName?: string;
  readonly resourceClaimTemplateName?: string;
}
export interface WorkloadInput {
  /** @default 1 */
  readonly replicas?: number;
  readonly workers?: number;
  readonly resources?: ResourceRequirements;
  /** Pod-level DRA claims (`pod.spec.resourceClaims`); names unique. */
  readonly resourceClaims?: readonly PodResourceClaimInput[];
  readonly autoscaling?: AutoscalingInput;
  readonly storage?: WorkloadStorageInput;
  readonly podDisruptionBudget?: PodDisruptionBudgetInput;
  readonly topologySpreadConstraints?: readonly JsonObject[];
  readonly overrides?: WorkloadOverridesInput;
}

export interface ExternalProviderInput {
  readonly providerId: string;
  readonly image: string;
  /** @default IfNotPresent */
  readonly imagePullPolicy?: "Always" | "Never" | "IfNotPresent";
  readonly config?: JsonObject;
}
export type ExternalProvidersInput = { readonly [api in ExternalProviderApi]?: readonly ExternalProviderInput[] };

/** `spec.monitoring`: the server's own Prometheus metrics endpoint (OGX 1.2 and later). */
export interface MonitoringInput {
  /** @default true (when `monitoring` is set) */
  readonly enabled?: boolean;
  /** @default 9464 */
  readonly port?: number;
  /** Namespaces whose pods may scrape the port; absent: the hooks' scraper namespace (`monitoring`). */
  readonly allowedFrom?: { readonly namespaces?: readonly string[] };
}

export interface DistributionInput {
  readonly name?: string;
  readonly image?: string;
}

export interface LlsdSpecV1alpha2 {
  readonly distribution: DistributionInput;
  readonly providers?: ProvidersInput;
  readonly resources?: ResourcesInput;
  readonly storage?: StorageInput;
  /** API names, camelCase or snake_case. */
  readonly disabled?: readonly DisableName[];
  /**
   * APIs whose providers are exactly the spec's (the base config's others are dropped), and
   * kinds of registered resources (`models`, `shields`…) that keep only the spec's. Unset: the
   * spec's providers and resources are laid over the base's by id.
   */
  readonly replace?: readonly ReplaceName[];
  /** → `server.registry_refresh_interval_seconds` (0.8 and 1.x lines). */
  readonly registryRefreshIntervalSeconds?: number;
  readonly networking?: NetworkingInput;
  readonly workload?: WorkloadInput;
  readonly externalProviders?: ExternalProvidersInput;
  readonly overrideConfig?: ConfigMapKeyInput;
  /** The base config generated configs start from, instead of the image's or the bundled one. */
  readonly baseConfig?: ConfigMapKeyInput;
  readonly monitoring?: MonitoringInput;
  /** Who may call the server (docs/auth.md). */
  readonly auth?: AuthInput;
}

export interface ObjectMeta {
  readonly name?: string;
  readonly namespace?: string;
  readonly uid?: string;
  readonly generation?: number;
  readonly labels?: { readonly [k: string]: string };
  readonly annotations?: { readonly [k: string]: string };
  readonly [k: string]: unknown;
}

export interface LlamaStackDistributionV1alpha2 {
  readonly apiVersion: typeof V1ALPHA2;
  readonly kind: typeof KIND;
  readonly metadata: ObjectMeta;
  readonly spec: LlsdSpecV1alpha2;
  /** Read back from the apiserver, not trusted: its shape is `LlsdStatusV1alpha2` (status-v1alpha2.ts). */
  readonly status?: JsonObject;
}

/**
 * The one canonical shape every polymorphic v1alpha2 form normalizes to. Everything after
 * `normalize()` (validation, generation, children) reads only this. Each element keeps the
 * field path it came from, so later errors still point at what the user wrote.
 */
import type {
  AllowedFromInput,
  ExternalProviderInput,
  JsonObject,
  ModelType,
  ProviderApi,
  WorkloadInput,
} from "./v1alpha2";
import type { Monitoring } from "../distributions/monitoring";
import type { NetworkPolicyInput } from "./v1alpha2-network-policy";
import type { AuthInput, AuthProviderName } from "./auth-types";
import type { ExposeEdgeInput } from "./expose-types";

export interface SecretRef {
  readonly name: string;
  readonly key: string;
  /** Where the reference was written, e.g. `spec.providers.inference[0].apiKey`. */
  readonly path: string;
}

export interface SecretField {
  /** Provider-level field name as written: `apiKey`, or a `secretRefs`/extra key such as `host`. */
  readonly field: string;
  readonly ref: SecretRef;
}

export interface Provider {
  readonly api: ProviderApi;
  /** Explicit `id`, or `provider` when a lone provider has none. */
  readonly id: string;
  readonly explicitId: boolean;
  readonly provider: string;
  readonly endpoint?: string;
  /** `apiKey` first, then `secretRefs` keys, then extra secret fields, each sorted by name. */
  readonly secrets: readonly SecretField[];
  readonly settings?: JsonObject;
  /** `spec.providers.<api>` or `spec.providers.<api>[i]`. */
  readonly path: string;
}

export interface Model {
  readonly name: string;
  readonly provider?: string;
  readonly providerModelId?: string;
  readonly modelType: ModelType;
  readonly contextLength?: number;
  readonly quantization?: string;
  readonly embeddingDimension?: number;
  readonly metadata?: JsonObject;
  readonly path: string;
}

export interface Resources {
  readonly models: readonly Model[];
  readonly tools: readonly { readonly name: string; readonly path: string }[];
  readonly shields: readonly { readonly name: string; readonly path: string }[];
}

export type KvStorage =
  | { readonly type: "sqlite"; readonly path: string }
  | { readonly type: "redis"; readonly endpoint?: string; readonly password?: SecretRef; readonly path: string }
  | { readonly type: "postgres"; readonly connectionString?: SecretRef; readonly path: string };
export type SqlStorage =
  | { readonly type: "sqlite"; readonly path: string }
  | { readonly type: "postgres"; readonly connectionString?: SecretRef; readonly path: string };

export interface Storage {
  readonly kv?: KvStorage;
  readonly sql?: SqlStorage;
}

/** A `disabled[]` entry, with the server API name it means (`vectorIo` → `vector_io`). */
export interface DisabledApi {
  readonly api: string;
  readonly written: string;
  readonly path: string;
}

/**
 * A `replace[]` entry: an API (`name` its server API name) or a kind of registered resources
 * (`name` its `registered_resources` key), as written and where.
 */
export interface Replaced {
  readonly kind: "api" | "resources";
  readonly name: string;
  readonly written: string;
  readonly path: string;
}

/** The edge fields as written; each absent when unset (unset changes no child). */
export interface Expose extends ExposeEdgeInput {
  readonly enabled: boolean;
  readonly hostname?: string;
}

export interface Tls {
  readonly enabled: boolean;
  readonly secretName?: string;
  /** Every CA ConfigMap, in spec order (the single-object form is a list of one). */
  readonly caBundle?: readonly CaBundleSource[];
}

export interface CaBundleSource {
  readonly configMapName: string;
  readonly configMapKeys: readonly string[];
  /** `spec.networking.tls.caBundle`, or `…caBundle[i]` in the list form. */
  readonly path: string;
}

/** A config.yaml in a ConfigMap key (overrideConfig, baseConfig), the key defaulted. */
export interface ConfigMapKey {
  readonly configMapName: string;
  readonly key: string;
}

export interface Networking {
  readonly port: number;
  readonly expose: Expose;
  readonly tls: Tls;
  readonly allowedFrom?: AllowedFromInput;
  /** As written; absent when unset (lib/children/network-policy.ts reads it). */
  readonly policy?: NetworkPolicyInput;
}

export type Distribution =
  | { readonly kind: "name"; readonly name: string }
  | { readonly kind: "image"; readonly image: string }
  | { readonly kind: "invalid" };

export interface ExternalProvider extends ExternalProviderInput {
  /** Server API name of the section it was listed under. */
  readonly api: string;
  readonly path: string;
}

export interface CanonicalSpec {
  readonly distribution: Distribution;
  /** Every provider of every API, in API order then list order. */
  readonly providers: readonly Provider[];
  readonly resources: Resources;
  /** Absent when the spec has no `storage`: the base config's storage is then untouched. */
  readonly storage?: Storage;
  readonly disabled: readonly DisabledApi[];
  readonly replace: readonly Replaced[];
  readonly networking: Networking;
  readonly workload: WorkloadInput;
  readonly externalProviders: readonly ExternalProvider[];
  readonly overrideConfig?: ConfigMapKey;
  /** The base config generated configs start from, when a ConfigMap gives it. */
  readonly baseConfig?: ConfigMapKey;
  /** Absent when the spec has no `monitoring`: nothing of the server's metrics is set up. */
  readonly monitoring?: Monitoring;
  /** → `server.registry_refresh_interval_seconds`; set, it makes the hooks generate a config. */
  readonly registryRefreshIntervalSeconds?: number;
  /** Absent: the server asks nobody who they are (docs/auth.md). */
  readonly auth?: Auth;
  /** Which top-level generation inputs the user set (for config-source and exclusivity rules). */
  readonly present: {
    readonly providers: boolean;
    readonly resources: boolean;
    readonly storage: boolean;
    readonly disabled: boolean;
    readonly replace: boolean;
  };
}

export interface Auth {
  readonly input: AuthInput;
  /** The provider fields set, in AUTH_PROVIDERS order (valid specs have exactly one). */
  readonly providers: readonly AuthProviderName[];
  readonly clientSecret?: SecretRef;
}

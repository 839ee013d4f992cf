/**
 * OGXServer v1beta1 (`ogx.io/v1beta1`) as the peer's apiserver stores it: hand-written wire types
 * from ogx-ai/ogx-k8s-operator api/v1beta1/ogxserver_types.go and provider_types*.go at commit
 * 1784464 (v0.14.0). schema.ts is the schema that checks an object before it is read as these.
 * Kubernetes types the peer embeds (EnvVar, Volume, NetworkPolicy rules…) stay loose here.
 */
export type Json = { readonly [key: string]: unknown };

export interface OgxKeyRef {
  readonly name: string;
  readonly key: string;
}

export interface OgxCustomProvider {
  readonly id?: string;
  /** `remote::x` or `inline::x`. */
  readonly type: string;
  readonly secretRefs?: { readonly [field: string]: OgxKeyRef };
  readonly settings?: Json;
}

/** One bucket of one API: typed providers by field (`vllm: [...]`, `s3: {...}`) and `custom[]`. */
export interface OgxBucket {
  readonly custom?: readonly OgxCustomProvider[];
  readonly [typed: string]: unknown;
}
export interface OgxApiProviders {
  readonly remote?: OgxBucket;
  readonly inline?: OgxBucket;
}

export type OgxSection =
  "inference" | "vectorIo" | "toolRuntime" | "files" | "batches" | "responses" | "fileProcessors";
export type OgxProviders = { readonly [section in OgxSection]?: OgxApiProviders };

export interface OgxModel {
  readonly name: string;
  readonly provider?: string;
  readonly contextLength?: number;
  readonly modelType?: string;
  readonly quantization?: string;
}

export interface OgxStorage {
  readonly kv?: { readonly type?: "sqlite" | "redis"; readonly endpoint?: string; readonly password?: OgxKeyRef };
  readonly sql?: { readonly type?: "sqlite" | "postgres"; readonly connectionString?: OgxKeyRef };
}

export interface OgxNetwork {
  readonly port?: number;
  /** Schema only: the peer's controller never reads it. */
  readonly tls?: { readonly secretName: string };
  /** `hostname` is never read by the peer's controller. */
  readonly externalAccess?: { readonly enabled?: boolean; readonly hostname?: string };
  readonly policy?: {
    readonly enabled?: boolean;
    readonly policyTypes?: readonly ("Ingress" | "Egress")[];
    readonly ingress?: readonly Json[];
    readonly egress?: readonly Json[];
  };
}

export interface OgxWorkload {
  readonly replicas?: number;
  readonly workers?: number;
  readonly resources?: Json;
  readonly resourceClaims?: readonly Json[];
  readonly autoscaling?: Json;
  readonly storage?: { readonly size?: number | string; readonly mountPath?: string };
  readonly podDisruptionBudget?: { readonly minAvailable?: number | string; readonly maxUnavailable?: number | string };
  readonly topologySpreadConstraints?: readonly Json[];
  readonly overrides?: Json;
}

export interface OgxServerSpec {
  readonly distribution: { readonly name?: string; readonly image?: string };
  readonly providers?: OgxProviders;
  readonly resources?: { readonly models?: readonly OgxModel[] };
  readonly storage?: OgxStorage;
  readonly disabledAPIs?: readonly string[];
  readonly registryRefreshIntervalSeconds?: number;
  readonly network?: OgxNetwork;
  readonly tls?: { readonly trust?: { readonly caCertificates?: readonly OgxKeyRef[] }; readonly identity?: Json };
  readonly workload?: OgxWorkload;
  readonly monitoring?: { readonly enabled?: boolean; readonly metricsPort?: number };
  readonly baseConfig?: OgxKeyRef;
  readonly overrideConfig?: OgxKeyRef;
}

export interface OgxServer {
  readonly apiVersion: "ogx.io/v1beta1";
  readonly kind: "OGXServer";
  readonly metadata: Json;
  readonly spec: OgxServerSpec;
  readonly status?: Json;
}

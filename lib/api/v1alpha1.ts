/**
 * `llamastack.io/v1alpha1` LlamaStackDistribution: the Go operator's API, field for field
 * (`api/v1alpha1/llamastackdistribution_types.go`). Defaults marked `@default` are the Go
 * `+kubebuilder:default` markers; "controller default" means the operator fills the value at
 * reconcile time, not the CRD. Kubernetes sub-objects are kept loose: the CRD carries their
 * full schema, the hooks pass them through.
 */
import type { IntOrString, KIND, ObjectMeta } from "./v1alpha2";

export const V1ALPHA1 = "llamastack.io/v1alpha1";

/** A Kubernetes object passed through untouched (Volume, VolumeMount, TopologySpreadConstraint…). */
export type KubeObject = { readonly [k: string]: unknown };

/** corev1.EnvVar. */
export interface EnvVar {
  /** Environment variable name. */
  readonly name: string;
  /** Literal value; `$(VAR)` references are expanded by the kubelet. */
  readonly value?: string;
  /** Source for the value (secretKeyRef, configMapKeyRef, fieldRef, resourceFieldRef, fileKeyRef). */
  readonly valueFrom?: KubeObject;
}

/** Which server image to run. CEL: only one of `name` or `image` may be set. */
export interface DistributionType {
  /** Distribution name, a key of the operator's distributions.json (`starter`, `remote-vllm`…). */
  readonly name?: string;
  /** Container image reference used directly instead of a named distribution. */
  readonly image?: string;
}

/** corev1.ResourceRequirements as the Go operator's CRD keeps it (v1alpha2 types its claims). */
export interface LegacyResourceRequirements {
  /** Maximum compute resources allowed (`cpu`, `memory`…). */
  readonly limits?: { readonly [resource: string]: IntOrString };
  /** Minimum compute resources required. */
  readonly requests?: { readonly [resource: string]: IntOrString };
  /** Dynamic resource claims used by the container. */
  readonly claims?: readonly KubeObject[];
}

export interface ContainerSpec {
  /** Name of the server container. @default "llama-stack" */
  readonly name?: string;
  /** Port the server listens on; 0 or unset means 8321 (controller default). */
  readonly port?: number;
  /** Compute resources of the server container. */
  readonly resources?: LegacyResourceRequirements;
  /** Environment variables of the server container. */
  readonly env?: readonly EnvVar[];
  /** Overrides the container entrypoint. */
  readonly command?: readonly string[];
  /** Overrides the container arguments. */
  readonly args?: readonly string[];
}

export interface PodOverrides {
  /** Service account the pod runs as (the operator creates `<name>-sa` otherwise). */
  readonly serviceAccountName?: string;
  /** Grace period for pod termination, in seconds (0 is honoured). */
  readonly terminationGracePeriodSeconds?: number;
  /** Extra pod volumes (corev1.Volume). */
  readonly volumes?: readonly KubeObject[];
  /** Extra mounts in the server container (corev1.VolumeMount). */
  readonly volumeMounts?: readonly KubeObject[];
}

export interface PodDisruptionBudgetSpec {
  /** Pods that must stay available during a voluntary disruption (number or percentage). */
  readonly minAvailable?: IntOrString;
  /** Pods that may be unavailable during a voluntary disruption (controller default 1 when neither is set). */
  readonly maxUnavailable?: IntOrString;
}

export interface AutoscalingSpec {
  /** Lower bound for the HorizontalPodAutoscaler (controller uses max(1, replicas, minReplicas)). */
  readonly minReplicas?: number;
  /** Upper bound for the HorizontalPodAutoscaler. */
  readonly maxReplicas: number;
  /** Target average CPU utilisation, percent (controller default 80 when no target is set). */
  readonly targetCPUUtilizationPercentage?: number;
  /** Target average memory utilisation, percent. */
  readonly targetMemoryUtilizationPercentage?: number;
}

export interface StorageSpec {
  /** PersistentVolumeClaim size (controller default 10Gi). */
  readonly size?: IntOrString;
  /** Mount path of the volume in the server container (controller default "/.llama"). */
  readonly mountPath?: string;
}

export interface UserConfigSpec {
  /** ConfigMap holding the server's `config.yaml`. */
  readonly configMapName: string;
  /** Namespace of that ConfigMap; defaults to the CR's namespace. */
  readonly configMapNamespace?: string;
}

export interface CABundleConfig {
  /** ConfigMap holding the PEM CA certificates. */
  readonly configMapName: string;
  /** Namespace of that ConfigMap; defaults to the CR's namespace. */
  readonly configMapNamespace?: string;
  /** Keys concatenated into one bundle (at most 50; controller default ["ca-bundle.crt"]). */
  readonly configMapKeys?: readonly string[];
}

export interface TLSConfig {
  /** Extra CA certificates trusted by the server (mounted and set as SSL_CERT_FILE). */
  readonly caBundle?: CABundleConfig;
}

export interface ServerSpec {
  /** Which distribution (named or by image) to run. */
  readonly distribution: DistributionType;
  /** Server container settings. */
  readonly containerSpec?: ContainerSpec;
  /** Number of uvicorn worker processes (minimum 1). */
  readonly workers?: number;
  /** Pod-level overrides. */
  readonly podOverrides?: PodOverrides;
  /** PodDisruptionBudget settings. */
  readonly podDisruptionBudget?: PodDisruptionBudgetSpec;
  /** Pod topology spread constraints (corev1.TopologySpreadConstraint). */
  readonly topologySpreadConstraints?: readonly KubeObject[];
  /** HorizontalPodAutoscaler settings. */
  readonly autoscaling?: AutoscalingSpec;
  /** Persistent storage; its presence creates a PVC. */
  readonly storage?: StorageSpec;
  /** User-provided server configuration. */
  readonly userConfig?: UserConfigSpec;
  /** TLS settings. */
  readonly tlsConfig?: TLSConfig;
}

export interface AllowedFromSpec {
  /** Namespace names allowed to reach the server; `"*"` allows every namespace. */
  readonly namespaces?: readonly string[];
  /** Namespace label keys (matched with `Exists`, OR semantics). */
  readonly labels?: readonly string[];
}

export interface NetworkSpec {
  /** Creates an Ingress exposing the server. @default false */
  readonly exposeRoute?: boolean;
  /** Extra sources allowed by the NetworkPolicy. */
  readonly allowedFrom?: AllowedFromSpec;
}

export interface LlsdSpecV1alpha1 {
  /** Desired number of server pods. @default 1 */
  readonly replicas?: number;
  /** Server settings. */
  readonly server: ServerSpec;
  /** Network exposure and access control. */
  readonly network?: NetworkSpec;
}

export const PHASES = ["Pending", "Initializing", "Ready", "Failed", "Terminating"] as const;
export type DistributionPhase = (typeof PHASES)[number];

export interface VersionInfo {
  /** Version of the operator (hooks) that last reconciled the CR. */
  readonly operatorVersion?: string;
  /** Version reported by the server's `GET /v1/version`. */
  readonly llamaStackServerVersion?: string;
  /** When the version information was last updated (RFC 3339). */
  readonly lastUpdated?: string;
}

export interface HealthStatus {
  /** Provider health status reported by the server. */
  readonly status: string;
  /** Provider health message. */
  readonly message: string;
}

export interface ProviderInfo {
  /** API the provider serves (`inference`, `safety`…). */
  readonly api: string;
  /** Provider id. */
  readonly provider_id: string;
  /** Provider type (`remote::vllm`, `inline::faiss`…). */
  readonly provider_type: string;
  /** Provider configuration as reported by the server. */
  readonly config: unknown;
  /** Provider health. */
  readonly health: HealthStatus;
}

export interface DistributionConfig {
  /** Running distribution name, or "custom" when `spec.server.distribution.image` is used. */
  readonly activeDistribution?: string;
  /** Providers reported by the server's `GET /v1/providers`. */
  readonly providers?: readonly ProviderInfo[];
  /** Known distribution names and their images. */
  readonly availableDistributions?: { readonly [name: string]: string };
}

/** metav1.Condition. */
export interface Condition {
  /** Condition type (`DeploymentReady`, `HealthCheck`, `StorageReady`, `ServiceReady`). */
  readonly type: string;
  /** Condition status. */
  readonly status: "True" | "False" | "Unknown";
  /** Machine-readable reason in CamelCase. */
  readonly reason: string;
  /** Human-readable message. */
  readonly message: string;
  /** When the status last changed (RFC 3339). */
  readonly lastTransitionTime: string;
  /** `metadata.generation` the condition was computed from. */
  readonly observedGeneration?: number;
}

export interface LlsdStatusV1alpha1 {
  /** Lifecycle phase. */
  readonly phase?: DistributionPhase;
  /** Operator and server versions. */
  readonly version?: VersionInfo;
  /** Active distribution and its providers. */
  readonly distributionConfig?: DistributionConfig;
  /** Standard conditions. */
  readonly conditions?: readonly Condition[];
  /** Ready server pods. */
  readonly availableReplicas?: number;
  /** In-cluster URL of the server Service. */
  readonly serviceURL?: string;
  /** External URL when `exposeRoute` is set; "" while the Ingress has no address. */
  readonly routeURL?: string;
  /** `metadata.generation` last processed (written by Metacontroller). */
  readonly observedGeneration?: number;
}

export interface LlamaStackDistributionV1alpha1 {
  /** Always `llamastack.io/v1alpha1`. */
  readonly apiVersion: typeof V1ALPHA1;
  /** Always `LlamaStackDistribution`. */
  readonly kind: typeof KIND;
  /** Standard object metadata. */
  readonly metadata: ObjectMeta;
  /** Desired state (required). */
  readonly spec: LlsdSpecV1alpha1;
  /** Observed state, written through the status subresource. */
  readonly status?: LlsdStatusV1alpha1;
}

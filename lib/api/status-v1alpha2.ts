/**
 * `llamastack.io/v1alpha2` status, as the sync hook writes it (schema: schema-status-v1alpha2.ts;
 * tests/lib/api/types-schemas.test.ts keeps the two in step). `version`, `distributionConfig` and
 * `conditions` are the Go operator's (v1alpha1) types: the conversion moves them whole.
 */
import type { Condition, DistributionConfig, DistributionPhase, VersionInfo } from "./v1alpha1";

/** Where the base config.yaml came from. */
export type ConfigSource = "embedded" | "oci-label" | "configmap" | "override" | "image-default";

export interface ConfigGenerationStatus {
  /** ConfigMap holding the config.yaml in use. */
  readonly configMapName?: string;
  /** When this config was first generated (RFC 3339). */
  readonly generatedAt?: string;
  readonly providerCount?: number;
  readonly resourceCount?: number;
  /** The config's `version:`. */
  readonly configVersion?: number;
}

export interface ResolvedDistributionStatus {
  /** Server image. */
  readonly image?: string;
  /** Image digest, when resolved from a registry. */
  readonly digest?: string;
  readonly configSource?: ConfigSource;
  /** `sha256:<hex>` of the config.yaml. */
  readonly configHash?: string;
}

/** One `spec.externalProviders` provider and how far it got. */
export interface ExternalProviderStatusV1alpha2 {
  /** Its provider_id in config.yaml. */
  readonly providerId: string;
  /** Its image, as the CR names it. */
  readonly image: string;
  /** Failed: its image or metadata is wrong; Ready: the rolled-out pods installed it; Pending otherwise. */
  readonly phase: "Pending" | "Ready" | "Failed";
  /** What it is, what it waits for, or what to fix. */
  readonly message: string;
  /** The init container that copies its wheels. */
  readonly initContainer: string;
}

export interface LlsdStatusV1alpha2 {
  readonly phase?: DistributionPhase;
  /** The spec generation this status describes (written by Metacontroller). */
  readonly observedGeneration?: number;
  /** ConfigGenerated, SecretsResolved, DeploymentReady, Available, HealthCheck. */
  readonly conditions?: readonly Condition[];
  readonly version?: VersionInfo;
  readonly distributionConfig?: DistributionConfig;
  readonly configGeneration?: ConfigGenerationStatus;
  readonly resolvedDistribution?: ResolvedDistributionStatus;
  /** Ready server pods. */
  readonly availableReplicas?: number;
  /** In-cluster URL of the server. */
  readonly serviceURL?: string;
  /** External URL, when exposed; "" while the Ingress has no address. */
  readonly routeURL?: string;
  /** One entry per external provider, in CR order. */
  readonly externalProviders?: readonly ExternalProviderStatusV1alpha2[];
  /** What the hooks decided on the user's behalf (e.g. a URL suffix added). */
  readonly notes?: readonly string[];
}

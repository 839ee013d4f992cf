/**
 * `llamastack.io/v1alpha2` LlamaStackDistribution, as users write it (docs/spec-reference.md).
 * Each field is declared once, in the JSON Schema (schema-v1alpha2.ts and the modules it
 * composes); the types here are read from it (`TypeOf`). Several fields are polymorphic;
 * `normalize()` turns them into the canonical shape of `canonical.ts`. Kubernetes sub-objects
 * (env, volumes…) are free objects: the CRD carries their full schema, the hooks pass them
 * through.
 */
import type { ProviderApi } from "./apis";
import type { JsonObject, TypeOf } from "./schema-parts";
import type { MONITORING_SCHEMA } from "./schema-monitoring";
import type {
  caBundle,
  configMapKey,
  containerClaim,
  externalProvider,
  modelObject,
  podResourceClaim,
  provider,
  providerList,
  V1ALPHA2_SPEC_SCHEMA,
} from "./schema-v1alpha2";

/** Spec sections by name (the list itself is in apis.ts). */
export type { ProviderApi };
export type { JsonObject };
export type { ExposeObject } from "./expose-types";
export type { FlatSecretRef, NestedSecretRef, SecretRefInput } from "./secret-ref-input";

export const GROUP = "llamastack.io";
export const KIND = "LlamaStackDistribution";
export const V1ALPHA2 = `${GROUP}/v1alpha2`;

export type LlsdSpecV1alpha2 = TypeOf<typeof V1ALPHA2_SPEC_SCHEMA>;

/** One provider; any field beyond its own is a Secret key (`host`, `password`…), typed `unknown`. */
export type ProviderInput = TypeOf<typeof provider>;
/** One provider object, or a list of them. */
export type ProviderListInput = TypeOf<typeof providerList>;

export type ModelInput = NonNullable<NonNullable<LlsdSpecV1alpha2["resources"]>["models"]>[number];
export type ModelType = NonNullable<TypeOf<typeof modelObject>["modelType"]>;

type Storage = NonNullable<LlsdSpecV1alpha2["storage"]>;
export type KvStorageInput = NonNullable<Storage["kv"]>;
export type SqlStorageInput = NonNullable<Storage["sql"]>;

export type NetworkingInput = NonNullable<LlsdSpecV1alpha2["networking"]>;
export type TlsInput = NonNullable<NetworkingInput["tls"]>;
export type AllowedFromInput = NonNullable<NetworkingInput["allowedFrom"]>;
export type CaBundleInput = TypeOf<typeof caBundle>;
/** A config.yaml in a ConfigMap of the CR's namespace. */
export type ConfigMapKeyInput = TypeOf<ReturnType<typeof configMapKey>>;

export type WorkloadInput = NonNullable<LlsdSpecV1alpha2["workload"]>;
export type WorkloadOverridesInput = NonNullable<WorkloadInput["overrides"]>;
/** corev1.ResourceRequirements, its claims typed (v1alpha1 keeps them free: `LegacyResourceRequirements`). */
export type ResourceRequirements = NonNullable<WorkloadInput["resources"]>;
/** corev1.ResourceClaim: the server container's use of a pod claim (`WorkloadInput.resourceClaims`). */
export type ContainerClaimInput = TypeOf<typeof containerClaim>;
/** corev1.PodResourceClaim: exactly one of the two sources (validate.ts; the apiserver too). */
export type PodResourceClaimInput = TypeOf<typeof podResourceClaim>;
export type IntOrString = number | string;

export type ExternalProviderInput = TypeOf<typeof externalProvider>;
/** `spec.monitoring`: the server's own Prometheus metrics endpoint (OGX 1.2 and later). */
export type MonitoringInput = TypeOf<typeof MONITORING_SCHEMA>;

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
  /** Read back from the apiserver, not trusted: its shape is `LlsdStatusV1alpha2` (schema-status-v1alpha2.ts). */
  readonly status?: JsonObject;
}

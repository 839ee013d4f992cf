/**
 * `llamastack.io/v1alpha1` LlamaStackDistribution: the Go operator's API, field for field
 * (`api/v1alpha1/llamastackdistribution_types.go`), declared once in schema-v1alpha1.ts; the
 * types here are read from it (`TypeOf`). Kubernetes sub-objects (env, volumes…) are free
 * objects: the CRD carries their full schema, the hooks pass them through.
 */
import type { TypeOf } from "./schema-parts";
import type { V1ALPHA1_SPEC_SCHEMA, V1ALPHA1_STATUS_SCHEMA } from "./schema-v1alpha1";

export const V1ALPHA1 = "llamastack.io/v1alpha1";

export type LlsdSpecV1alpha1 = TypeOf<typeof V1ALPHA1_SPEC_SCHEMA>;
export type LlsdStatusV1alpha1 = TypeOf<typeof V1ALPHA1_STATUS_SCHEMA>;

/** Lifecycle phase (`Pending`, `Initializing`, `Ready`, `Failed`, `Terminating`). */
export type DistributionPhase = NonNullable<LlsdStatusV1alpha1["phase"]>;
/** metav1.Condition. */
export type Condition = NonNullable<LlsdStatusV1alpha1["conditions"]>[number];
export type VersionInfo = NonNullable<LlsdStatusV1alpha1["version"]>;
export type DistributionConfig = NonNullable<LlsdStatusV1alpha1["distributionConfig"]>;

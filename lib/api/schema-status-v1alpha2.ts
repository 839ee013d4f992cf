/**
 * The v1alpha2 status the sync hook writes (docs/spec-reference.md, "Status"), and its type.
 * Metacontroller replaces the parent's status with it and adds `observedGeneration`, so every
 * key here must be in the CRD's status schema or the apiserver prunes it and Metacontroller
 * writes forever.
 *
 * `version` and `distributionConfig` are the Go operator's (v1alpha1) fields, with exactly
 * their schema: the conversion moves them whole, so `kubectl get` shows the same columns in
 * both versions.
 */
import { int, list, obj, str, strList, type TypeOf } from "./schema-parts";
import { DISTRIBUTION_CONFIG_STATUS_SCHEMA, VERSION_STATUS_SCHEMA } from "./schema-v1alpha1";

const condition = obj(
  "A standard Kubernetes condition.",
  {
    type: str("Condition type.", {
      maxLength: 316,
      pattern:
        "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$",
    }),
    status: str("True, False or Unknown.", { enum: ["True", "False", "Unknown"] }),
    reason: str("Machine-readable reason, CamelCase.", {
      minLength: 1,
      maxLength: 1024,
      pattern: "^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$",
    }),
    message: str("Human-readable message: what is wrong and how to fix it.", { maxLength: 32768 }),
    lastTransitionTime: str("When the status last changed.", { format: "date-time" }),
    observedGeneration: int("The generation the condition was computed for.", { minimum: 0 }),
  },
  ["type", "status", "reason", "message", "lastTransitionTime"],
);

export const V1ALPHA2_STATUS_SCHEMA = obj("Observed state of the Llama Stack server.", {
  phase: str("Lifecycle phase.", { enum: ["Pending", "Initializing", "Ready", "Failed", "Terminating"] }),
  observedGeneration: int("The spec generation this status describes (written by Metacontroller).", { minimum: 0 }),
  conditions: list("ConfigGenerated, SecretsResolved, DeploymentReady, Available, HealthCheck.", condition),
  version: VERSION_STATUS_SCHEMA,
  distributionConfig: DISTRIBUTION_CONFIG_STATUS_SCHEMA,
  configGeneration: obj("The config.yaml in use.", {
    configMapName: str("ConfigMap holding it."),
    generatedAt: str("When this config was first generated.", { format: "date-time" }),
    providerCount: int("Providers in it.", { minimum: 0 }),
    resourceCount: int("Registered resources in it.", { minimum: 0 }),
    configVersion: int("Its `version:`.", { minimum: 0 }),
  }),
  resolvedDistribution: obj("The image and config source in use.", {
    image: str("Server image."),
    digest: str("Image digest, when resolved from a registry."),
    configSource: str("Where the base config came from.", {
      enum: ["embedded", "oci-label", "configmap", "override", "image-default"],
    }),
    configHash: str("sha256:<hex> of the config.yaml."),
  }),
  availableReplicas: int("Ready server pods.", { minimum: 0 }),
  serviceURL: str("In-cluster URL of the server."),
  routeURL: str("External URL, when exposed."),
  externalProviders: list(
    "One entry per spec.externalProviders provider, in CR order.",
    obj(
      "An external provider and how far it got.",
      {
        providerId: str("Its provider_id in config.yaml."),
        image: str("Its image, as the CR names it."),
        phase: str(
          "Failed: its image or metadata is wrong; Ready: the rolled-out pods installed it; Pending otherwise.",
          { enum: ["Pending", "Ready", "Failed"] },
        ),
        message: str("What it is (package and provider_type), what it waits for, or what to fix."),
        initContainer: str("The init container that copies its wheels."),
      },
      ["providerId", "image", "phase", "message", "initContainer"],
    ),
  ),
  notes: strList("What the hooks decided on the user's behalf (e.g. a URL suffix added)."),
});

export type LlsdStatusV1alpha2 = TypeOf<typeof V1ALPHA2_STATUS_SCHEMA>;

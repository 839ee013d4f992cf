/**
 * JSON Schemas (ajv, draft-07) of the `llamastack.io/v1alpha1` spec and status, matching the Go
 * operator's generated CRD field for field. `default` appears only where the Go types carry
 * `+kubebuilder:default`. "Only one of distribution.name or distribution.image" is a CEL rule
 * added to the CRD elsewhere, not expressed here.
 */
import {
  bool,
  freeObject,
  int,
  intOrString,
  k8sList,
  list,
  mapOf,
  obj,
  quantity,
  resourceRequirements,
  str,
  strList,
} from "./schema-parts";
import { Type } from "@sinclair/typebox";

const distribution = obj(
  "Which Llama Stack distribution to run: a named distribution or a container image (only one of the two).",
  {
    name: str("Name of a distribution known to the operator (e.g. `starter`), mapped to its image."),
    image: str("Container image reference used directly instead of a named distribution."),
  },
);

const containerSpec = obj("Settings of the Llama Stack server container.", {
  name: str("Name of the server container.", { default: "llama-stack" }),
  port: int("Port the server listens on; 0 or unset means 8321."),
  resources: resourceRequirements("Compute resources of the server container."),
  env: k8sList("Environment variables of the server container.", "A corev1.EnvVar (name, value, valueFrom)."),
  command: strList("Overrides the container entrypoint."),
  args: strList("Overrides the container arguments."),
});

const podOverrides = obj("Pod-level overrides for the server Deployment.", {
  serviceAccountName: str("Service account the pod runs as; the operator creates `<name>-sa` when unset."),
  terminationGracePeriodSeconds: int("Grace period for pod termination, in seconds (0 is honoured)."),
  volumes: k8sList("Extra volumes added to the pod.", "A corev1.Volume."),
  volumeMounts: k8sList("Extra volume mounts added to the server container.", "A corev1.VolumeMount."),
});

const podDisruptionBudget = obj(
  "PodDisruptionBudget for the server pods; `maxUnavailable: 1` when neither field is set.",
  {
    minAvailable: intOrString("Pods that must stay available during a voluntary disruption (number or percentage)."),
    maxUnavailable: intOrString("Pods that may be unavailable during a voluntary disruption (number or percentage)."),
  },
);

const autoscaling = obj(
  "HorizontalPodAutoscaler for the server Deployment.",
  {
    minReplicas: int("Lower replica bound; the HPA uses max(1, replicas, minReplicas)."),
    maxReplicas: int("Upper replica bound."),
    targetCPUUtilizationPercentage: int("Target average CPU utilisation in percent; 80 when no target is set."),
    targetMemoryUtilizationPercentage: int("Target average memory utilisation in percent."),
  },
  ["maxReplicas"],
);

const storage = obj("Persistent storage for the server; its presence creates a PersistentVolumeClaim.", {
  size: quantity("Size of the PersistentVolumeClaim; 10Gi when unset."),
  mountPath: str("Where the volume is mounted in the server container; `/.llama` when unset."),
});

const userConfig = obj(
  "User-provided server configuration (`config.yaml`) from a ConfigMap.",
  {
    configMapName: str("Name of the ConfigMap holding `config.yaml`."),
    configMapNamespace: str("Namespace of the ConfigMap; defaults to the namespace of the resource."),
  },
  ["configMapName"],
);

const caBundle = obj(
  "Extra CA certificates trusted by the server, read from a ConfigMap and exposed as SSL_CERT_FILE.",
  {
    configMapName: str("Name of the ConfigMap holding PEM CA certificates."),
    configMapNamespace: str("Namespace of the ConfigMap; defaults to the namespace of the resource."),
    configMapKeys: strList('ConfigMap keys concatenated into one bundle; `["ca-bundle.crt"]` when unset.', {
      maxItems: 50,
    }),
  },
  ["configMapName"],
);

const server = obj(
  "Llama Stack server settings.",
  {
    distribution,
    containerSpec,
    workers: int("Number of uvicorn worker processes in each pod.", { minimum: 1 }),
    podOverrides,
    podDisruptionBudget,
    topologySpreadConstraints: k8sList(
      "How server pods are spread across topology domains.",
      "A corev1.TopologySpreadConstraint.",
    ),
    autoscaling,
    storage,
    userConfig,
    tlsConfig: obj("TLS settings of the server.", { caBundle }),
  },
  ["distribution"],
);

const network = obj("Network exposure and access control of the server.", {
  exposeRoute: bool("Exposes the server outside the cluster through an Ingress.", { default: false }),
  allowedFrom: obj("Extra sources allowed by the server's NetworkPolicy.", {
    namespaces: strList("Namespace names allowed to reach the server; `*` allows every namespace."),
    labels: strList("Namespace label keys; namespaces carrying any of them are allowed."),
  }),
});

export const V1ALPHA1_SPEC_SCHEMA = obj(
  "Desired state of the LlamaStackDistribution.",
  {
    replicas: int("Desired number of server pods.", { default: 1 }),
    server,
    network,
  },
  ["server"],
);

const RFC3339 = { format: "date-time" } as const;
/** metav1.Condition's own patterns (as in every generated CRD). */
const CONDITION_TYPE =
  "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$";
const CONDITION_REASON = "^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$";

const provider = obj(
  "A provider reported by the running server.",
  {
    api: str("API the provider serves (e.g. `inference`)."),
    provider_id: str("Provider identifier."),
    provider_type: str("Provider type (e.g. `remote::vllm`)."),
    config: freeObject("Provider configuration as reported by the server."),
    health: obj(
      "Health of the provider.",
      {
        status: str("Health status reported by the server."),
        message: str("Health message reported by the server."),
      },
      ["status", "message"],
    ),
  },
  ["api", "provider_id", "provider_type", "config", "health"],
);

const condition = obj(
  "A standard metav1.Condition.",
  {
    type: str("Condition type in CamelCase (e.g. `DeploymentReady`).", { maxLength: 316, pattern: CONDITION_TYPE }),
    status: str("Status of the condition.", { enum: ["True", "False", "Unknown"] }),
    reason: str("Machine-readable reason in CamelCase.", { minLength: 1, maxLength: 1024, pattern: CONDITION_REASON }),
    message: str("Human-readable message.", { maxLength: 32768 }),
    lastTransitionTime: str("When the condition last changed status.", RFC3339),
    observedGeneration: int("`metadata.generation` the condition was computed from.", { minimum: 0 }),
  },
  ["type", "status", "reason", "message", "lastTransitionTime"],
);

/** `status.version`; v1alpha2 has the same field with this very schema. */
export const VERSION_STATUS_SCHEMA = obj("Versions of the operator and the running server.", {
  operatorVersion: str("Version of the operator that last reconciled the resource."),
  llamaStackServerVersion: str("Version reported by the server's `/v1/version` endpoint."),
  lastUpdated: str("When the version information was last updated.", RFC3339),
});

/** `status.distributionConfig`; v1alpha2 has the same field with this very schema. */
export const DISTRIBUTION_CONFIG_STATUS_SCHEMA = obj("Active distribution and the providers it runs.", {
  activeDistribution: str("Running distribution name, or `custom` when an image is given."),
  providers: list("Providers reported by the server's `/v1/providers` endpoint.", provider),
  availableDistributions: mapOf("Distribution names known to the operator and their images.", Type.String()),
});

export const V1ALPHA1_STATUS_SCHEMA = obj("Observed state of the LlamaStackDistribution.", {
  phase: str("Lifecycle phase of the distribution.", {
    enum: ["Pending", "Initializing", "Ready", "Failed", "Terminating"],
  }),
  version: VERSION_STATUS_SCHEMA,
  distributionConfig: DISTRIBUTION_CONFIG_STATUS_SCHEMA,
  conditions: list("Standard conditions of the resource.", condition),
  availableReplicas: int("Number of ready server pods."),
  serviceURL: str("In-cluster URL of the server Service."),
  routeURL: str("External URL when `exposeRoute` is set; empty while the Ingress has no address."),
  observedGeneration: int("`metadata.generation` last processed by the controller."),
});

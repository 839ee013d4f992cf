/**
 * JSON Schema of `llamastack.io/v1alpha2` (docs/spec-reference.md): what the apiserver enforces. It accepts
 * every polymorphic form (`oneOf`) and rejects everything else; the CRD's structural schema
 * is derived from it. Cross-field rules live in `validate.ts`.
 */
import type { TSchema } from "@sinclair/typebox";
import {
  bool,
  describe,
  freeObject,
  int,
  intOrString,
  k8sList,
  list,
  listMap,
  mapOf,
  obj,
  oneOf,
  oneOfStrings,
  oneOrList,
  quantity,
  resourceRequirements,
  str,
  strList,
  withOtherFields,
} from "./schema-parts";
import { DEFAULT_PORT, DEFAULT_REPLICAS } from "../defaults";
import { DISABLE_NAMES, EXTERNAL_PROVIDER_APIS, REPLACE_NAMES, serverApiName } from "./apis";
import { MONITORING_SCHEMA } from "./schema-monitoring";
import { NETWORK_POLICY_SCHEMA } from "./v1alpha2-network-policy";
import { AUTH_SCHEMA } from "./auth-types";
import { EXPOSE_SCHEMA } from "./expose-types";
import { secretRef } from "./secret-ref-input";

/** The schema's name lists, defined in apis.ts beside the types they narrow; re-exported for the schema's readers. */
export { DISABLE_NAMES, EXTERNAL_PROVIDER_APIS, REPLACE_NAMES };

export const provider = withOtherFields(
  obj(
    "One provider of an API.",
    {
      id: str(
        "Provider id, unique across all APIs; required when an API lists more than one provider. Defaults to `provider`.",
        { minLength: 1, pattern: "^[a-zA-Z0-9]([a-zA-Z0-9._-]*[a-zA-Z0-9])?$" },
      ),
      provider: str(
        "Provider name (`vllm`, `ollama`, `faiss`…): the type of that name on the CR's server line (`remote::` when it has both and `endpoint` is set). A name no type of the line matches is refused; a type of your own is written in full (`remote::my-engine`).",
        { minLength: 1 },
      ),
      endpoint: str(
        "URL of the provider; becomes the type's URL key (`base_url`, with `/v1` added for vLLM and Ollama; `url`; host, port and db for pgvector).",
        { minLength: 1 },
      ),
      apiKey: secretRef(
        "API key or token, a Secret key (`{name, key}` or `{secretKeyRef: {name, key}}`); reaches the server as an environment variable under the type's key (`api_token`, `api_key`…), never in the ConfigMap.",
      ),
      secretRefs: mapOf(
        "Other secret config keys of the type (`password`, `host`…), each a Secret key (`{name, key}` or `{secretKeyRef: {name, key}}`); each reaches the server as an environment variable.",
        secretRef("A secret field."),
      ),
      settings: freeObject(
        "Extra provider config, deep-merged into the provider's `config` last. Not secret-resolved.",
      ),
    },
    ["provider"],
  ),
  secretRef("Any other field is a secret-ref field (e.g. `host`, `password`)."),
);

export const providerList = oneOrList(
  "One provider object, or a list of them (then each needs an `id`). Fields: `provider` (required), `id`, `endpoint`, `apiKey`, `secretRefs`, `settings`; any other field is a Secret key for the config key of its name. The names each server line accepts: docs/spec-reference.md#provider-names.",
  provider,
);

export const caBundle = obj(
  "A ConfigMap of PEM CA certificates.",
  {
    configMapName: str("ConfigMap with PEM certificates, in the CR's namespace.", { minLength: 1 }),
    configMapKeys: strList("Keys to read. Defaults to [ca-bundle.crt].", { minItems: 1, maxItems: 50 }),
  },
  ["configMapName"],
);

const caBundles = oneOrList(
  "Extra CA certificates the server trusts: one ConfigMap `{configMapName, configMapKeys}`, or a list of them (at most 20). Every certificate goes into one bundle file.",
  caBundle,
  { maxItems: 20 },
);

/** A config.yaml in a ConfigMap: `{configMapName, key}`. */
export function configMapKey(description: string, nameDescription: string) {
  return obj(
    description,
    {
      configMapName: str(nameDescription, { minLength: 1 }),
      key: str("The ConfigMap key holding config.yaml. Defaults to config.yaml.", {
        minLength: 1,
        maxLength: 253,
        pattern: "^[-._a-zA-Z0-9]+$",
      }),
    },
    ["configMapName"],
  );
}

/** An object with one field per name of `names`, each of schema `schema`. */
function sameForEach<const N extends readonly string[], S extends TSchema>(
  names: N,
  schema: S,
): { [K in N[number]]: S };
function sameForEach(names: readonly string[], schema: TSchema): { [name: string]: TSchema } {
  return Object.fromEntries(names.map((name) => [name, schema]));
}

/** Server API names `externalProviders` accepts → the CR section that lists them (`vector_io` → `vectorIo`). */
export const SECTION_OF_API: ReadonlyMap<string, string> = new Map(
  EXTERNAL_PROVIDER_APIS.map((s) => [serverApiName(s), s]),
);

export const externalProvider = obj(
  "An external provider image.",
  {
    providerId: str(
      "Provider id, unique among external providers; equal to an inline or base provider's id of the same API, it replaces that provider (with a warning in status).",
      { minLength: 1 },
    ),
    image: str("Image holding /lls-provider/lls-provider-spec.yaml and the provider packages.", { minLength: 1 }),
    imagePullPolicy: str("Pull policy.", { enum: ["Always", "Never", "IfNotPresent"], default: "IfNotPresent" }),
    config: freeObject("The provider's `config` in config.yaml."),
  },
  ["providerId", "image"],
);

const externalProviderList = list("External providers of one API, in init-container order.", externalProvider);

/** Kubernetes names: a DNS-1123 label (claim names inside the pod) and subdomain (object names). */
const DNS_LABEL = { pattern: "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", maxLength: 63 };
const DNS_SUBDOMAIN = {
  pattern: "^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$",
  maxLength: 253,
};
/**
 * Bounds the apiserver's CEL cost estimate of the rule that matches container claims to pod
 * claims (rules.ts); a pod needs a handful of claims, not dozens.
 */
export const MAX_RESOURCE_CLAIMS = 32;

/** corev1.ResourceClaim: the container's use of a pod claim (`workload.resourceClaims`). */
export const containerClaim = obj(
  "A claim of the pod the server container uses; its name must be one of workload.resourceClaims.",
  {
    name: str("Name of an entry of workload.resourceClaims.", DNS_LABEL),
    request: str("One request of that claim; unset, the container gets everything the claim allocated.", DNS_LABEL),
  },
  ["name"],
);

/** corev1.PodResourceClaim: a DRA claim the pod holds (Kubernetes 1.34+, docs/spec-reference.md#dra-claims). */
export const podResourceClaim = obj(
  "A DRA ResourceClaim the pod holds: set exactly one of resourceClaimName or resourceClaimTemplateName.",
  {
    name: str("Name of the claim inside the pod (a DNS label), which resources.claims[].name refers to.", DNS_LABEL),
    resourceClaimName: str("A ResourceClaim in the CR's namespace, shared by every pod that names it.", DNS_SUBDOMAIN),
    resourceClaimTemplateName: str(
      "A ResourceClaimTemplate in the CR's namespace: each pod gets a ResourceClaim of its own, deleted with the pod.",
      DNS_SUBDOMAIN,
    ),
  },
  ["name"],
);

export const modelObject = obj(
  "A model to register.",
  {
    name: str("Model id clients use.", { minLength: 1 }),
    provider: str("Provider id that serves it. Defaults to the first inference provider."),
    providerModelId: str("Model id at the provider. Defaults to `name`."),
    modelType: str("Model type.", { enum: ["llm", "embedding", "rerank"] }),
    contextLength: int("Context length, recorded in model metadata.", { minimum: 1 }),
    quantization: str("Quantization, recorded in model metadata."),
    embeddingDimension: int("Embedding dimension; required for embedding models.", { minimum: 1 }),
    metadata: freeObject("Extra model metadata."),
  },
  ["name"],
);

const model = oneOf("A model name, or a model object.", [
  str("Model name, registered with the first inference provider.", { minLength: 1 }),
  modelObject,
]);

export const V1ALPHA2_SPEC_SCHEMA = obj(
  "Desired state of a Llama Stack server.",
  {
    distribution: obj("Which distribution to run: a known `name` or an `image`.", {
      name: str("A named distribution (see `llsd distributions`).", { minLength: 1 }),
      image: str("A container image reference.", { minLength: 1 }),
    }),
    providers: obj("Providers per API; each is one object or a list.", {
      inference: providerList,
      safety: providerList,
      vectorIo: providerList,
      toolRuntime: providerList,
      telemetry: describe("Telemetry export (OTLP endpoint), one object or a list.", providerList),
      files: describe(
        "Files API storage (`localfs`, `s3`, `openai`), one object or a list of one: the server serves files with one provider, which replaces the base config's. For `s3`, `endpoint` is the S3 URL (MinIO…), `settings.bucket_name` is required and AWS keys go in `secretRefs` (`awsAccessKeyId`, `awsSecretAccessKey`).",
        providerList,
      ),
      batches: describe(
        "Batches API (`reference`), one object or a list of one: it replaces the base config's batches provider.",
        providerList,
      ),
      responses: describe(
        "Responses API (`builtin`), one object or a list of one: it replaces the base config's responses provider. `settings` tunes it (`vector_stores_config`, `compaction_config`…).",
        providerList,
      ),
      fileProcessors: describe(
        "File processors (`pypdf`, `docling`, `auto`, `markitdown`, `unstructured`, `docling-serve`…), one object or a list; overlaid on the base config's by id.",
        providerList,
      ),
      messages: describe(
        "Messages API (`builtin`; 0.8 and later lines), one object or a list of one: it replaces the base config's messages provider.",
        providerList,
      ),
      interactions: describe(
        "Interactions API (`builtin`; 0.8 and later lines), one object or a list of one: it replaces the base config's interactions provider.",
        providerList,
      ),
      skills: describe(
        "Skills API (`builtin`; 1.x lines), one object or a list of one: it replaces the base config's skills provider.",
        providerList,
      ),
    }),
    resources: obj("Resources registered at startup.", {
      models: list("Models to register.", model),
      tools: strList("Tool groups to make available (`websearch`, `rag`, `file_search`, `wolfram_alpha`)."),
      shields: strList("Shields to register with the safety provider."),
    }),
    storage: obj("State storage; absent keeps the distribution's defaults.", {
      kv: obj("Key-value store.", {
        type: str("Backend type.", { enum: ["sqlite", "redis", "postgres"], default: "sqlite" }),
        endpoint: str("Redis endpoint, `redis://host:port` or `host:port`."),
        password: secretRef(
          "Redis password: the server's redis store has no password field, so it is refused on new CRs (kept with a warning on running ones); use type postgres for a store behind a password.",
        ),
        connectionString: secretRef(
          "Postgres DSN `postgresql://user:password@host:port/db` (type postgres); may be the sql store's.",
        ),
      }),
      sql: obj("SQL store.", {
        type: str("Backend type.", { enum: ["sqlite", "postgres"], default: "sqlite" }),
        connectionString: secretRef("Postgres DSN `postgresql://user:password@host:port/db`."),
      }),
    }),
    disabled: list("APIs to remove from the config.", oneOfStrings(DISABLE_NAMES)),
    replace: list(
      "APIs that run exactly the providers spec.providers lists for them (the base config's other providers of those APIs are dropped), and kinds of registered resources (`models`, `shields`, `vectorStores`, `datasets`, `scoringFns`, `benchmarks`) that keep only the spec's. Names camelCase or snake_case. Unset: spec providers and models are laid over the base's by id.",
      oneOfStrings(REPLACE_NAMES),
    ),
    registryRefreshIntervalSeconds: int(
      "Seconds between the server's refreshes of the models its providers list: server.registry_refresh_interval_seconds in config.yaml, on the 0.8 and 1.x lines (0.7 has no such setting). Unset, the server refreshes every 300 seconds. Setting it generates a config.yaml; with overrideConfig, write the key in that config instead.",
      { minimum: 1, maximum: 2147483647 },
    ),
    networking: obj("Port, TLS, exposure and access.", {
      port: int("Server port.", { minimum: 1, maximum: 65535, default: DEFAULT_PORT }),
      tls: obj("TLS settings.", {
        enabled: bool("Serve HTTPS with `secretName`."),
        secretName: str("A kubernetes.io/tls Secret.", { minLength: 1 }),
        caBundle: caBundles,
      }),
      expose: EXPOSE_SCHEMA,
      allowedFrom: obj("Who may reach the server (NetworkPolicy).", {
        namespaces: strList("Namespace names; `*` means all."),
        labels: strList("Namespace label keys (matched with Exists)."),
      }),
      policy: NETWORK_POLICY_SCHEMA,
    }),
    workload: obj("Kubernetes workload settings.", {
      replicas: int("Pod replicas.", { minimum: 0, default: DEFAULT_REPLICAS }),
      workers: int("Uvicorn worker processes.", { minimum: 1 }),
      resources: resourceRequirements("Container resources.", containerClaim, MAX_RESOURCE_CLAIMS),
      resourceClaims: listMap(
        "DRA ResourceClaims the pod holds (pod.spec.resourceClaims, Kubernetes 1.34+), which resources.claims hand to the server container. Names are unique.",
        podResourceClaim,
        ["name"],
        { maxItems: MAX_RESOURCE_CLAIMS },
      ),
      autoscaling: obj(
        "Horizontal pod autoscaling.",
        {
          minReplicas: int("Minimum replicas.", { minimum: 1 }),
          maxReplicas: int("Maximum replicas.", { minimum: 1 }),
          targetCPUUtilizationPercentage: int("Target CPU %.", { minimum: 1, maximum: 100 }),
          targetMemoryUtilizationPercentage: int("Target memory %.", { minimum: 1, maximum: 100 }),
        },
        ["maxReplicas"],
      ),
      storage: obj("Persistent volume for server state.", {
        size: quantity("Volume size. Defaults to 10Gi."),
        mountPath: str("Mount path. Defaults to /.llama.", { minLength: 1 }),
      }),
      podDisruptionBudget: obj(
        "Pod disruption budget: one of minAvailable or maxUnavailable; `{}` means maxUnavailable 1.",
        {
          minAvailable: intOrString("Minimum available pods."),
          maxUnavailable: intOrString("Maximum unavailable pods."),
        },
      ),
      topologySpreadConstraints: k8sList("Topology spread constraints.", "A TopologySpreadConstraint."),
      overrides: obj("Pod and container overrides.", {
        serviceAccountName: str("Service account for the pod."),
        terminationGracePeriodSeconds: int("Termination grace period.", { minimum: 0 }),
        priorityClassName: str(
          "PriorityClass of the pod (a name of the cluster): which pods the scheduler evicts first when a node is full.",
          DNS_SUBDOMAIN,
        ),
        env: k8sList("Extra environment variables; a name already set by the hooks is replaced.", "An EnvVar."),
        command: strList("Container command."),
        args: strList("Container args."),
        volumes: k8sList("Extra volumes.", "A Volume."),
        volumeMounts: k8sList("Extra volume mounts.", "A VolumeMount."),
      }),
    }),
    externalProviders: obj(
      "Providers shipped as images, per API section, merged after inline providers.",
      sameForEach(EXTERNAL_PROVIDER_APIS, externalProviderList),
    ),
    overrideConfig: configMapKey(
      "Use a complete config.yaml from a ConfigMap instead of generating one.",
      "ConfigMap holding the config.yaml, in the CR's namespace.",
    ),
    baseConfig: configMapKey(
      "Generate config.yaml from this base instead of the image's config labels or the bundled config. Exclusive with overrideConfig.",
      "ConfigMap holding the base config.yaml, in the CR's namespace.",
    ),
    monitoring: MONITORING_SCHEMA,
    auth: AUTH_SCHEMA,
  },
  ["distribution"],
);

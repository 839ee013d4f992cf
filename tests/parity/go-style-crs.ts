/**
 * v1alpha1 CRs as someone coming from the Go operator writes them, written for this project (no
 * file of the Go operator is copied): one per feature its samples and README show (operator
 * `llamastack/llama-stack-k8s-operator`, `config/samples/` and `README.md` at `main` @ `7735e43`),
 * with our own names and values. Each comes with the ConfigMaps it references.
 */
import type { KubeObject } from "../../lib/wire/metacontroller";
import { ROOT_CA } from "../lib/sync/certificates";
import { aConfigMap, NS } from "../sync-builders";
import type { GoSpec } from "./go-operator";

export interface GoStyleCr {
  /** The v1alpha1 manifest, as written (no CRD defaults applied). */
  readonly cr: KubeObject;
  readonly related: readonly KubeObject[];
}

const OLLAMA_URL = "http://ollama.models.svc.cluster.local:11434";
const ENV = [
  { name: "OLLAMA_INFERENCE_MODEL", value: "qwen2.5:0.5b" },
  { name: "OLLAMA_URL", value: OLLAMA_URL },
];

/**
 * A whole config.yaml in the Go operator's style: `version: '2'` quoted (a string, which the
 * server accepts), sqlite stores under `~/.llama`.
 */
const USER_CONFIG_YAML = `# written by hand, as a Go operator user does
version: '2'
image_name: starter
apis:
- inference
providers:
  inference:
  - provider_id: ollama
    provider_type: remote::ollama
    config:
      url: ${OLLAMA_URL}
models:
- model_id: qwen2.5:0.5b
  provider_id: ollama
  model_type: llm
server:
  port: 8321
storage:
  backends:
    kv_default:
      type: kv_sqlite
      db_path: \${env.SQLITE_STORE_DIR:=~/.llama/distributions/ollama}/kv.db
    sql_default:
      type: sql_sqlite
      db_path: \${env.SQLITE_STORE_DIR:=~/.llama/distributions/ollama}/sql.db
  stores:
    metadata:
      backend: kv_default
      namespace: registry
    inference:
      backend: sql_default
      table_name: inference_store
`;
export const USER_CONFIG_MAP = "ollama-run-config";
export const CA_CONFIG_MAP = "corp-ca-bundle";

function aGoCr(name: string, spec: GoSpec): KubeObject {
  return structuredClone({
    apiVersion: "llamastack.io/v1alpha1",
    kind: "LlamaStackDistribution",
    metadata: { name, namespace: NS, uid: `uid-${name}`, generation: 1 },
    spec,
  });
}

const userConfig = aConfigMap(USER_CONFIG_MAP, { "config.yaml": USER_CONFIG_YAML });
const starter = { distribution: { name: "starter" } };

/** Keyed by what each one exercises. */
export const GO_STYLE_CRS = {
  /** Every workload knob of the sample CR: env, workers, PDB, spread, autoscaling, storage with a custom mount. */
  "full-workload": {
    cr: aGoCr("go-full", {
      replicas: 1,
      server: {
        ...starter,
        containerSpec: { name: "llama-stack", env: ENV },
        topologySpreadConstraints: [
          {
            labelSelector: { matchLabels: { "app.kubernetes.io/instance": "go-full" } },
            topologyKey: "kubernetes.io/hostname",
            maxSkew: 1,
            whenUnsatisfiable: "ScheduleAnyway",
          },
        ],
        workers: 3,
        podDisruptionBudget: { maxUnavailable: 1 },
        autoscaling: {
          minReplicas: 1,
          maxReplicas: 4,
          targetCPUUtilizationPercentage: 70,
          targetMemoryUtilizationPercentage: 65,
        },
        storage: { size: "15Gi", mountPath: "/opt/app-root/state" },
      },
    }),
    related: [],
  },
  /** A whole config.yaml from a ConfigMap (userConfig), with the port spelled out. */
  "user-config": {
    cr: aGoCr("go-user-config", {
      replicas: 1,
      server: {
        ...starter,
        containerSpec: { port: 8321, env: [{ name: "OLLAMA_EMBEDDING_MODEL", value: "nomic-embed-text" }] },
        userConfig: { configMapName: USER_CONFIG_MAP },
      },
    }),
    related: [userConfig],
  },
  /** userConfig plus a CA bundle ConfigMap with the default key (`ca-bundle.crt`). */
  "ca-bundle": {
    cr: aGoCr("go-ca-bundle", {
      replicas: 1,
      server: {
        ...starter,
        containerSpec: { port: 8321, env: ENV },
        userConfig: { configMapName: USER_CONFIG_MAP },
        tlsConfig: { caBundle: { configMapName: CA_CONFIG_MAP } },
      },
    }),
    related: [userConfig, aConfigMap(CA_CONFIG_MAP, { "ca-bundle.crt": ROOT_CA })],
  },
  /** No ConfigMap at all: the image's own config, on a volume of the given size and mount path. */
  "no-config-map": {
    cr: aGoCr("go-no-config-map", {
      replicas: 1,
      server: { ...starter, containerSpec: { env: ENV }, storage: { size: "8Gi", mountPath: "/opt/app-root/state" } },
    }),
    related: [],
  },
  /** Network access: named namespaces and namespace label keys (with a prefix), no route. */
  "network-labels": {
    cr: aGoCr("go-network", {
      replicas: 1,
      server: { ...starter, containerSpec: { name: "llama-stack", env: ENV } },
      network: {
        exposeRoute: false,
        allowedFrom: { namespaces: ["chat-ui", "batch-jobs"], labels: ["example.com/llm-clients", "tier/backend"] },
      },
    }),
    related: [],
  },
  /** Exposed (an Ingress on plain Kubernetes), every namespace admitted. */
  "network-public": {
    cr: aGoCr("go-public", {
      replicas: 1,
      server: { ...starter, containerSpec: { name: "llama-stack", env: ENV } },
      network: { exposeRoute: true, allowedFrom: { namespaces: ["*"] } },
    }),
    related: [],
  },
  /** The README's quick start: env and storage, no replicas field. */
  "readme-quick-start": {
    cr: aGoCr("go-quick-start", {
      server: { ...starter, containerSpec: { env: ENV }, storage: { size: "20Gi" } },
    }),
    related: [],
  },
  /** The README's network example writes a label as `key=value`, which the Go operator takes as a key. */
  "readme-label-with-value": {
    cr: aGoCr("go-label-value", {
      server: starter,
      network: { exposeRoute: false, allowedFrom: { namespaces: ["web"], labels: ["team=frontend"] } },
    }),
    related: [],
  },
} satisfies Record<string, GoStyleCr>;

export type GoStyleName = keyof typeof GO_STYLE_CRS;

/** A fresh copy, so a test can change it freely. */
export function goStyleCr(name: GoStyleName): { cr: KubeObject; related: KubeObject[] } {
  const { cr, related } = GO_STYLE_CRS[name];
  return structuredClone({ cr, related: [...related] });
}

/** All of them, each a fresh copy, with its name. */
export function everyGoStyleCr(): { name: string; cr: KubeObject; related: KubeObject[] }[] {
  return Object.entries(GO_STYLE_CRS).map(([name, { cr, related }]) =>
    structuredClone({ name, cr, related: [...related] }),
  );
}

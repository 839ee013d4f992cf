/**
 * A model of what the Go operator (llama-stack-k8s-operator, release-0.9 / main @ 7735e43)
 * creates for a v1alpha1 CR, written from its source (every child's shape, and the CA bundle it
 * mounts), in the form Metacontroller would send them back to the hooks as observed
 * children after a takeover: server metadata, a controller owner reference to the same CR UID,
 * the Go operator's labels, no Metacontroller last-applied record, a ready Deployment.
 *
 * Assumptions, each stated in docs/migrating-from-go-operator.md: the NetworkPolicy feature flag is on (unless
 * `networkPolicy: false`, its real default); images are
 * release-0.9's pinned tags; the children were labelled `controller-uid: <CR uid>` as the
 * takeover procedure says (Metacontroller claims only children that match its selector).
 * ServiceAccount `<name>-sa` and RoleBinding `<name>-rb` are not Metacontroller child types:
 * they are listed apart and never reach the hooks.
 */
import type { KubeObject } from "../../lib/wire/metacontroller";
import { shown } from "../shown";

export const GO_OPERATOR_NAMESPACE = "llama-stack-k8s-operator-system";
export const GO_CONFIG_PATH = "/etc/llama-stack/config.yaml";
const IMAGES: Record<string, string> = {
  starter: "docker.io/llamastack/distribution-starter:0.7.1",
  "remote-vllm": "docker.io/llamastack/distribution-remote-vllm:0.7.1",
  "meta-reference-gpu": "docker.io/llamastack/distribution-meta-reference-gpu:0.7.1",
  "postgres-demo": "docker.io/llamastack/distribution-postgres-demo:0.7.1",
};

type Json = Record<string, unknown>;
export interface GoSpec {
  replicas?: number;
  server: {
    distribution: { name?: string; image?: string };
    containerSpec?: {
      name?: string;
      port?: number;
      resources?: { requests?: Json; limits?: Json };
      env?: Json[];
      command?: string[];
      args?: string[];
    };
    workers?: number;
    podOverrides?: {
      serviceAccountName?: string;
      terminationGracePeriodSeconds?: number;
      volumes?: Json[];
      volumeMounts?: Json[];
    };
    podDisruptionBudget?: { minAvailable?: number | string; maxUnavailable?: number | string };
    topologySpreadConstraints?: Json[];
    autoscaling?: {
      minReplicas?: number;
      maxReplicas: number;
      targetCPUUtilizationPercentage?: number;
      targetMemoryUtilizationPercentage?: number;
    };
    storage?: { size?: string; mountPath?: string };
    userConfig?: { configMapName: string; configMapNamespace?: string };
    tlsConfig?: { caBundle?: { configMapName: string; configMapNamespace?: string; configMapKeys?: string[] } };
  };
  network?: { exposeRoute?: boolean; allowedFrom?: { namespaces?: string[]; labels?: string[] } };
}

export interface GoCr {
  readonly name: string;
  readonly namespace: string;
  readonly uid: string;
  readonly spec: GoSpec;
}

/** The Go operator's startup script is not reproduced here; the model only marks where it goes. */
export const GO_STARTUP_SCRIPT = "<the Go operator's version-sniffing startup script>";

const COMMON = {
  "app.kubernetes.io/managed-by": "llama-stack-operator",
  "app.kubernetes.io/part-of": "llama-stack",
  "llamastack.io/watch": "true",
};
const selector = (name: string) => ({ app: "llama-stack", "app.kubernetes.io/instance": name });

export function goPort(cr: GoCr): number {
  return cr.spec.server.containerSpec?.port || 8321;
}
const mountPath = (cr: GoCr) => cr.spec.server.storage?.mountPath || "/.llama";
const workers = (cr: GoCr) =>
  cr.spec.server.workers && cr.spec.server.workers > 0 ? cr.spec.server.workers : undefined;
const replicas = (cr: GoCr) => cr.spec.replicas ?? 1;

function resources(cr: GoCr): Json {
  const given = structuredClone(cr.spec.server.containerSpec?.resources ?? {});
  const requests: Json = { ...(given.requests ?? {}) };
  const zero = (q: unknown) => q === undefined || Number.parseFloat(shown(q)) === 0;
  if (zero(requests.cpu)) requests.cpu = String(workers(cr) ?? 1);
  if (zero(requests.memory)) requests.memory = "1Gi";
  const limits: Json = { ...(given.limits ?? {}) };
  if (workers(cr) !== undefined) {
    if (zero(limits.cpu)) limits.cpu = requests.cpu;
    if (zero(limits.memory)) limits.memory = requests.memory;
  }
  return { requests, ...(Object.keys(limits).length > 0 ? { limits } : {}) };
}

/** What the Go operator reads from ConfigMaps: is there any CA bundle? */
export function goHasCaBundle(cr: GoCr, caData: string | undefined): boolean {
  return cr.spec.server.tlsConfig?.caBundle !== undefined || caData !== undefined;
}

function container(cr: GoCr, caBundle: boolean): Json {
  const c = cr.spec.server.containerSpec ?? {};
  const env: Json[] = [
    { name: "HF_HOME", value: mountPath(cr) },
    ...(caBundle ? [{ name: "SSL_CERT_FILE", value: "/etc/ssl/certs/ca-bundle/ca-bundle.crt" }] : []),
    { name: "LLS_WORKERS", value: String(workers(cr) ?? 1) },
    { name: "LLS_PORT", value: String(goPort(cr)) },
    { name: "LLAMA_STACK_CONFIG", value: GO_CONFIG_PATH },
    ...structuredClone(c.env ?? []),
  ];
  const userConfig = cr.spec.server.userConfig !== undefined;
  const command =
    c.command && c.command.length > 0 ? c.command : userConfig ? ["/bin/sh", "-c", GO_STARTUP_SCRIPT] : undefined;
  const args = c.args && c.args.length > 0 ? c.args : userConfig ? [] : undefined;
  return {
    name: c.name || "llama-stack",
    image: cr.spec.server.distribution.image ?? IMAGES[cr.spec.server.distribution.name ?? ""],
    ...(command ? { command } : {}),
    ...(args ? { args } : {}),
    ports: [{ containerPort: goPort(cr) }],
    env,
    resources: resources(cr),
    volumeMounts: [
      { name: "lls-storage", mountPath: mountPath(cr) },
      ...(userConfig ? [{ name: "user-config", mountPath: "/etc/llama-stack/", readOnly: true }] : []),
      ...(caBundle ? [{ name: "ca-bundle", mountPath: "/etc/ssl/certs/ca-bundle", readOnly: true }] : []),
      ...structuredClone(cr.spec.server.podOverrides?.volumeMounts ?? []),
    ],
    startupProbe: {
      httpGet: { path: "/v1/health", port: goPort(cr) },
      initialDelaySeconds: 15,
      timeoutSeconds: 30,
      failureThreshold: 3,
      successThreshold: 1,
    },
  };
}

function podSpec(cr: GoCr, caBundle: boolean): Json {
  const s = cr.spec.server;
  const instance = { matchLabels: { "app.kubernetes.io/instance": cr.name } };
  const several = replicas(cr) > 1;
  const spread =
    s.topologySpreadConstraints && s.topologySpreadConstraints.length > 0
      ? structuredClone(s.topologySpreadConstraints)
      : several
        ? ["topology.kubernetes.io/region", "topology.kubernetes.io/zone", "kubernetes.io/hostname"].map(
            (topologyKey) => ({
              maxSkew: 1,
              topologyKey,
              whenUnsatisfiable: "ScheduleAnyway",
              labelSelector: instance,
            }),
          )
        : undefined;
  return {
    serviceAccountName: s.podOverrides?.serviceAccountName ?? `${cr.name}-sa`,
    ...(s.podOverrides?.terminationGracePeriodSeconds !== undefined
      ? { terminationGracePeriodSeconds: s.podOverrides.terminationGracePeriodSeconds }
      : {}),
    securityContext: { fsGroup: 1001 },
    ...(spread ? { topologySpreadConstraints: spread } : {}),
    ...(several
      ? {
          affinity: {
            podAntiAffinity: {
              preferredDuringSchedulingIgnoredDuringExecution: [
                { weight: 100, podAffinityTerm: { labelSelector: instance, topologyKey: "kubernetes.io/hostname" } },
              ],
            },
          },
        }
      : {}),
    containers: [container(cr, caBundle)],
    volumes: [
      s.storage
        ? { name: "lls-storage", persistentVolumeClaim: { claimName: `${cr.name}-pvc` } }
        : { name: "lls-storage", emptyDir: {} },
      ...(caBundle
        ? [
            {
              name: "ca-bundle",
              configMap: { name: `${cr.name}-ca-bundle`, items: [{ key: "ca-bundle.crt", path: "ca-bundle.crt" }] },
            },
          ]
        : []),
      ...(s.userConfig ? [{ name: "user-config", configMap: { name: s.userConfig.configMapName } }] : []),
      ...structuredClone(s.podOverrides?.volumes ?? []),
    ],
  };
}

function peers(cr: GoCr): Json[] {
  const allowed = cr.spec.network?.allowedFrom;
  if (allowed?.namespaces?.includes("*")) return [{ namespaceSelector: {} }];
  const byName = (ns: string) => ({ namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": ns } } });
  return [
    { podSelector: {} },
    byName(GO_OPERATOR_NAMESPACE),
    ...(allowed?.namespaces ?? []).map(byName),
    ...(allowed?.labels ?? []).map((key) => ({
      namespaceSelector: { matchExpressions: [{ key, operator: "Exists" }] },
    })),
    ...(cr.spec.network
      ? [{ namespaceSelector: { matchLabels: { "network.openshift.io/policy-group": "ingress" } } }]
      : []),
  ];
}

/**
 * The children as desired by the Go operator (no server metadata). `caData` is the managed
 * bundle's text, when any CA source exists.
 */
export function goDesired(cr: GoCr, caData?: string, networkPolicy = true): KubeObject[] {
  const s = cr.spec.server;
  const meta = (name: string, labels: Json = COMMON): KubeObject["metadata"] => ({
    name,
    namespace: cr.namespace,
    labels: labels as Record<string, string>,
  });
  const caBundle = goHasCaBundle(cr, caData);
  const objects: KubeObject[] = [
    {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: meta(cr.name),
      spec: {
        ...(s.autoscaling && s.autoscaling.maxReplicas > 0 ? {} : { replicas: replicas(cr) }),
        selector: { matchLabels: selector(cr.name) },
        ...(s.storage ? { strategy: { type: "Recreate" } } : {}),
        template: {
          metadata: {
            labels: selector(cr.name),
            annotations: {
              ...(s.userConfig ? { "configmap.hash/user-config": `1234-${s.userConfig.configMapName}` } : {}),
              ...(caBundle ? { "configmap.hash/ca-bundle": `5678-${cr.name}-ca-bundle` } : {}),
            },
          },
          spec: podSpec(cr, caBundle),
        },
      },
    },
  ];
  // HasPorts(): a Service only when containerSpec.port or containerSpec.env is set.
  if ((s.containerSpec?.port ?? 0) !== 0 || (s.containerSpec?.env ?? []).length > 0) {
    objects.push({
      apiVersion: "v1",
      kind: "Service",
      metadata: meta(`${cr.name}-service`),
      spec: {
        type: "ClusterIP",
        selector: selector(cr.name),
        ports: [{ name: "http", protocol: "TCP", port: goPort(cr), targetPort: goPort(cr) }],
      },
    });
  }
  if (s.storage) {
    objects.push({
      apiVersion: "v1",
      kind: "PersistentVolumeClaim",
      metadata: meta(`${cr.name}-pvc`),
      spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: s.storage.size ?? "10Gi" } } },
    });
  }
  if (networkPolicy) {
    objects.push({
      apiVersion: "networking.k8s.io/v1",
      kind: "NetworkPolicy",
      metadata: meta(`${cr.name}-network-policy`),
      spec: {
        podSelector: { matchLabels: selector(cr.name) },
        policyTypes: ["Ingress"],
        ingress: [{ ports: [{ protocol: "TCP", port: goPort(cr) }], from: peers(cr) }],
      },
    });
  }
  // HPA and PDB carry the base manifest's labels, whose instance label the operator never fills.
  const quirk = { app: "llama-stack", "app.kubernetes.io/instance": "", ...COMMON };
  if (s.podDisruptionBudget || replicas(cr) > 1) {
    // A given budget is copied field by field: `{}` gives a PDB with neither field (updatePodDisruptionBudget deletes both).
    const budget = s.podDisruptionBudget ? structuredClone(s.podDisruptionBudget) : { maxUnavailable: 1 };
    objects.push({
      apiVersion: "policy/v1",
      kind: "PodDisruptionBudget",
      metadata: meta(`${cr.name}-pdb`, quirk),
      spec: { selector: { matchLabels: selector(cr.name) }, ...budget },
    });
  }
  if (s.autoscaling) {
    const a = s.autoscaling;
    const metric = (name: string, averageUtilization: number) => ({
      type: "Resource",
      resource: { name, target: { type: "Utilization", averageUtilization } },
    });
    const metrics = [
      ...(a.targetCPUUtilizationPercentage !== undefined || a.targetMemoryUtilizationPercentage === undefined
        ? [metric("cpu", a.targetCPUUtilizationPercentage ?? 80)]
        : []),
      ...(a.targetMemoryUtilizationPercentage !== undefined
        ? [metric("memory", a.targetMemoryUtilizationPercentage)]
        : []),
    ];
    objects.push({
      apiVersion: "autoscaling/v2",
      kind: "HorizontalPodAutoscaler",
      metadata: meta(`${cr.name}-hpa`, quirk),
      spec: {
        scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: cr.name },
        minReplicas: Math.max(1, replicas(cr), a.minReplicas ?? 1),
        maxReplicas: a.maxReplicas,
        metrics,
      },
    });
  }
  if (cr.spec.network?.exposeRoute) {
    objects.push({
      apiVersion: "networking.k8s.io/v1",
      kind: "Ingress",
      metadata: meta(`${cr.name}-ingress`, {
        "app.kubernetes.io/managed-by": "llama-stack-operator",
        "app.kubernetes.io/instance": cr.name,
      }),
      spec: {
        rules: [
          {
            http: {
              paths: [
                {
                  path: "/",
                  pathType: "Prefix",
                  backend: { service: { name: `${cr.name}-service`, port: { number: goPort(cr) } } },
                },
              ],
            },
          },
        ],
      },
    });
  }
  if (caBundle && caData !== undefined) {
    objects.push({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: meta(`${cr.name}-ca-bundle`, {
        "app.kubernetes.io/managed-by": "llama-stack-operator",
        "app.kubernetes.io/instance": cr.name,
        "app.kubernetes.io/component": "ca-bundle",
        "llamastack.io/watch": "true",
      }),
      data: { "ca-bundle.crt": caData },
    });
  }
  return objects;
}

/** Objects the Go operator also creates that are not Metacontroller child types (never observed by the hooks). */
export function goOutsideChildren(cr: GoCr): string[] {
  return [`ServiceAccount/${cr.name}-sa`, `RoleBinding/${cr.name}-rb (OpenShift only)`];
}

const ready = (cr: GoCr): number => Math.max(replicas(cr), cr.spec.server.autoscaling?.minReplicas ?? 0, 1);

/** As Metacontroller sends them back: server metadata, owner reference, the labelling step, a ready Deployment. */
export function goObserved(cr: GoCr, caData?: string, networkPolicy = true): KubeObject[] {
  return goDesired(cr, caData, networkPolicy).map((o, i) => ({
    ...o,
    metadata: {
      ...o.metadata,
      labels: { ...o.metadata.labels, "controller-uid": cr.uid },
      uid: `go-${i}`,
      resourceVersion: String(1000 + i),
      creationTimestamp: "2026-01-15T08:00:00Z",
      ownerReferences: [
        {
          apiVersion: "llamastack.io/v1alpha1",
          kind: "LlamaStackDistribution",
          name: cr.name,
          uid: cr.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    ...(o.kind === "Deployment"
      ? {
          status: {
            replicas: ready(cr),
            readyReplicas: ready(cr),
            updatedReplicas: ready(cr),
            availableReplicas: ready(cr),
          },
        }
      : {}),
  }));
}

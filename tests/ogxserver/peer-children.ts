/**
 * A model of the children the OGX operator (github.com/ogx-ai/ogx-k8s-operator at 1784464,
 * v0.14.0) keeps for an OGXServer, written from its code, not copied from it:
 * `controllers/manifests/base/*.yaml` (kustomize base, the `labels` pairs without selectors),
 * `pkg/deploy/kustomizer.go` (name prefix except the Deployment, field mappings, Recreate with
 * storage, no replicas under an HPA), `controllers/resource_helper.go` (container, env, mounts,
 * probes, volumes, spread), `pkg/deploy/plugins/service_transformer.go` and
 * `networkpolicy_transformer.go`, `controllers/network_resources.go` (Ingress) and
 * `controllers/configmap_reconciler.go` (generated ConfigMap). Only the fields that shape a
 * takeover are modelled; the OGXServer spec is the subset the scenarios use.
 */
import type { KubeObject } from "../../lib/wire/metacontroller";
import { peerDeployment } from "./peer-deployment";
import {
  PEER_BASE_LABELS,
  PEER_LABELS,
  PEER_METRICS_PORT,
  PEER_OPERATOR_NAMESPACE,
  PEER_SELECTOR,
  peerConfigMapName,
  peerPort,
  peerReplicas,
  type PeerServer,
} from "./peer-spec";

export * from "./peer-spec";

const meta = (s: PeerServer, name: string, labels: object = PEER_LABELS) => ({
  name,
  namespace: s.namespace,
  labels: { ...labels },
});

function service(s: PeerServer): KubeObject {
  const port = peerPort(s);
  return {
    apiVersion: "v1",
    kind: "Service",
    metadata: meta(s, `${s.name}-service`),
    spec: {
      type: "ClusterIP",
      selector: PEER_SELECTOR(s.name),
      ports: [
        { name: "http", protocol: "TCP", port, targetPort: port },
        { name: "metrics", protocol: "TCP", port: PEER_METRICS_PORT, targetPort: PEER_METRICS_PORT },
      ],
    },
  };
}

function networkPolicy(s: PeerServer): KubeObject {
  const peers: object[] = [
    { podSelector: {} },
    { namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": PEER_OPERATOR_NAMESPACE } } },
  ];
  // Router peers whenever spec.network is set at all.
  if (s.spec.network)
    peers.push({ namespaceSelector: { matchLabels: { "network.openshift.io/policy-group": "ingress" } } });
  const monitoring = { namespaceSelector: { matchLabels: { "network.openshift.io/policy-group": "monitoring" } } };
  return {
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: meta(s, `${s.name}-network-policy`),
    spec: {
      podSelector: { matchLabels: PEER_SELECTOR(s.name) },
      policyTypes: ["Ingress"],
      ingress: [
        { from: peers, ports: [{ protocol: "TCP", port: peerPort(s) }] },
        { from: [monitoring], ports: [{ protocol: "TCP", port: PEER_METRICS_PORT }] },
      ],
    },
  };
}

function pvc(s: PeerServer): KubeObject[] {
  const storage = s.spec.workload?.storage;
  if (!storage) return [];
  return [
    {
      apiVersion: "v1",
      kind: "PersistentVolumeClaim",
      metadata: meta(s, `${s.name}-pvc`),
      // What the cluster filled in once bound: the class and the volume hold the data.
      spec: {
        accessModes: ["ReadWriteOnce"],
        resources: { requests: { storage: storage.size ?? "10Gi" } },
        storageClassName: "standard",
        volumeName: `pvc-${s.name}-0001`,
        volumeMode: "Filesystem",
      },
    },
  ];
}

function pdb(s: PeerServer): KubeObject[] {
  const given = s.spec.workload?.podDisruptionBudget;
  if (!given && peerReplicas(s) <= 1) return [];
  const budget = given ?? { maxUnavailable: 1 };
  return [
    {
      apiVersion: "policy/v1",
      kind: "PodDisruptionBudget",
      metadata: meta(s, `${s.name}-pdb`, PEER_BASE_LABELS),
      spec: { ...budget, selector: { matchLabels: PEER_SELECTOR(s.name) } },
    },
  ];
}

function hpa(s: PeerServer): KubeObject[] {
  const auto = s.spec.workload?.autoscaling;
  if (!auto) return [];
  const minReplicas = Math.max(1, peerReplicas(s), auto.minReplicas ?? 0);
  const cpu = auto.targetCPUUtilizationPercentage ?? 80;
  return [
    {
      apiVersion: "autoscaling/v2",
      kind: "HorizontalPodAutoscaler",
      metadata: meta(s, `${s.name}-hpa`, PEER_BASE_LABELS),
      spec: {
        scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: s.name },
        minReplicas,
        maxReplicas: auto.maxReplicas,
        metrics: [
          { type: "Resource", resource: { name: "cpu", target: { type: "Utilization", averageUtilization: cpu } } },
        ],
      },
    },
  ];
}

function ingress(s: PeerServer): KubeObject[] {
  if (!s.spec.network?.externalAccess?.enabled) return [];
  const backend = { service: { name: `${s.name}-service`, port: { number: peerPort(s) } } };
  return [
    {
      apiVersion: "networking.k8s.io/v1",
      kind: "Ingress",
      metadata: meta(s, `${s.name}-ingress`, {
        "app.kubernetes.io/managed-by": "ogx-operator",
        "app.kubernetes.io/instance": s.name,
      }),
      spec: { rules: [{ http: { paths: [{ path: "/", pathType: "Prefix", backend }] } }] },
    },
  ];
}

function generatedConfig(s: PeerServer): KubeObject[] {
  const config = s.spec.generatedConfig;
  if (!config) return [];
  return [
    {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: meta(s, peerConfigMapName(s)!, {
        "app.kubernetes.io/managed-by": "ogx-operator",
        "app.kubernetes.io/instance": s.name,
        "ogx.io/generated-config": "true",
        "ogx.io/watch": "true",
      }),
      immutable: true,
      data: { "config.yaml": config.yaml },
    },
  ];
}

/** Objects outside Metacontroller's child kinds: the ServiceAccount and, on OpenShift, its anyuid RoleBinding. */
export function peerOutsideChildren(s: PeerServer): string[] {
  return [`ServiceAccount/${s.name}-sa`, `RoleBinding/${s.name}-rb (OpenShift only)`];
}

/** Every object the OGX operator keeps for `s` that is of a kind the hooks' CompositeController lists. */
export function peerChildren(s: PeerServer): KubeObject[] {
  return [
    ...pvc(s),
    service(s),
    networkPolicy(s),
    peerDeployment(s),
    ...hpa(s),
    ...pdb(s),
    ...ingress(s),
    ...generatedConfig(s),
  ];
}

/**
 * After `kubectl delete ogxserver --cascade=orphan` (owner references gone) and the steps'
 * `kubectl label … controller-uid=<uid>` on the children in `labelled` (`Kind/name`): the
 * cluster's metadata and, for the Deployment, a finished rollout.
 */
export function peerObserved(s: PeerServer, uid: string, labelled: readonly string[]): KubeObject[] {
  return peerChildren(s)
    .filter((o) => labelled.includes(`${o.kind}/${o.metadata.name}`))
    .map((o, i) => ({
      ...o,
      metadata: {
        ...o.metadata,
        labels: { ...o.metadata.labels, "controller-uid": uid },
        uid: `ogx-${i}`,
        ...(o.kind === "Deployment" ? { generation: 1 } : {}),
        resourceVersion: String(2000 + i),
        creationTimestamp: "2026-09-01T08:00:00Z",
      },
      ...(o.kind === "Deployment" ? { status: readyStatus(peerReplicas(s)) } : {}),
    }));
}

const readyStatus = (n: number) => ({
  observedGeneration: 1,
  replicas: n,
  readyReplicas: n,
  updatedReplicas: n,
  availableReplicas: n,
});

/**
 * The OGX operator's Deployment (ogx-k8s-operator 1784464), modelled from
 * `controllers/manifests/base/deployment.yaml`, `pkg/deploy/kustomizer.go` (`getFieldMappings`,
 * `removeDeploymentReplicas`, `addConfigMapAnnotations`) and `controllers/resource_helper.go`
 * (`buildContainerSpec`, `configureContainerEnvironment`, `configureContainerMounts`,
 * `configurePodStorage`, `configurePodScheduling`), with the defaults the apiserver adds to the
 * fields a takeover merges (port protocol, probe scheme and period).
 */
import type { KubeObject } from "../../lib/wire/metacontroller";
import * as peer from "./peer-spec";
import type { PeerServer } from "./peer-spec";

const { PEER_LABELS, PEER_METRICS_PORT, PEER_SELECTOR, peerConfigMapName, peerPort, peerReplicas } = peer;

export const PEER_IMAGE_STARTER = "docker.io/ogxai/distribution-starter:1.3.0";
const CONFIG_PATH = "/etc/ogx/config.yaml";
/** The generated ConfigMap's resourceVersion, which the operator writes as the rollout trigger. */
const CONFIG_RESOURCE_VERSION = "1187";

const mountPath = (s: PeerServer): string => s.spec.workload?.storage?.mountPath ?? "/.ogx";

function env(s: PeerServer): object[] {
  const config = peerConfigMapName(s)
    ? [
        { name: "RUN_CONFIG_PATH", value: CONFIG_PATH },
        { name: "OGX_CONFIG", value: CONFIG_PATH },
      ]
    : [];
  return [
    { name: "HF_HOME", value: mountPath(s) },
    { name: "OGX_WORKERS", value: "1" },
    { name: "OGX_PORT", value: String(peerPort(s)) },
    ...config,
    { name: "OGX_METRICS_ENDPOINT_ENABLED", value: "1" },
    { name: "OGX_METRICS_HOST", value: "0.0.0.0" },
    { name: "OGX_METRICS_PORT", value: String(PEER_METRICS_PORT) },
  ];
}

function container(s: PeerServer): object {
  const config = peerConfigMapName(s);
  return {
    name: "ogx",
    image: s.spec.image,
    resources: { requests: { cpu: "1", memory: "1Gi" } },
    // The server port has no name: only the metrics port is named.
    ports: [
      { containerPort: peerPort(s), protocol: "TCP" },
      { name: "metrics", containerPort: PEER_METRICS_PORT, protocol: "TCP" },
    ],
    startupProbe: {
      httpGet: { path: "/v1/health", port: peerPort(s), scheme: "HTTP" },
      initialDelaySeconds: 15,
      timeoutSeconds: 30,
      periodSeconds: 10,
      successThreshold: 1,
      failureThreshold: 3,
    },
    env: env(s),
    volumeMounts: [
      { name: "ogx-storage", mountPath: mountPath(s) },
      ...(config ? [{ name: "user-config", mountPath: "/etc/ogx/", readOnly: true }] : []),
    ],
  };
}

function volumes(s: PeerServer): object[] {
  const config = peerConfigMapName(s);
  const storage = s.spec.workload?.storage
    ? { name: "ogx-storage", persistentVolumeClaim: { claimName: `${s.name}-pvc` } }
    : { name: "ogx-storage", emptyDir: {} };
  const items = [{ key: "config.yaml", path: "config.yaml" }];
  return [storage, ...(config ? [{ name: "user-config", configMap: { name: config, items } }] : [])];
}

/** Spread and anti-affinity on the instance label alone, when more than one replica is asked. */
function scheduling(s: PeerServer): object {
  if (peerReplicas(s) <= 1) return {};
  const labelSelector = { matchLabels: { "app.kubernetes.io/instance": s.name } };
  const keys = ["topology.kubernetes.io/region", "topology.kubernetes.io/zone", "kubernetes.io/hostname"];
  return {
    affinity: {
      podAntiAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [
          { weight: 100, podAffinityTerm: { labelSelector, topologyKey: "kubernetes.io/hostname" } },
        ],
      },
    },
    topologySpreadConstraints: keys.map((topologyKey) => ({
      maxSkew: 1,
      topologyKey,
      whenUnsatisfiable: "ScheduleAnyway",
      labelSelector,
    })),
  };
}

export function peerDeployment(s: PeerServer): KubeObject {
  const annotations = peerConfigMapName(s) ? { "configmap.hash/user-config": CONFIG_RESOURCE_VERSION } : {};
  const pod = {
    ...scheduling(s),
    containers: [container(s)],
    securityContext: { fsGroup: 1001 },
    serviceAccountName: `${s.name}-sa`,
    volumes: volumes(s),
  };
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: s.name, namespace: s.namespace, labels: { ...PEER_LABELS } },
    spec: {
      // Under an HPA the field is removed; with storage the strategy is Recreate (a RWO volume).
      ...(s.spec.workload?.autoscaling ? {} : { replicas: peerReplicas(s) }),
      selector: { matchLabels: PEER_SELECTOR(s.name) },
      ...(s.spec.workload?.storage ? { strategy: { type: "Recreate" } } : {}),
      template: { metadata: { labels: PEER_SELECTOR(s.name), annotations }, spec: pod },
    },
  };
}

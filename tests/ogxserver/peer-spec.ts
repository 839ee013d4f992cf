/**
 * The OGXServer spec subset the takeover scenarios use, and the names and labels the OGX
 * operator (ogx-k8s-operator 1784464) derives from it (see tests/ogxserver/peer-children.ts).
 */
export interface PeerSpec {
  readonly image: string;
  readonly network?: { readonly port?: number; readonly externalAccess?: { readonly enabled: boolean } };
  readonly workload?: {
    readonly replicas?: number;
    readonly storage?: { readonly size?: string; readonly mountPath?: string };
    readonly autoscaling?: {
      readonly minReplicas?: number;
      readonly maxReplicas: number;
      readonly targetCPUUtilizationPercentage?: number;
    };
    readonly podDisruptionBudget?: { readonly minAvailable?: number; readonly maxUnavailable?: number };
  };
  /** Declarative fields (providers, resources, storage, disabledAPIs) were set: a generated ConfigMap is mounted. */
  readonly generatedConfig?: { readonly hash: string; readonly yaml: string };
}

export interface PeerServer {
  readonly name: string;
  readonly namespace: string;
  readonly spec: PeerSpec;
}

/** The kustomize `labels` of the base (includeSelectors: false): metadata only, never selectors or pod labels. */
export const PEER_LABELS = {
  "app.kubernetes.io/managed-by": "ogx-operator",
  "app.kubernetes.io/part-of": "ogx",
  "ogx.io/watch": "true",
};
/** pdb.yaml and hpa.yaml carry `app: ogx` and an instance label no field mapping fills (it stays ""). */
export const PEER_BASE_LABELS = { app: "ogx", "app.kubernetes.io/instance": "", ...PEER_LABELS };
export const PEER_SELECTOR = (name: string) => ({ app: "ogx", "app.kubernetes.io/instance": name });
export const PEER_PORT = 8321;
export const PEER_METRICS_PORT = 9464;
/** The namespace the operator runs in (its fallback when the pod's namespace is unknown). */
export const PEER_OPERATOR_NAMESPACE = "ogx-k8s-operator-system";

export const peerPort = (s: PeerServer): number => s.spec.network?.port ?? PEER_PORT;
/** `deploy.GetEffectiveReplicas`: spec replicas, default 1. */
export const peerReplicas = (s: PeerServer): number => s.spec.workload?.replicas ?? 1;

/** The generated config's ConfigMap name: `<name>-config-<first 8 bytes of the SHA-256, hex>`. */
export const peerConfigMapName = (s: PeerServer): string | undefined =>
  s.spec.generatedConfig ? `${s.name}-config-${s.spec.generatedConfig.hash}` : undefined;

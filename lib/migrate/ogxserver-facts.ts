/**
 * Which children the OGX operator (ogx.io/v1beta1 OGXServer) keeps for a server, read from the
 * OGXServer object the way its controller decides them (ogx-k8s-operator 1784464,
 * `controllers/ogxserver_controller.go` determineKindsToExclude, `resource_helper.go`,
 * `network_resources.go`, `configmap_reconciler.go`). Pure; an unexpected shape reads as unset.
 */
import { isPlainObject, own } from "../json";

export interface OgxServerFacts {
  /** `workload.storage`: PVC `<name>-pvc` holds the server's data. */
  readonly storage: boolean;
  /** `network.externalAccess.enabled`: Ingress `<name>-ingress`. */
  readonly expose: boolean;
  /** `workload.autoscaling`: HPA `<name>-hpa`. */
  readonly autoscaling: boolean;
  /** `workload.podDisruptionBudget`, or more than one replica: PDB `<name>-pdb`. */
  readonly podDisruptionBudget: boolean;
  /** Unless `network.policy.enabled: false`: NetworkPolicy `<name>-network-policy`. */
  readonly networkPolicy: boolean;
  /** `tls.trust` (or the namespace's `odh-trusted-ca-bundle`): ConfigMap `<name>-ca-bundle`. */
  readonly caBundle: boolean;
  /** Providers, resources, storage or disabledAPIs without overrideConfig: ConfigMaps `<name>-config-<hash>`. */
  readonly generatedConfig: boolean;
  /** Unless `monitoring.enabled: false` (and with the Prometheus operator's CRDs): ServiceMonitor and PrometheusRule. */
  readonly monitoring: boolean;
}

const at = (value: unknown, ...path: readonly string[]): unknown => path.reduce<unknown>((v, k) => own(v, k), value);
const set = (value: unknown): boolean => value !== undefined && value !== null;

/** What an OGXServer object makes its operator keep. The ODH CA bundle and the monitoring CRDs depend on the cluster: say so with `cluster`. */
export function factsOfOgxServer(
  ogxServer: unknown,
  cluster: { readonly odhCaBundle?: boolean; readonly monitoringCrds?: boolean } = {},
): OgxServerFacts {
  const spec = isPlainObject(at(ogxServer, "spec")) ? at(ogxServer, "spec") : {};
  const workload = at(spec, "workload");
  const replicas = at(workload, "replicas");
  const declarative = ["providers", "resources", "storage", "disabledAPIs"].some((k) => set(at(spec, k)));
  return {
    storage: set(at(workload, "storage")),
    expose: at(spec, "network", "externalAccess", "enabled") === true,
    autoscaling: set(at(workload, "autoscaling")),
    podDisruptionBudget: set(at(workload, "podDisruptionBudget")) || (typeof replicas === "number" && replicas > 1),
    networkPolicy: at(spec, "network", "policy", "enabled") !== false,
    caBundle: set(at(spec, "tls", "trust")) || cluster.odhCaBundle === true,
    generatedConfig: declarative && !set(at(spec, "overrideConfig")),
    monitoring: at(spec, "monitoring", "enabled") !== false && cluster.monitoringCrds !== false,
  };
}

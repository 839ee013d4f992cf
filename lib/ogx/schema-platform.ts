/**
 * `spec.network`, `spec.tls` and `spec.workload` of the OGXServer model, from ogx-ai/ogx-k8s-operator
 * api/v1beta1/ogxserver_types.go at commit 1784464. Kubernetes types the peer embeds are checked
 * for their required fields only.
 */
import * as part from "./schema-parts";

export const rule = (text: string, message: string): part.Node => ({ rule: text, message });

export const NETWORK = part.obj({
  port: { ...part.port, default: 8321 },
  tls: part.obj({ secretName: part.nonEmptyStr }, { required: ["secretName"] }),
  externalAccess: part.obj(
    { enabled: { ...part.bool, default: false }, hostname: part.str() },
    { rules: [part.notEmptyRule("hostname")] },
  ),
  policy: part.obj({
    enabled: { ...part.bool, default: true },
    policyTypes: { type: "array", items: part.str({ enum: ["Ingress", "Egress"] }) },
    ingress: { type: "array", items: { type: "object", ...part.freeJson } },
    egress: { type: "array", items: { type: "object", ...part.freeJson } },
  }),
});

export const TLS = part.obj({
  trust: part.obj({ caCertificates: part.list(part.keyRef) }),
  identity: part.obj({ cert: part.keyRef, key: part.keyRef }, { required: ["cert", "key"] }),
});

const INT_OR_STRING: part.Node = {
  "x-kubernetes-int-or-string": true,
  anyOf: [{ type: "integer" }, { type: "string" }],
};
const QUANTITY: part.Node = {
  ...INT_OR_STRING,
  pattern:
    "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$",
};
const percent = part.int32({ minimum: 1, maximum: 100 });

export const WORKLOAD = part.obj({
  replicas: part.int32({ minimum: 0, default: 1 }),
  workers: part.int32({ minimum: 1 }),
  resources: { type: "object", ...part.freeJson },
  resourceClaims: part.list(part.kubeType({ name: part.str() }), {
    "x-kubernetes-list-type": "map",
    "x-kubernetes-list-map-keys": ["name"],
  }),
  autoscaling: part.obj(
    {
      minReplicas: part.int32({ minimum: 1 }),
      maxReplicas: part.int32({ minimum: 1 }),
      targetCPUUtilizationPercentage: percent,
      targetMemoryUtilizationPercentage: percent,
    },
    {
      required: ["maxReplicas"],
      rules: [
        rule(
          "!has(self.minReplicas) || self.maxReplicas >= self.minReplicas",
          "maxReplicas must be greater than or equal to minReplicas",
        ),
      ],
    },
  ),
  storage: part.obj(
    { size: QUANTITY, mountPath: part.str({ default: "/.ogx" }) },
    {
      rules: [
        part.notEmptyRule("mountPath"),
        rule("!has(self.size) || quantity(self.size).isGreaterThan(quantity('0'))", "size must be a positive quantity"),
      ],
    },
  ),
  podDisruptionBudget: part.obj(
    { minAvailable: INT_OR_STRING, maxUnavailable: INT_OR_STRING },
    {
      rules: [
        rule(
          "has(self.minAvailable) || has(self.maxUnavailable)",
          "at least one of minAvailable or maxUnavailable must be specified",
        ),
        rule(
          "!(has(self.minAvailable) && has(self.maxUnavailable))",
          "minAvailable and maxUnavailable are mutually exclusive",
        ),
      ],
    },
  ),
  topologySpreadConstraints: part.list(
    part.kubeType({ maxSkew: part.int32(), topologyKey: part.str(), whenUnsatisfiable: part.str() }),
  ),
  overrides: part.obj(
    {
      serviceAccountName: part.str(),
      env: part.list(part.kubeType({ name: part.str() })),
      command: part.list(part.nonEmptyStr),
      args: part.list(part.nonEmptyStr),
      volumes: part.list(part.kubeType({ name: part.str() })),
      volumeMounts: part.list(part.kubeType({ mountPath: part.str(), name: part.str() })),
    },
    { rules: [part.notEmptyRule("serviceAccountName")] },
  ),
});

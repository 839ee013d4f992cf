/**
 * fast-check arbitraries for whole LlamaStackDistribution objects that pass their version's
 * schema: every field of both versions, boundary values each version allows and the other
 * does not (port 0, replicas -1, empty strings, 150 % CPU targets), free-form JSON with
 * adversarial keys, and metadata with labels, annotations and server-set fields.
 */
import fc from "fast-check";
import { V1ALPHA1_FIELDS, V1ALPHA2_FIELDS } from "../../../lib/conversion/annotations";
import { DISABLE_NAMES, EXTERNAL_PROVIDER_APIS, REPLACE_NAMES } from "../../../lib/api/schema-v1alpha2";
import { PROVIDER_APIS } from "../../../lib/api/apis";
import { KIND, V1ALPHA2 } from "../../../lib/api/v1alpha2";
import { V1ALPHA1 } from "../../../lib/api/v1alpha1";
import { aNetworkPolicy } from "../children/network-policy-arbitraries";

type Obj = Record<string, unknown>;
const some = <T>(model: { [K in keyof T]: fc.Arbitrary<T[K]> }, requiredKeys: (keyof T)[] = []): fc.Arbitrary<Obj> =>
  fc.record(model, { requiredKeys, noNullPrototype: true });

const str = fc.string({ maxLength: 8 });
const nonEmpty = fc.string({ minLength: 1, maxLength: 8 });
const strList = fc.array(str, { maxLength: 3 });
const date = fc
  .date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2099-12-31T00:00:00Z"), noInvalidDate: true })
  .map((d) => d.toISOString());
/** JSON as it arrives over the wire (no -0, no null prototypes; keys may be anything, `__proto__` too). */
const json = fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);
const freeObject = fc
  .dictionary(fc.string({ maxLength: 6 }), json, { maxKeys: 3, noNullPrototype: true })
  .map((o) => JSON.parse(JSON.stringify(o)) as Obj);
const k8sList = (item: fc.Arbitrary<Obj> = freeObject) => fc.array(item, { maxLength: 2 });
const quantity = fc.oneof(fc.integer(), fc.constantFrom("1", "500m", "2Gi", "10Gi", "1.5", "+1e3", ".5", "-2"));
const intOrString = fc.oneof(fc.integer({ min: -2, max: 5 }), fc.constantFrom("50%", "1", ""));
const resourceKey = fc.constantFrom("cpu", "memory", "nvidia.com/gpu", "ephemeral-storage");
const resources = some({
  limits: fc.dictionary(resourceKey, quantity, { maxKeys: 2, noNullPrototype: true }),
  requests: fc.dictionary(resourceKey, quantity, { maxKeys: 2, noNullPrototype: true }),
  claims: k8sList(),
});
/** DNS labels and subdomains, as Kubernetes names pod claims and the objects they point at. */
const dnsLabel = fc.stringMatching(/^[a-z0-9]([-a-z0-9]{0,6}[a-z0-9])?$/);
const dnsSubdomain = fc.stringMatching(/^[a-z0-9]([-a-z0-9]{0,4}[a-z0-9])?(\.[a-z0-9]{1,4}){0,2}$/);
/** v1alpha2 types the container's claims (v1alpha1 keeps them free: `resources`). */
const v2Resources = some({
  limits: fc.dictionary(resourceKey, quantity, { maxKeys: 2, noNullPrototype: true }),
  requests: fc.dictionary(resourceKey, quantity, { maxKeys: 2, noNullPrototype: true }),
  claims: fc.array(some({ name: dnsLabel, request: dnsLabel }, ["name"]), { maxLength: 2 }),
});
/** Any source combination the schema admits (exactly one is a rule of validate() and CEL, not of the schema). */
const podClaim = some({ name: dnsLabel, resourceClaimName: dnsSubdomain, resourceClaimTemplateName: dnsSubdomain }, [
  "name",
]);
const env = fc.oneof(
  some({ name: str, value: str }, ["name"]),
  some({ name: str, valueFrom: freeObject }, ["name"]),
  freeObject,
);
const pdb = some({ minAvailable: intOrString, maxUnavailable: intOrString });
const allowedFrom = some({ namespaces: strList, labels: strList });
/** networking.expose's object form, every edge field drawn (the schema's shapes; the cross-field rules are not the conversion's). */
const anExpose = some({
  enabled: fc.boolean(),
  hostname: nonEmpty,
  className: nonEmpty,
  annotations: fc.dictionary(fc.constantFrom("a", "example.com/b"), str, { maxKeys: 2 }),
  tls: some({
    secretName: nonEmpty,
    issuer: some({ name: nonEmpty, kind: fc.constantFrom("Issuer", "ClusterIssuer") }, ["name"]),
  }),
  parentRefs: fc.array(
    some({ name: nonEmpty, namespace: nonEmpty, sectionName: nonEmpty, port: fc.integer({ min: 1, max: 65535 }) }, [
      "name",
    ]),
    { minLength: 1, maxLength: 2 },
  ),
  backendTLS: some({ hostname: nonEmpty, caConfigMapName: nonEmpty }),
});
const condition = some(
  {
    type: fc.constantFrom("DeploymentReady", "HealthCheck", "ConfigGenerated", "example.com/Custom-1"),
    status: fc.constantFrom("True", "False", "Unknown"),
    reason: fc.stringMatching(/^[A-Za-z]([A-Za-z0-9_,:]{0,8}[A-Za-z0-9_])?$/),
    message: str,
    lastTransitionTime: date,
    observedGeneration: fc.nat(9),
  },
  ["type", "status", "reason", "message", "lastTransitionTime"],
);

/** v1alpha1 has no ranges: anything an int32 can say, often just outside what v1alpha2 allows. */
const looseInt = fc.oneof(fc.integer({ min: -2, max: 120 }), fc.integer());
const v1Spec = some(
  {
    replicas: looseInt,
    server: some(
      {
        distribution: some({ name: str, image: str }),
        containerSpec: some({
          name: str,
          port: fc.oneof(fc.constantFrom(0, 8321, 65535, 65536, -1), looseInt),
          resources,
          env: k8sList(env),
          command: strList,
          args: strList,
        }),
        workers: fc.integer({ min: 1, max: 64 }),
        podOverrides: some({
          serviceAccountName: str,
          terminationGracePeriodSeconds: looseInt,
          volumes: k8sList(),
          volumeMounts: k8sList(),
        }),
        podDisruptionBudget: pdb,
        topologySpreadConstraints: k8sList(),
        autoscaling: some(
          {
            minReplicas: looseInt,
            maxReplicas: looseInt,
            targetCPUUtilizationPercentage: looseInt,
            targetMemoryUtilizationPercentage: looseInt,
          },
          ["maxReplicas"],
        ),
        storage: some({ size: quantity, mountPath: str }),
        userConfig: some({ configMapName: str, configMapNamespace: str }, ["configMapName"]),
        tlsConfig: some({
          caBundle: some({ configMapName: str, configMapNamespace: str, configMapKeys: strList }, ["configMapName"]),
        }),
      },
      ["distribution"],
    ),
    network: some({ exposeRoute: fc.boolean(), allowedFrom }),
  },
  ["server"],
);

const v1Status = some({
  phase: fc.constantFrom("Pending", "Initializing", "Ready", "Failed", "Terminating"),
  version: some({ operatorVersion: str, llamaStackServerVersion: str, lastUpdated: date }),
  distributionConfig: some({
    activeDistribution: str,
    providers: fc.array(
      some(
        {
          api: str,
          provider_id: str,
          provider_type: str,
          config: freeObject,
          health: some({ status: str, message: str }, ["status", "message"]),
        },
        ["api", "provider_id", "provider_type", "config", "health"],
      ),
      { maxLength: 2 },
    ),
    availableDistributions: fc.dictionary(str, str, { maxKeys: 2, noNullPrototype: true }),
  }),
  conditions: fc.array(condition, { maxLength: 2 }),
  availableReplicas: looseInt,
  serviceURL: str,
  routeURL: str,
  observedGeneration: fc.integer({ min: -1, max: 9 }),
});

const flatRef = some({ name: nonEmpty, key: nonEmpty }, ["name", "key"]);
const secretRef = fc.oneof(flatRef, some({ secretKeyRef: flatRef }, ["secretKeyRef"]));
const identifier = fc.stringMatching(/^[a-z][a-zA-Z0-9_]{0,6}$/);
const provider = some(
  {
    id: fc.stringMatching(/^[a-zA-Z0-9]([a-zA-Z0-9._-]{0,6}[a-zA-Z0-9])?$/),
    provider: nonEmpty,
    endpoint: nonEmpty,
    apiKey: secretRef,
    secretRefs: fc.dictionary(identifier, secretRef, { maxKeys: 2, noNullPrototype: true }),
    settings: freeObject,
    host: secretRef,
  },
  ["provider"],
);
const providerList = fc.oneof(provider, fc.array(provider, { minLength: 1, maxLength: 2 }));
const model = fc.oneof(
  nonEmpty,
  some(
    {
      name: nonEmpty,
      provider: str,
      providerModelId: str,
      modelType: fc.constantFrom("llm", "embedding", "rerank"),
      contextLength: fc.integer({ min: 1 }),
      quantization: str,
      embeddingDimension: fc.integer({ min: 1 }),
      metadata: freeObject,
    },
    ["name"],
  ),
);
const externalProvider = some(
  {
    providerId: nonEmpty,
    image: nonEmpty,
    imagePullPolicy: fc.constantFrom("Always", "Never", "IfNotPresent"),
    config: freeObject,
  },
  ["providerId", "image"],
);

const caBundle = some({ configMapName: nonEmpty, configMapKeys: fc.array(str, { minLength: 1, maxLength: 3 }) }, [
  "configMapName",
]);
const configMapKey = some({ configMapName: nonEmpty, key: fc.stringMatching(/^[-._a-zA-Z0-9]{1,12}$/) }, [
  "configMapName",
]);
/** spec.auth: every field, each provider form (the schema lets several through; CEL and validate() refuse that). */
const oneOrMany = <T>(item: fc.Arbitrary<T>) => fc.oneof(item, fc.array(item, { minLength: 1, maxLength: 2 }));
const nameMap = fc.dictionary(nonEmpty, nonEmpty, { maxKeys: 2, noNullPrototype: true });
const conditions = oneOrMany(fc.constantFrom("user is owner", "user with admin in roles", "user in owners teams"));
const ruleTail = { when: conditions, unless: conditions, description: str };
const actions = oneOrMany(fc.constantFrom("create", "read", "update", "delete"));
const accessScope = some({ principal: str, actions, resource: str }, ["actions"]);
const routeScope = some({ paths: oneOrMany(nonEmpty) }, ["paths"]);
const auth = some({
  kubernetes: some({
    apiServerUrl: fc.constantFrom("https://kubernetes.default.svc", "https://api.example.com:6443"),
    allowInsecureHttp: fc.boolean(),
    claimsMapping: nameMap,
    tenantClaim: nonEmpty,
  }),
  oidc: some({
    issuer: nonEmpty,
    audience: nonEmpty,
    jwks: some(
      { uri: nonEmpty, keyRecheckPeriodSeconds: fc.integer({ min: 1, max: 86400 }), allowInsecureHttp: fc.boolean() },
      ["uri"],
    ),
    introspection: some(
      {
        url: nonEmpty,
        clientId: nonEmpty,
        clientSecret: secretRef,
        sendSecretInBody: fc.boolean(),
        allowInsecureHttp: fc.boolean(),
      },
      ["url", "clientId", "clientSecret"],
    ),
    claimsMapping: nameMap,
    tenantClaim: nonEmpty,
  }),
  upstreamHeader: some(
    { principalHeader: nonEmpty, attributesHeader: nonEmpty, attributeHeaders: nameMap, tenantHeader: nonEmpty },
    ["principalHeader"],
  ),
  custom: some({ endpoint: nonEmpty, tenantField: nonEmpty, allowInsecureHttp: fc.boolean() }, ["endpoint"]),
  accessPolicy: fc.array(some({ permit: accessScope, forbid: accessScope, ...ruleTail }), { maxLength: 2 }),
  routePolicy: fc.array(some({ permit: routeScope, forbid: routeScope, ...ruleTail }), { maxLength: 2 }),
  tenancy: some(
    {
      mode: fc.constantFrom("disabled", "single", "multi"),
      defaultTenantId: fc.stringMatching(/^[a-z0-9][a-z0-9_-]{0,6}$/),
    },
    ["mode"],
  ),
});

const v2Spec = some(
  {
    distribution: some({ name: nonEmpty, image: nonEmpty }),
    providers: some(Object.fromEntries(PROVIDER_APIS.map((api) => [api, providerList]))),
    resources: some({ models: fc.array(model, { maxLength: 2 }), tools: strList, shields: strList }),
    storage: some({
      kv: some({
        type: fc.constantFrom("sqlite", "redis", "postgres"),
        endpoint: str,
        password: secretRef,
        connectionString: secretRef,
      }),
      sql: some({ type: fc.constantFrom("sqlite", "postgres"), connectionString: secretRef }),
    }),
    disabled: fc.subarray([...DISABLE_NAMES], { maxLength: 3 }),
    replace: fc.subarray([...REPLACE_NAMES], { maxLength: 3 }),
    networking: some({
      port: fc.integer({ min: 1, max: 65535 }),
      tls: some({
        enabled: fc.boolean(),
        secretName: nonEmpty,
        caBundle: fc.oneof(caBundle, fc.array(caBundle, { minLength: 1, maxLength: 3 })),
      }),
      expose: fc.oneof(fc.boolean(), anExpose),
      allowedFrom,
      policy: aNetworkPolicy,
    }),
    workload: some({
      replicas: fc.nat(9),
      workers: fc.integer({ min: 1, max: 64 }),
      resources: v2Resources,
      resourceClaims: fc.uniqueArray(podClaim, { maxLength: 2, selector: (c) => c.name }),
      autoscaling: some(
        {
          minReplicas: fc.integer({ min: 1, max: 9 }),
          maxReplicas: fc.integer({ min: 1, max: 20 }),
          targetCPUUtilizationPercentage: fc.integer({ min: 1, max: 100 }),
          targetMemoryUtilizationPercentage: fc.integer({ min: 1, max: 100 }),
        },
        ["maxReplicas"],
      ),
      storage: some({ size: quantity, mountPath: nonEmpty }),
      podDisruptionBudget: pdb,
      topologySpreadConstraints: k8sList(),
      overrides: some({
        serviceAccountName: str,
        terminationGracePeriodSeconds: fc.nat(600),
        priorityClassName: dnsSubdomain,
        env: k8sList(env),
        command: strList,
        args: strList,
        volumes: k8sList(),
        volumeMounts: k8sList(),
      }),
    }),
    externalProviders: fc.dictionary(
      fc.constantFrom(...EXTERNAL_PROVIDER_APIS),
      fc.array(externalProvider, { maxLength: 2 }),
      { maxKeys: 2, noNullPrototype: true },
    ),
    overrideConfig: configMapKey,
    baseConfig: configMapKey,
    monitoring: some({
      enabled: fc.boolean(),
      port: fc.integer({ min: 1024, max: 65535 }),
      allowedFrom: some({ namespaces: fc.array(nonEmpty, { minLength: 1, maxLength: 2 }) }),
    }),
    registryRefreshIntervalSeconds: fc.oneof(fc.constantFrom(1, 300, 2147483647), fc.integer({ min: 1 })),
    auth,
  },
  ["distribution"],
);

const v2Status = some({
  phase: fc.constantFrom("Pending", "Initializing", "Ready", "Failed", "Terminating"),
  observedGeneration: fc.nat(9),
  conditions: fc.array(condition, { maxLength: 2 }),
  configGeneration: some({
    configMapName: str,
    generatedAt: date,
    providerCount: fc.nat(9),
    resourceCount: fc.nat(9),
    configVersion: fc.nat(3),
  }),
  resolvedDistribution: some({
    image: str,
    digest: str,
    configSource: fc.constantFrom("embedded", "oci-label", "configmap", "override", "image-default"),
    configHash: str,
  }),
  availableReplicas: fc.nat(9),
  serviceURL: str,
  routeURL: str,
  notes: strList,
});

const metaKey = fc
  .stringMatching(/^[a-z][a-z0-9.-]{0,8}(\/[a-z0-9-]{1,8})?$/)
  .filter((k) => k !== V1ALPHA1_FIELDS && k !== V1ALPHA2_FIELDS);
/** The apiserver never sends an empty labels or annotations map (Go `omitempty`). */
const stringMap = fc.dictionary(metaKey, fc.string({ maxLength: 12 }), {
  minKeys: 1,
  maxKeys: 3,
  noNullPrototype: true,
});
const metadata = some(
  {
    name: fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/),
    namespace: fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/),
    uid: fc.uuid(),
    generation: fc.nat(99),
    resourceVersion: fc.nat().map(String),
    creationTimestamp: date,
    labels: stringMap,
    annotations: stringMap,
    finalizers: fc.array(str, { maxLength: 1 }),
    managedFields: k8sList(),
  },
  ["name", "namespace", "uid"],
);

const object = (apiVersion: string, spec: fc.Arbitrary<Obj>, status: fc.Arbitrary<Obj>) =>
  some({ apiVersion: fc.constant(apiVersion), kind: fc.constant(KIND), metadata, spec, status }, [
    "apiVersion",
    "kind",
    "metadata",
    "spec",
  ]);

export const aV1alpha1Object = object(V1ALPHA1, v1Spec, v1Status);
export const aV1alpha2Object = object(V1ALPHA2, v2Spec, v2Status);

/**
 * CEL rules (`x-kubernetes-validations`) the CRD carries, per version and schema node (the
 * checks a spec goes through: docs/spec-reference.md). The apiserver checks them before
 * anything reaches the hooks, so `kubectl apply` fails at once with the message; `validate()`
 * enforces the same rules again for `/validate`, `/sync` and the CLI.
 *
 * What is here is what CEL can say about a structural schema: only typed fields can be named
 * (an untyped, preserve-unknown field has no CEL type, so `providers.*`, `resources.models[]`
 * and `networking.expose` are checked by `/validate` instead), and every rule's cost is bounded
 * (`has()` and comparisons; a loop only over a list with `maxItems` and items of bounded length,
 * so the apiserver's cost estimate always passes). Rules guard optional fields with `has()`: a rule that errors is a failed
 * validation in Kubernetes.
 *
 * Keys are dotted field paths from the version's root (`spec.storage.kv`). The Secret
 * reference rules ("exactly one form") are generated with the merged object (structural.ts).
 */
import type { ValidationRule } from "./structural";
import { DEFAULT_PORT, MIN_SERVER_PORT } from "../defaults";

export type RuleTable = { readonly [fieldPath: string]: readonly ValidationRule[] };

/** The Go operator's only rule, message verbatim. */
export const V1ALPHA1_RULES: RuleTable = {
  "spec.server.distribution": [
    { rule: "!(has(self.name) && has(self.image))", message: "Only one of name or image can be specified" },
  ],
};

/** Fields that generate config.yaml; an override ConfigMap is used as is, so they (and baseConfig) cannot sit beside it. */
const GENERATION_INPUTS = ["providers", "resources", "storage", "disabled", "replace"] as const;

const isRedis = "has(self.type) && self.type == 'redis'";
const isPostgres = "has(self.type) && self.type == 'postgres'";
const tlsEnabled = "has(self.enabled) && self.enabled";

/** The port the server listens on (lib/defaults.ts listenPort): below 1024 only the Service serves it. */
const serverPort = `(has(self.networking) && has(self.networking.port) && self.networking.port >= ${MIN_SERVER_PORT} ? self.networking.port : ${DEFAULT_PORT})`;
/** A store on Postgres (kv or sql) names its DSN's Secret key, and only such a store does. */
const POSTGRES_DSN: readonly ValidationRule[] = [
  {
    rule: `!(${isPostgres}) || has(self.connectionString)`,
    message: "connectionString is required when type is postgres",
    fieldPath: ".connectionString",
    reason: "FieldValueRequired",
  },
  {
    rule: `!has(self.connectionString) || (${isPostgres})`,
    message: "connectionString is only valid when type is postgres",
    fieldPath: ".connectionString",
    reason: "FieldValueForbidden",
  },
];
const metricsOn = "has(self.monitoring) && (!has(self.monitoring.enabled) || self.monitoring.enabled)";

/** The metrics endpoint needs a port of its own (lib/api/validate-monitoring.ts). */
const MONITORING_PORT: ValidationRule = {
  rule: `!(${metricsOn}) || !has(self.monitoring.port) || self.monitoring.port != ${serverPort}`,
  message: "monitoring.port must differ from the server's port (networking.port)",
  fieldPath: ".monitoring.port",
  reason: "FieldValueInvalid",
};
const selectors = "has(self.podSelector) || has(self.namespaceSelector)";
/** apimachinery's ValidateNetworkPolicyPeer (lists bounded, so the cost per element is constant). */
const PEER_RULES: readonly ValidationRule[] = [
  {
    rule: `has(self.ipBlock) || ${selectors}`,
    message: "a peer needs podSelector, namespaceSelector or ipBlock",
    reason: "FieldValueRequired",
  },
  {
    rule: `!has(self.ipBlock) || !(${selectors})`,
    message: "ipBlock cannot be combined with podSelector or namespaceSelector",
    reason: "FieldValueForbidden",
  },
];

/** How many of spec.auth's providers are set: a fixed sum of four, constant cost. */
const authProviders = ["kubernetes", "oidc", "upstreamHeader", "custom"]
  .map((p) => `(has(self.${p}) ? 1 : 0)`)
  .join(" + ");

export const V1ALPHA2_RULES: RuleTable = {
  spec: [
    ...[...GENERATION_INPUTS, "baseConfig"].map((field) => ({
      rule: `!(has(self.overrideConfig) && has(self.${field}))`,
      message: `overrideConfig and ${field} are mutually exclusive`,
      fieldPath: `.${field}`,
      reason: "FieldValueForbidden" as const,
    })),
    MONITORING_PORT,
    // A server setting that only a generated config carries: the override is mounted as written.
    {
      rule: "!(has(self.overrideConfig) && has(self.registryRefreshIntervalSeconds))",
      message: "overrideConfig and registryRefreshIntervalSeconds are mutually exclusive",
      fieldPath: ".registryRefreshIntervalSeconds",
      reason: "FieldValueForbidden",
    },
    {
      rule: "!(has(self.overrideConfig) && has(self.auth))",
      message: "overrideConfig and auth are mutually exclusive: set server.auth in the ConfigMap",
      fieldPath: ".auth",
      reason: "FieldValueForbidden",
    },
  ],
  "spec.auth": [
    {
      rule: `${authProviders} == 1`,
      message: "set exactly one provider: kubernetes, oidc, upstreamHeader or custom",
      reason: "FieldValueInvalid",
    },
  ],
  "spec.auth.oidc": [
    {
      rule: "has(self.jwks) != has(self.introspection)",
      message: "set exactly one of jwks or introspection",
      reason: "FieldValueInvalid",
    },
  ],
  "spec.auth.tenancy": [
    {
      rule: "self.mode != 'single' || has(self.defaultTenantId)",
      message: "defaultTenantId is required when mode is single",
      fieldPath: ".defaultTenantId",
      reason: "FieldValueRequired",
    },
  ],
  "spec.distribution": [
    {
      rule: "!(has(self.name) && has(self.image))",
      message: "only one of name or image can be specified",
      reason: "FieldValueInvalid",
    },
    {
      rule: "has(self.name) || has(self.image)",
      message: "one of name or image must be specified",
      reason: "FieldValueRequired",
    },
  ],
  "spec.storage.kv": [
    {
      rule: `!(${isRedis}) || has(self.endpoint)`,
      message: "endpoint is required when type is redis",
      fieldPath: ".endpoint",
      reason: "FieldValueRequired",
    },
    {
      rule: `!has(self.endpoint) || (${isRedis})`,
      message: "endpoint is only valid when type is redis",
      fieldPath: ".endpoint",
      reason: "FieldValueForbidden",
    },
    {
      rule: `!has(self.password) || (${isRedis})`,
      message: "password is only valid when type is redis",
      fieldPath: ".password",
      reason: "FieldValueForbidden",
    },
    ...POSTGRES_DSN,
  ],
  "spec.storage.sql": POSTGRES_DSN,
  "spec.networking.tls": [
    {
      rule: `!(${tlsEnabled}) || has(self.secretName)`,
      message: "secretName is required when enabled is true",
      fieldPath: ".secretName",
      reason: "FieldValueRequired",
    },
    {
      rule: `!has(self.secretName) || (${tlsEnabled})`,
      message: "secretName is only valid when enabled is true",
      fieldPath: ".secretName",
      reason: "FieldValueForbidden",
    },
  ],
  "spec.workload": [
    {
      rule: "!has(self.autoscaling) || !has(self.replicas) || self.replicas <= self.autoscaling.maxReplicas",
      message: "replicas must not exceed autoscaling.maxReplicas",
      fieldPath: ".replicas",
      reason: "FieldValueInvalid",
    },
    // Both lists are bounded (MAX_RESOURCE_CLAIMS) and names are DNS labels: the loops' cost is bounded.
    {
      rule: "!has(self.resourceClaims) || self.resourceClaims.all(c, has(c.resourceClaimName) != has(c.resourceClaimTemplateName))",
      message: "each resourceClaims entry sets exactly one of resourceClaimName or resourceClaimTemplateName",
      fieldPath: ".resourceClaims",
      reason: "FieldValueInvalid",
    },
    {
      rule: "!has(self.resources) || !has(self.resources.claims) || self.resources.claims.all(c, has(self.resourceClaims) && self.resourceClaims.exists(r, r.name == c.name))",
      message: "each resources.claims[].name must be the name of a resourceClaims entry",
      fieldPath: ".resources.claims",
      reason: "FieldValueInvalid",
    },
  ],
  "spec.workload.autoscaling": [
    {
      rule: "!has(self.minReplicas) || self.maxReplicas >= self.minReplicas",
      message: "maxReplicas must be greater than or equal to minReplicas",
      fieldPath: ".maxReplicas",
      reason: "FieldValueInvalid",
    },
  ],
  ...Object.fromEntries(
    ["spec.networking.policy.ingress[*].from[*]", "spec.networking.policy.egress[*].to[*]"].map((path) => [
      path,
      PEER_RULES,
    ]),
  ),
  "spec.workload.podDisruptionBudget": [
    {
      rule: "!(has(self.minAvailable) && has(self.maxUnavailable))",
      message: "minAvailable and maxUnavailable are mutually exclusive",
      reason: "FieldValueInvalid",
    },
  ],
};

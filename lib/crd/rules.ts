/**
 * CEL rules (`x-kubernetes-validations`) the CRD carries, per version and schema node (the
 * checks a spec goes through: docs/spec-reference.md). The apiserver checks them before
 * anything reaches the hooks, so `kubectl apply` fails at once with the message; `validate()`
 * enforces the same rules again for `/validate`, `/sync` and the CLI.
 *
 * What is here is what CEL can say about a structural schema: only typed fields can be named
 * (an untyped, preserve-unknown field has no CEL type, so `providers.*`, `resources.models[]`
 * and `networking.expose` are checked by `/validate` instead), and every rule is constant-cost
 * (`has()` and comparisons, no loops over unbounded lists, so the apiserver's cost estimate
 * always passes). Rules guard optional fields with `has()`: a rule that errors is a failed
 * validation in Kubernetes.
 *
 * Keys are dotted field paths from the version's root (`spec.storage.kv`). The Secret
 * reference rules ("exactly one form") are generated with the merged object (structural.ts).
 */
import type { ValidationRule } from "./structural";

export type RuleTable = { readonly [fieldPath: string]: readonly ValidationRule[] };

/** The Go operator's only rule, message verbatim. */
export const V1ALPHA1_RULES: RuleTable = {
  "spec.server.distribution": [
    { rule: "!(has(self.name) && has(self.image))", message: "Only one of name or image can be specified" },
  ],
};

/** Fields that generate config.yaml; an override ConfigMap is used as is, so they cannot sit beside it. */
const GENERATION_INPUTS = ["providers", "resources", "storage", "disabled"] as const;

const isRedis = "has(self.type) && self.type == 'redis'";
const isPostgres = "has(self.type) && self.type == 'postgres'";
const tlsEnabled = "has(self.enabled) && self.enabled";

/** How many of spec.auth's providers are set: a fixed sum of four, constant cost. */
const authProviders = ["kubernetes", "oidc", "upstreamHeader", "custom"]
  .map((p) => `(has(self.${p}) ? 1 : 0)`)
  .join(" + ");

export const V1ALPHA2_RULES: RuleTable = {
  spec: [
    ...GENERATION_INPUTS.map((field): ValidationRule => ({
      rule: `!(has(self.overrideConfig) && has(self.${field}))`,
      message: `overrideConfig and ${field} are mutually exclusive`,
      fieldPath: `.${field}`,
      reason: "FieldValueForbidden",
    })),
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
  ],
  "spec.storage.sql": [
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
  ],
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
  ],
  "spec.workload.autoscaling": [
    {
      rule: "!has(self.minReplicas) || self.maxReplicas >= self.minReplicas",
      message: "maxReplicas must be greater than or equal to minReplicas",
      fieldPath: ".maxReplicas",
      reason: "FieldValueInvalid",
    },
  ],
  "spec.workload.podDisruptionBudget": [
    {
      rule: "!(has(self.minAvailable) && has(self.maxUnavailable))",
      message: "minAvailable and maxUnavailable are mutually exclusive",
      reason: "FieldValueInvalid",
    },
  ],
};

/**
 * `validate()`: every rule the CRD schema cannot express, as FieldErrors (docs/spec-reference.md, "Checks").
 * Errors block; warnings are reported (status, admission `warnings`) and the spec proceeds.
 */
import { meant } from "../suggest";
import { fieldError, listOf, type FieldError } from "../errors";
import { listenPort, MIN_SERVER_PORT } from "../defaults";
import { DEFAULT_DISTRIBUTIONS, distributionNames, type DistributionTable, type Release } from "../distributions/table";
import { dialectErrors } from "./dialect-errors";
import { unservedVersionErrors } from "./validate-server-version";
import type { CanonicalSpec } from "./canonical";
import { normalize } from "./normalize";
import { isV1alpha2Spec, v1alpha2SpecSchemaErrors } from "./schema";
import type { LlsdSpecV1alpha2 } from "./v1alpha2";
import { badEndpoints, duplicateIds, envCollisions, missingIds, telemetryRules } from "./validate-providers";
import { disabledSections, singleProviderSections } from "./validate-sections";
import { replaceRules } from "./validate-replace";
import { disabledConflicts, externalProviderRules, modelRules, storageRules, unknownTools } from "./validate-resources";
import { allowedFromRules } from "./validate-allowed-from";
import { networkPolicyRules, networkPolicyWarnings } from "./validate-network-policy";
import { V1ALPHA2_SPEC, withRulesOnWellTyped } from "./well-typed";
import { externalConflicts } from "./validate-external";
import { monitoringLineErrors, monitoringRules } from "./validate-monitoring";
import { resourceClaimRules } from "./validate-resource-claims";
import { registryRefreshErrors, registryRefreshOverrideErrors } from "./registry-refresh";
import { authRules, exposedWithoutAuth } from "./validate-auth";
import { authLineErrors } from "./auth-lines";
import type { ExposeWith, GatewayParentRefInput } from "./expose-types";
import { withGatewayParent } from "./gateway-parent";
import { exposeRules, exposeWarnings } from "./validate-expose";
import { redisPasswordRule } from "./validate-redis-password";

export interface ValidateContext {
  /** Named distributions users may ask for. @default the bundled table */
  readonly distributions?: DistributionTable;
  /**
   * Inference provider ids of the base config, when known. Models may name those too; without
   * them the model→provider check waits for generation, where the base config is known.
   */
  readonly baseInferenceIds?: readonly string[];
  /**
   * The server line the CR will run, when the caller knows it (admission, `llsd validate`):
   * requests the line cannot serve (the Safety API on 1.x) are errors here too. The sync hook
   * leaves it out; generation reports them, for the line the running server really has.
   */
  readonly release?: Release;
  /** What carries an exposed server (the hooks' LLSD_EXPOSE_WITH). @default ingress */
  readonly exposeWith?: ExposeWith;
  /**
   * The CR already runs with `storage.kv.password` (lib/api/validate-redis-password.ts): kept
   * with a warning, where a new CR is refused.
   */
  readonly keepsRedisPassword?: boolean;
  /** The Gateway of exposed CRs that name none (the hooks' LLSD_GATEWAY_PARENT); the spec checked and returned carries it. */
  readonly gatewayParent?: GatewayParentRefInput;
}

export interface ValidationResult {
  readonly errors: readonly FieldError[];
  readonly warnings: readonly FieldError[];
  /** Present when the spec passed the schema (normalization needs a schema-valid spec). */
  readonly spec?: CanonicalSpec;
  /** What generating config.yaml would decide on the user's behalf (`path: text`), when the check generated. */
  readonly notes?: readonly string[];
}

function distributionRules(spec: CanonicalSpec, table: DistributionTable): FieldError[] {
  const d = spec.distribution;
  if (d.kind === "invalid") {
    return [
      fieldError("spec.distribution", "set exactly one of name (a known distribution) or image (an image reference)"),
    ];
  }
  if (d.kind === "name" && !table.some((e) => e.name === d.name)) {
    return [
      fieldError(
        "spec.distribution.name",
        `Unknown distribution "${d.name}"${meant(d.name, distributionNames(table), ".")} Available distributions: ${listOf(distributionNames(table))}`,
      ),
    ];
  }
  return [];
}

/** overrideConfig replaces generation, so the generation inputs (and a base to generate from) cannot be set beside it. */
function overrideExclusivity(spec: CanonicalSpec): FieldError[] {
  if (!spec.overrideConfig) return [];
  const clashing = (["providers", "resources", "storage", "disabled", "replace"] as const).filter(
    (k) => spec.present[k],
  );
  const errors = clashing.map((k) =>
    fieldError(
      `spec.${k}`,
      `overrideConfig and ${k} are mutually exclusive: the ConfigMap is used as is; remove ${k} or overrideConfig`,
    ),
  );
  if (spec.baseConfig)
    errors.push(
      fieldError(
        "spec.baseConfig",
        "overrideConfig and baseConfig are mutually exclusive: overrideConfig is mounted as is, baseConfig is what a generated config starts from; remove one",
      ),
    );
  return errors;
}

function workloadRules(spec: CanonicalSpec): FieldError[] {
  const errors: FieldError[] = [];
  const a = spec.workload.autoscaling;
  if (a && a.minReplicas !== undefined && a.maxReplicas < a.minReplicas) {
    errors.push(fieldError("spec.workload.autoscaling.maxReplicas", `must be at least minReplicas (${a.minReplicas})`));
  }
  const replicas = spec.workload.replicas;
  if (a && replicas !== undefined && replicas > a.maxReplicas) {
    errors.push(
      fieldError(
        "spec.workload.replicas",
        `must not exceed autoscaling.maxReplicas (${a.maxReplicas}); the HPA's minimum would be above its maximum`,
      ),
    );
  }
  const pdb = spec.workload.podDisruptionBudget;
  // `{}` is a budget of maxUnavailable 1 (lib/children/pdb.ts), as v1alpha1 CRs write it.
  if (pdb && pdb.minAvailable !== undefined && pdb.maxUnavailable !== undefined) {
    errors.push(
      fieldError(
        "spec.workload.podDisruptionBudget",
        "set one of minAvailable or maxUnavailable, not both (a PodDisruptionBudget refuses both)",
      ),
    );
  }
  return errors;
}

function tlsRules(spec: CanonicalSpec): FieldError[] {
  const tls = spec.networking.tls;
  if (tls.enabled && tls.secretName === undefined) {
    return [
      fieldError(
        "spec.networking.tls.secretName",
        "required when tls.enabled is true: a kubernetes.io/tls Secret with tls.crt and tls.key",
      ),
    ];
  }
  if (!tls.enabled && tls.secretName !== undefined) {
    return [
      fieldError(
        "spec.networking.tls.enabled",
        "set enabled: true to serve HTTPS with secretName, or remove secretName",
      ),
    ];
  }
  return [];
}

/** The inference provider ids models may name: the spec's and the base config's, when the base is known. */
function inferenceIdsOf(spec: CanonicalSpec, baseIds: readonly string[] | undefined): string[] | undefined {
  if (baseIds === undefined) return undefined;
  return [...new Set([...spec.providers.filter((p) => p.api === "inference").map((p) => p.id), ...baseIds])];
}

/** Semantic rules on a normalized spec. */
export function validateCanonical(
  normalized: CanonicalSpec,
  raw: LlsdSpecV1alpha2,
  ctx: ValidateContext = {},
): ValidationResult {
  const spec = withGatewayParent(normalized, ctx);
  const inferenceIds = inferenceIdsOf(spec, ctx.baseInferenceIds);
  const redisPassword = redisPasswordRule(spec, ctx.keepsRedisPassword);
  // One concat, not a literal of 16 spreads: this runs on every sync and admission.
  const errors = distributionRules(spec, ctx.distributions ?? DEFAULT_DISTRIBUTIONS).concat(
    overrideExclusivity(spec),
    missingIds(spec.providers),
    duplicateIds(spec.providers),
    badEndpoints(spec.providers),
    telemetryRules(spec.providers),
    singleProviderSections(spec.providers),
    [...disabledSections(spec), ...replaceRules(spec)],
    modelRules(spec, inferenceIds),
    unknownTools(spec),
    storageRules(spec, raw.storage),
    envCollisions(spec),
    externalProviderRules(spec),
    externalConflicts(spec),
    workloadRules(spec),
    tlsRules(spec),
    allowedFromRules(spec),
    networkPolicyRules(spec),
    ctx.release ? dialectErrors(spec, ctx.release) : [],
    ctx.release ? registryRefreshErrors(spec, ctx.release) : [],
    registryRefreshOverrideErrors(spec),
    resourceClaimRules(spec),
    unservedVersionErrors(spec),
    monitoringRules(spec),
    ctx.release ? monitoringLineErrors(spec, ctx.release, imageEvidence(spec)) : [],
    authRules(spec),
    ctx.release ? authLineErrors(spec, ctx.release) : [],
    exposeRules(spec, ctx.exposeWith ?? "ingress"),
    redisPassword.errors,
  );
  const warnings = disabledConflicts(spec).concat(
    redisPassword.warnings,
    lowPortNote(spec),
    networkPolicyWarnings(spec),
    exposedWithoutAuth(spec),
    exposeWarnings(spec, ctx.exposeWith ?? "ingress"),
  );
  return { errors, warnings, spec };
}

/** What the spec says of the server's version: an image's tag (a named distribution's is the table's line). */
function imageEvidence(spec: CanonicalSpec): { image?: string } {
  return spec.distribution.kind === "image" ? { image: spec.distribution.image } : {};
}

/** Ports below 1024 are served by the Service; the server itself may not listen there (`server.port` ≥ 1024). */
function lowPortNote(spec: CanonicalSpec): FieldError[] {
  const port = spec.networking.port;
  if (port === listenPort(port)) return [];
  return [
    fieldError(
      "spec.networking.port",
      `${port} is below ${MIN_SERVER_PORT}, where the server cannot listen: the Service serves port ${port} and forwards to the server on ${listenPort(port)}`,
    ),
  ];
}

/**
 * The normalized spec when the schema accepts it, without the semantic rules: for readers that
 * need only what the spec names (customize's references, admission's server line).
 */
export function normalizedSpec(rawSpec: unknown): CanonicalSpec | undefined {
  return isV1alpha2Spec(rawSpec) ? normalize(rawSpec) : undefined;
}

/** A spec the schema accepts, normalized beside its raw form; otherwise the schema's verdict. */
export function schemaNormalized(
  rawSpec: unknown,
):
  | { readonly ok: true; readonly spec: CanonicalSpec; readonly raw: LlsdSpecV1alpha2 }
  | { readonly ok: false; readonly refused: ValidationResult } {
  if (!isV1alpha2Spec(rawSpec))
    return { ok: false, refused: { errors: v1alpha2SpecSchemaErrors(rawSpec), warnings: [] } };
  return { ok: true, spec: normalize(rawSpec), raw: rawSpec };
}

/** Schema, then semantic rules: on a spec that fails the schema, on the fields it accepts (well-typed.ts). */
export function validate(rawSpec: unknown, ctx: ValidateContext = {}): ValidationResult {
  const read = schemaNormalized(rawSpec);
  if (read.ok) return validateCanonical(read.spec, read.raw, ctx);
  return withRulesOnWellTyped(rawSpec, read.refused.errors, V1ALPHA2_SPEC, (raw) =>
    validateCanonical(normalize(raw), raw, ctx),
  );
}

/**
 * Which config the server runs and what it takes to run it: the override ConfigMap, a
 * generated one, or the image's own. Failures come back as values for the status.
 */
import { fieldError, type FieldError } from "../errors";
import type { ConfigMapKey } from "../api/canonical";
import { BASE_CONFIG_PATH, baseConfigErrors } from "../config/base-configmap";
import { readBase } from "../config/base";
import { providedEnv, requireProvidedEnv } from "../config/env-check";
import { loopbackBackendNotes } from "../config/local-backends";
import { overrideLineNotes } from "../config/override-line";
import { overrideVectorStoreNotes } from "../config/vector-store-startup";
import { overrideConfigWarnings } from "../config/override-settings";
import { overrideExposedWithoutAuth, overrideForgeable, trustsGatewayHeaders } from "../config/override-auth";
import { settingsEnv } from "../config/settings-env";
import { imageStateErrors, isStateError, overrideStateErrors } from "../config/shared-state-errors";
import type { ConfigDoc } from "../config/doc";
import { userSecretEnv } from "../config/user-env";
import { generate, type GenerateResult, type Generated } from "../config/generate";
import { partOfKey, type DerivedPostgres, type SplitDsn } from "../config/postgres-stores";
import type { SecretEnv } from "../config/providers";
import type { JsonMap } from "../json";
import { overrideWithExternal } from "./override-external";
import { configSource } from "../config/render";
import { sha256 } from "../config/yaml";
import { bundledConfigOf } from "../distributions/bundled";
import type { ConfigInUse, SyncFailure } from "../status/status";
import { names } from "../names";
import { parsePostgresDsn } from "./postgres-dsn";
import { overrideCheck } from "./override-parse";
import { relatedBase, type ConfigMapBase } from "./base-configmap";
import { secretValue } from "./related";
import type { ConfigPlan, PlanInput } from "./plan-types";
import { misreadSecrets } from "./secret-values";

export type { ConfigPlan, GenerationInputs, PlanInput, RememberConfig, ResolvedBaseConfig } from "./plan-types";

type Failed = { failure: SyncFailure };

const fail = (type: SyncFailure["type"], reason: string, errors: SyncFailure["errors"]): { failure: SyncFailure } => ({
  failure: { type, reason, errors },
});

function overridePlan(input: PlanInput, ref: ConfigMapKey): ConfigPlan | { failure: SyncFailure } {
  const checked = overrideCheck(ref, input.related, input.namespace);
  const configMapName = ref.configMapName;
  if (!checked.ok) {
    const reason = checked.error.message.includes("Unsupported config.yaml version")
      ? "UnsupportedConfigVersion"
      : "OverrideConfigInvalid";
    return fail("ConfigGenerated", reason, [checked.error]);
  }
  const forgeable = overrideForgeable(input.spec, configMapName, checked.parsed);
  if (forgeable.length > 0) return fail("ConfigGenerated", FORGEABLE_IDENTITY, forgeable);
  const unshared = overrideStateErrors(input.spec, configMapName, checked.parsed, input.release);
  if (unshared.length > 0) return fail("ConfigGenerated", UNSHARED_STATE, unshared);
  // Said like a generated server's `exposedWithoutAuth` warning (`path: message`), whichever config is mounted.
  const auth = overrideExposedWithoutAuth(input.spec, configMapName, checked.parsed).map(
    (w) => `${w.path}: ${w.message}`,
  );
  // Its NetworkPolicy then admits only the gateway, as for spec.auth.upstreamHeader.
  const gateway = trustsGatewayHeaders(checked.parsed) ? { gatewayHeaders: configMapName } : {};
  if (input.externalProviders && input.externalProviders.length > 0) {
    const merged = overrideWithExternal(input, configMapName, checked.parsed, input.externalProviders);
    return "failure" in merged ? merged : { ...merged, ...gateway, notes: [...auth, ...merged.notes] };
  }
  const hash = sha256(checked.configYaml);
  return {
    mounted: { source: "override", configMapName, hash, key: ref.key },
    inUse: { source: "override", configMapName, hash },
    secretEnv: [],
    plainEnv: [],
    ...gateway,
    notes: [...auth, ...overrideEnvNotes(configMapName, checked.parsed, input)],
  };
}

/** Refused when the override's server believes a gateway's headers and others than the gateway reach it. */
export const FORGEABLE_IDENTITY = "ForgeableIdentity";

/** Refused when the workload runs more than one pod: state kept inside each pod (lib/config/shared-state.ts). */
export const UNSHARED_STATE = "UnsharedState";

/** A ConfigMap mounted as is stays the user's; what would stop the server is said, not changed. */
function overrideEnvNotes(configMapName: string, parsed: JsonMap, input: PlanInput): string[] {
  const base = readBase(parsed);
  if (!base.ok) return [];
  const provided = providedEnv(input.spec, []);
  return [
    ...[
      ...requireProvidedEnv(base.doc, provided, true).errors.map((e) => e.message),
      ...loopbackBackendNotes(base.doc, provided),
    ].map((note) => `ConfigMap ${configMapName}: ${note}`),
    ...overrideLineNotes(configMapName, base.doc, input.release),
    ...overrideVectorStoreNotes(configMapName, base.doc, input.release),
    ...overrideConfigWarnings(configMapName, parsed, input.release, settingsEnv(input.spec)).map((w) => w.message),
  ];
}

/** The image's own config (the label config, else the bundled one it carries), when it can be read. */
function imageDefaultDoc(input: PlanInput): ConfigDoc | undefined {
  const text = input.base?.text ?? bundledConfigOf(input.spec.distribution, input.release);
  const base = text === undefined ? undefined : readBase(text);
  return base?.ok ? base.doc : undefined;
}

/** The image runs its own config: what would stop it is said; state it keeps inside each pod is refused. */
function imageDefaultPlan(input: PlanInput): ConfigPlan | Failed {
  const doc = imageDefaultDoc(input);
  const unshared = doc ? imageStateErrors(input.spec, doc, input.release) : [];
  if (unshared.length > 0) return fail("ConfigGenerated", UNSHARED_STATE, unshared);
  return {
    inUse: { source: "image-default", configMapName: "", hash: "" },
    secretEnv: [],
    plainEnv: [],
    notes: doc ? loopbackBackendNotes(doc, providedEnv(input.spec, [])) : [],
  };
}

/** The base config to generate from: the spec's ConfigMap, else the image's, else the one bundled for a named distribution. */
function baseText(input: PlanInput): ConfigMapBase | Failed {
  const ref = input.spec.baseConfig;
  if (ref) {
    const found = relatedBase(ref, input.related, input.namespace);
    // The reference check before planning stops a sync whose ConfigMap or key is missing.
    return (
      found ??
      fail("ConfigGenerated", "ConfigMapNotFound", [
        fieldError(`${BASE_CONFIG_PATH}.configMapName`, `ConfigMap ${ref.configMapName} has no key "${ref.key}"`),
      ])
    );
  }
  const d = input.spec.distribution;
  const base = input.base?.text ?? bundledConfigOf(d, input.release);
  if (base !== undefined)
    return { text: base, id: input.base ? `${input.base.source}@${input.base.digest}` : "bundled" };
  const what =
    d.kind === "image"
      ? `image ${d.image} carries no readable config labels`
      : `no bundled base config for the ${input.release} line`;
  return fail("ConfigGenerated", "BaseConfigUnavailable", [
    fieldError(
      "spec.distribution",
      `${what}: use distribution.name (${input.distributions
        .map((e) => e.name)
        .sort()
        .join(", ")}) or overrideConfig`,
    ),
  ]);
}

/** The Postgres connection strings' parts, for the derived Secret (absent: no Postgres store). */
function postgresOf(input: PlanInput, g: Generated): { postgres?: DerivedPostgres } | Failed {
  if (!g.postgres) return {};
  const dsns: SplitDsn[] = [];
  for (const source of g.postgres.sources) {
    const src = source.secret;
    const parsed = parsePostgresDsn(secretValue(input.related, input.namespace, src.name, src.key) ?? "");
    if (!parsed.ok)
      return fail("SecretsResolved", "InvalidConnectionString", [
        fieldError(src.path, `the value of Secret ${src.name} key "${src.key}" ${parsed.reason}`),
      ]);
    dsns.push({ ...source, parts: parsed.parts });
  }
  return { postgres: { secretName: g.postgres.secretName, dsns } };
}

function generated(input: PlanInput, base: ConfigMapBase): Generated | Failed {
  const run = (): GenerateResult =>
    generate(input.spec, base.text, input.release, {
      name: input.name,
      ...(input.externalProviders ? { externalProviders: input.externalProviders } : {}),
    });
  // External providers' metadata is not among the inputs compared: those configs are generated every time.
  const remember = (input.externalProviders?.length ?? 0) > 0 || base.id === undefined ? undefined : input.remember;
  const g = remember && base.id ? remember({ base: base.id, release: input.release, name: input.name }, run) : run();
  if (g.ok) return g;
  const reason = g.errors.some((e) => e.path === "baseConfig.version")
    ? "UnsupportedConfigVersion"
    : g.errors.every(isStateError)
      ? UNSHARED_STATE
      : "ConfigGenerationFailed";
  return fail("ConfigGenerated", reason, baseConfigErrors(input.spec.baseConfig, g.errors));
}

/** Where the base came from, for status.resolvedDistribution.configSource. */
function baseSource(input: PlanInput): ConfigInUse["source"] {
  if (input.spec.baseConfig) return "configmap";
  return input.base ? "oci-label" : "embedded";
}

function generatedPlan(input: PlanInput): ConfigPlan | Failed {
  const base = baseText(input);
  if ("failure" in base) return base;
  const g = generated(input, base);
  if ("failure" in g) return g;
  const pg = postgresOf(input, g);
  if ("failure" in pg) return pg;
  const postgres = pg.postgres;
  const misread = misreadValues(input, g, postgres);
  if (misread.length > 0) return fail("SecretsResolved", "SecretValueMisread", misread);
  const configMapName = names.config(input.name, g.hash);
  return {
    mounted: { source: "generated", configMapName, hash: g.hash, configYaml: g.configYaml },
    inUse: {
      source: baseSource(input),
      configMapName,
      hash: g.hash,
      providerCount: g.providerCount,
      resourceCount: g.resourceCount,
      configVersion: g.configVersion,
    },
    secretEnv: g.secretEnv,
    plainEnv: g.plainEnv,
    ...(postgres ? { postgres } : {}),
    notes: g.notes,
  };
}

/** Secret values the server would misread (lib/sync/secret-values.ts); the Postgres parts as the derived Secret holds them. */
function misreadValues(input: PlanInput, g: Generated, postgres: DerivedPostgres | undefined): FieldError[] {
  const partOf = (e: SecretEnv) =>
    postgres !== undefined && e.secretName === postgres.secretName ? partOfKey(postgres, e.secretKey) : undefined;
  return misreadSecrets(
    [...g.secretEnv, ...userSecretEnv(input.spec)],
    g.secretTargets,
    (e) => {
      const found = partOf(e);
      return found
        ? found.dsn.parts[found.part]
        : secretValue(input.related, input.namespace, e.secretName, e.secretKey);
    },
    (e) => {
      const found = partOf(e);
      return found
        ? `the ${found.part} in the connection string of Secret ${found.dsn.secret.name} key "${found.dsn.secret.key}"`
        : `the value of Secret ${e.secretName} key "${e.secretKey}"`;
    },
  );
}

export function planConfig(input: PlanInput): ConfigPlan | { failure: SyncFailure } {
  const source = configSource(input.spec);
  if (source === "override" && input.spec.overrideConfig) return overridePlan(input, input.spec.overrideConfig);
  if (source === "generated") return generatedPlan(input);
  return imageDefaultPlan(input);
}

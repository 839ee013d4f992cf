/**
 * Which config the server runs and what it takes to run it: the override ConfigMap, a
 * generated one, or the image's own. Failures come back as values for the status.
 */
import { fieldError } from "../errors";
import type { CanonicalSpec } from "../api/canonical";
import { generate } from "../config/generate";
import { checkOverrideConfig } from "../config/override";
import type { ResolvedExternalProvider } from "../config/external-providers";
import { overrideWithExternal } from "./override-external";
import { configSource } from "../config/render";
import { sha256 } from "../config/yaml";
import type { SecretEnv } from "../config/providers";
import type { PlainEnv } from "../config/telemetry";
import { bundledBaseConfig } from "../distributions/bundled";
import type { DistributionTable, Release } from "../distributions/table";
import type { ChildContext, MountedConfig } from "../children/context";
import type { ObjectMap } from "../wire/metacontroller";
import type { ConfigInUse, SyncFailure } from "../status/status";
import { names } from "../names";
import { parsePostgresDsn } from "./postgres-dsn";
import { configMapData, secretValue } from "./related";

export interface ConfigPlan {
  readonly mounted?: MountedConfig;
  readonly inUse: ConfigInUse;
  readonly secretEnv: readonly SecretEnv[];
  readonly plainEnv: readonly PlainEnv[];
  readonly postgres?: ChildContext["postgres"];
  readonly notes: readonly string[];
}

/** A base config found outside the bundle (the image's labels), resolved before the pure sync runs. */
export interface ResolvedBaseConfig {
  readonly text: string;
  readonly source: "oci-label";
  readonly digest: string;
  /** The server version the image declares, when it does. */
  readonly version?: string;
}

export interface PlanInput {
  readonly name: string;
  readonly namespace: string;
  readonly spec: CanonicalSpec;
  readonly related?: ObjectMap;
  readonly distributions: DistributionTable;
  /** The line the target image runs (lib/sync/server-line.ts). */
  readonly release: Release;
  /** From the image's labels; absent → the bundled config of a named distribution. */
  readonly base?: ResolvedBaseConfig;
  /** External providers with their image metadata (lib/sync/external-providers.ts). */
  readonly externalProviders?: readonly ResolvedExternalProvider[];
}

const fail = (type: SyncFailure["type"], reason: string, errors: SyncFailure["errors"]): { failure: SyncFailure } => ({ failure: { type, reason, errors } });

function overridePlan(input: PlanInput, configMapName: string): ConfigPlan | { failure: SyncFailure } {
  const checked = checkOverrideConfig(configMapName, configMapData(input.related));
  if (!checked.ok) {
    const reason = checked.error.message.includes("Unsupported config.yaml version") ? "UnsupportedConfigVersion" : "OverrideConfigInvalid";
    return fail("ConfigGenerated", reason, [checked.error]);
  }
  if (input.externalProviders && input.externalProviders.length > 0) return overrideWithExternal(input, configMapName, checked.configYaml, input.externalProviders);
  const hash = sha256(checked.configYaml);
  return {
    mounted: { source: "override", configMapName, hash },
    inUse: { source: "override", configMapName, hash },
    secretEnv: [], plainEnv: [], notes: [],
  };
}

function generatedPlan(input: PlanInput): ConfigPlan | { failure: SyncFailure } {
  const release = input.release;
  const d = input.spec.distribution;
  const base = input.base?.text ?? (d.kind === "name" ? bundledBaseConfig(d.name, release) : undefined);
  if (base === undefined) {
    const what = d.kind === "image" ? `image ${d.image} carries no readable config labels` : `no bundled base config for the ${release} line`;
    return fail("ConfigGenerated", "BaseConfigUnavailable", [fieldError("spec.distribution",
      `${what}: use distribution.name (${input.distributions.map((e) => e.name).sort().join(", ")}) or overrideConfig`)]);
  }
  const g = generate(input.spec, base, release, { name: input.name, ...(input.externalProviders ? { externalProviders: input.externalProviders } : {}) });
  if (!g.ok) {
    const reason = g.errors.some((e) => e.path === "baseConfig.version") ? "UnsupportedConfigVersion" : "ConfigGenerationFailed";
    return fail("ConfigGenerated", reason, g.errors);
  }
  let postgres: ChildContext["postgres"];
  if (g.postgres) {
    const src = g.postgres.sourceSecret;
    const parsed = parsePostgresDsn(secretValue(input.related, input.namespace, src.name, src.key) ?? "");
    if (!parsed.ok) return fail("SecretsResolved", "InvalidConnectionString", [fieldError(src.path, `the value of Secret ${src.name} key "${src.key}" ${parsed.reason}`)]);
    postgres = { secretName: g.postgres.secretName, parts: parsed.parts };
  }
  const configMapName = names.config(input.name, g.hash);
  return {
    mounted: { source: "generated", configMapName, hash: g.hash, configYaml: g.configYaml },
    inUse: { source: input.base ? "oci-label" : "embedded", configMapName, hash: g.hash, providerCount: g.providerCount, resourceCount: g.resourceCount, configVersion: g.configVersion },
    secretEnv: g.secretEnv, plainEnv: g.plainEnv, ...(postgres ? { postgres } : {}), notes: g.notes,
  };
}

export function planConfig(input: PlanInput): ConfigPlan | { failure: SyncFailure } {
  const source = configSource(input.spec);
  if (source === "override") return overridePlan(input, input.spec.overrideConfig!.configMapName);
  if (source === "generated") return generatedPlan(input);
  return { inUse: { source: "image-default", configMapName: "", hash: "" }, secretEnv: [], plainEnv: [], notes: [] };
}

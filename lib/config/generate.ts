/**
 * `generate(spec, baseConfig, release)`: the config.yaml the real server accepts, the env that
 * carries Secrets into it, and a content hash (docs/spec-reference.md). Pure: no I/O, no clock.
 */
import type { FieldError } from "../errors";
import type { CanonicalSpec } from "../api/canonical";
import { SERVER_API } from "../api/apis";
import { DEFAULT_MOUNT_PATH, listenPort, TLS_MOUNT_DIR } from "../defaults";
import type { Release } from "../distributions/table";
import { postgresSecretName } from "../names";
import { readAdaptedBase } from "./adapted-base";
import { providedEnv, requireProvidedEnv } from "./env-check";
import { loopbackBackendNotes } from "./local-backends";
import { userSecretEnv } from "./user-env";
import { secretTargets, type SecretTarget } from "./secret-targets";
import { generatedStateErrors } from "./shared-state-errors";
import { containerEnv } from "./container-env";
import { type ConfigDoc } from "./doc";
import { isPlainObject } from "../json";
import { dialectErrors } from "../api/dialect-errors";
import { ensureFiles } from "./files-provider";
import { applyDisabled } from "./disabled";
import { mergeExternalProviders, type ResolvedExternalProvider } from "./external-providers";
import { missingRequired, overlayProviders } from "./overlay";
import { replaceProviders, replaceResources, repointVectorDefaults } from "./replace";
import { fillStores, undefinedBackends } from "./provider-stores";
import { buildProviders, type ProviderOutcome, type SecretEnv } from "./providers";
import { specSettingsErrors } from "./provider-settings";
import { settingsEnv } from "./settings-env";
import {
  FIPS_APPROVED_CIPHERS,
  hasSafety,
  RELEASE_APIS,
  refusesPlainHttp,
  takesTlsConfig,
} from "../distributions/releases";
import { applyModels, applyShields, checkTools, type ResourceOutcome } from "./resources";
import { applyStorage, type PostgresParts } from "./storage";
import { applyRegistryRefresh, registryRefreshErrors } from "../api/registry-refresh";
import { applyAuth } from "./auth";
import { withVectorStoreStartup } from "./vector-store-startup";
import { telemetryEnv, type PlainEnv } from "./telemetry";
import { sha256, toConfigYaml } from "./yaml";

export interface GenerateOptions {
  /** The CR's name: OTel service name and the derived Postgres Secret's prefix. @default "llsd" */
  readonly name?: string;
  /**
   * External providers with their image metadata (the sync hook reads it from the images).
   * Absent while the spec has some: they are left out, with a note (offline rendering).
   */
  readonly externalProviders?: readonly ResolvedExternalProvider[];
}

export interface Generated {
  readonly ok: true;
  readonly configYaml: string;
  /** SHA-256 (hex) of `configYaml`. */
  readonly hash: string;
  /** Provider secrets then Postgres parts, each read from a Secret by the Deployment. */
  readonly secretEnv: readonly SecretEnv[];
  /** Plain env the config needs on the container (OpenTelemetry). */
  readonly plainEnv: readonly PlainEnv[];
  readonly postgres?: PostgresParts;
  readonly providerCount: number;
  readonly resourceCount: number;
  readonly configVersion: number;
  /** Where each Secret-backed variable lands and what the key accepts (the sync hook checks the values). */
  readonly secretTargets: readonly SecretTarget[];
  /** What was decided on the user's behalf (status messages, CLI comments). */
  readonly notes: readonly string[];
}
export interface GenerateFailed {
  readonly ok: false;
  readonly errors: readonly FieldError[];
  readonly notes: readonly string[];
}
export type GenerateResult = Generated | GenerateFailed;

function applyServer(doc: ConfigDoc, spec: CanonicalSpec, release: Release): void {
  const server = isPlainObject(doc.server) ? { ...doc.server } : {};
  // The launcher reads the port from LLAMA_STACK_PORT/OGX_PORT; server.port is kept in step for readers.
  server.port = listenPort(spec.networking.port);
  if (spec.workload.workers !== undefined) server.workers = spec.workload.workers;
  applyRegistryRefresh(server, spec, release);
  if (spec.networking.tls.enabled) {
    server.tls_certfile = `${TLS_MOUNT_DIR}/tls.crt`;
    server.tls_keyfile = `${TLS_MOUNT_DIR}/tls.key`;
    // The entrypoint's --insecure would otherwise serve OpenSSL's defaults instead of these.
    if (takesTlsConfig(release)) server.tls_config = { ciphers: [...FIPS_APPROVED_CIPHERS] };
    delete server.insecure;
  } else if (refusesPlainHttp(release)) {
    // Without it `ogx stack run` stops with "TLS required" (1.2+); TLS, when wanted, is networking.tls.
    server.insecure = true;
  }
  doc.server = server;
}

function resourceCount(doc: ConfigDoc): number {
  const rr = doc.registered_resources ?? {};
  return ["models", "shields", "vector_stores"].reduce((n, kind) => n + (rr[kind]?.length ?? 0), 0);
}

/** Merged when their metadata is known; otherwise (no registry, e.g. `llsd render`) left out, and said so. */
function externalNotes(
  doc: ConfigDoc,
  spec: CanonicalSpec,
  resolved: readonly ResolvedExternalProvider[] | undefined,
): string[] {
  if (resolved !== undefined) return mergeExternalProviders(doc, spec, resolved);
  if (spec.externalProviders.length === 0) return [];
  return [
    "spec.externalProviders: not merged: their provider_type and module come from each image's /lls-provider/lls-provider-spec.yaml, which only the sync hook reads (from the registry)",
  ];
}

/** Providers of APIs the line lacks (safety on 1.x, skills before 1.x) are refused once, by dialectErrors, not built. */
function servedProviders(spec: CanonicalSpec, release: Release): CanonicalSpec["providers"] {
  const disabledApis = new Set(spec.disabled.map((d) => d.api));
  const served = RELEASE_APIS[release];
  return spec.providers.filter(
    (p) => !disabledApis.has(SERVER_API[p.api]) && (p.api === "telemetry" || served.includes(SERVER_API[p.api])),
  );
}

function applyResources(doc: ConfigDoc, spec: CanonicalSpec, release: Release): ResourceOutcome {
  const resources: ResourceOutcome = { notes: [], errors: [] };
  applyModels(doc, spec, resources);
  if (hasSafety(release)) applyShields(doc, spec, resources);
  checkTools(doc, spec, resources);
  return resources;
}

/** The derived Postgres Secret's parts, each read into its own variable. */
function postgresSecretEnv(postgres: PostgresParts | undefined): SecretEnv[] {
  if (postgres === undefined) return [];
  return postgres.env.map((e) => ({
    name: e.name,
    secretName: postgres.secretName,
    secretKey: e.key,
    path: e.path,
  }));
}

/** The spec's entries, and what their settings and Secret keys get wrong for their classes. */
function checkedProviders(spec: CanonicalSpec, release: Release, mountPath: string): ProviderOutcome {
  const served = servedProviders(spec, release);
  const built = buildProviders(served, { release, mountPath, externals: spec.externalProviders });
  const settings = specSettingsErrors(served, release, settingsEnv(spec), spec.externalProviders);
  return settings.length === 0 ? built : { ...built, errors: [...built.errors, ...settings] };
}

/** Every generation step, in order, on `doc` (changed in place); what each said or refused. */
function runSteps(doc: ConfigDoc, spec: CanonicalSpec, release: Release, options: GenerateOptions) {
  const name = options.name ?? "llsd";
  const mountPath = spec.workload.storage?.mountPath ?? DEFAULT_MOUNT_PATH;
  const providers = checkedProviders(spec, release, mountPath);
  const replaced = replaceProviders(doc, spec.replace, providers.entries);
  overlayProviders(doc, providers.entries, providers.notes);
  fillStores(doc, providers.entries, { release, mountPath });
  const incomplete = missingRequired(doc, providers.entries);
  const external = externalNotes(doc, spec, options.externalProviders);
  const disabled = applyDisabled(doc, spec.disabled, release);
  const files = disabled.errors.length > 0 ? [] : ensureFiles(doc, mountPath);
  replaced.push(...repointVectorDefaults(doc, spec.replace), ...replaceResources(doc, spec.replace));
  const storage = applyStorage(doc, spec.storage, mountPath, postgresSecretName(name));
  const resources = applyResources(doc, spec, release);
  applyServer(doc, spec, release);
  // The access rules and tenancy it writes decide what the vector_io providers need to start.
  const auth = withVectorStoreStartup(applyAuth(doc, spec, release), doc, release, providers.entries);
  const telemetry = telemetryEnv(spec.providers, name);
  const secretEnv = [...providers.env, ...postgresSecretEnv(storage.postgres), ...auth.env];
  const provided = providedEnv(spec, [...secretEnv, ...telemetry.env]);
  const envCheck = requireProvidedEnv(doc, provided);
  const notes = [
    ...external,
    ...providers.notes,
    ...replaced,
    ...disabled.notes,
    ...files,
    ...storage.notes,
    ...resources.notes,
    ...telemetry.notes,
    ...auth.notes,
    ...envCheck.notes,
    ...loopbackBackendNotes(doc, provided),
  ];
  const errors = [
    ...dialectErrors(spec, release),
    ...registryRefreshErrors(spec, release),
    ...providers.errors,
    ...incomplete,
    ...undefinedBackends(doc, providers.entries),
    ...disabled.errors,
    ...resources.errors,
    ...envCheck.errors,
    ...auth.errors,
    ...generatedStateErrors(spec, doc, release, containerEnv(spec, [...secretEnv, ...telemetry.env])),
  ];
  return { notes, errors, secretEnv, plainEnv: telemetry.env, postgres: storage.postgres };
}

/**
 * What generating would refuse, and decide on the user's behalf (its notes), without writing
 * config.yaml (admission and `/sync`'s checks need only this).
 */
export function generationRefusals(
  spec: CanonicalSpec,
  baseConfig: string | object,
  release: Release,
  options: GenerateOptions = {},
): Pick<GenerateFailed, "errors" | "notes"> {
  const base = readAdaptedBase(baseConfig, release);
  if (!base.ok) return { errors: base.errors, notes: [] };
  const steps = runSteps(base.doc, spec, release, options);
  return { errors: steps.errors, notes: [...base.notes, ...steps.notes] };
}

export function generate(
  spec: CanonicalSpec,
  baseConfig: string | object,
  release: Release,
  options: GenerateOptions = {},
): GenerateResult {
  const base = readAdaptedBase(baseConfig, release);
  if (!base.ok) return { ok: false, errors: [...base.errors], notes: [] };
  const doc = base.doc;
  const steps = runSteps(doc, spec, release, options);
  const { errors, secretEnv, plainEnv, postgres } = steps;
  const notes = [...base.notes, ...steps.notes];
  if (errors.length > 0) return { ok: false, errors, notes };
  // The user's Secret-backed variables are read by the same substitution: their keys are checked too.
  const secretNamesRead = new Set([...secretEnv, ...userSecretEnv(spec)].map((e) => e.name));
  const targets = secretTargets(doc, secretNamesRead, release);
  const configYaml = toConfigYaml(doc);
  return {
    ok: true,
    configYaml,
    hash: sha256(configYaml),
    secretEnv,
    plainEnv,
    ...(postgres ? { postgres } : {}),
    providerCount: Object.values(doc.providers).reduce((n, list) => n + (list?.length ?? 0), 0),
    resourceCount: resourceCount(doc),
    configVersion: 2,
    secretTargets: targets,
    notes,
  };
}

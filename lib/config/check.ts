/**
 * One verdict on a spec, whoever asks: `llsd validate`, `llsd render`, `POST /validate` and
 * `POST /sync` all call `checkSpec`, so they refuse the same specs with the same messages.
 *
 * Three classes of problems, listed together: the schema (a spec that fails it is judged
 * further without the values it refuses, lib/api/well-typed.ts), the semantic rules of
 * `validate()` with the provider types,
 * and what generating config.yaml against the base config would refuse (a model on a provider
 * the config lacks, a disabled API another one needs…) when that base config is known offline
 * (a named distribution's bundled config, one given, or a baseConfig ConfigMap among the
 * ConfigMaps given), and an overrideConfig's ConfigMap when it is given. What the caller cannot
 * see (a ConfigMap, an image's labels) is a warning (lib/config/related-check.ts). A problem is
 * reported once per field.
 */
import type { CanonicalSpec, ConfigMapKey } from "../api/canonical";
import { normalize } from "../api/normalize";
import { schemaNormalized, validateCanonical, type ValidateContext, type ValidationResult } from "../api/validate";
import type { LlsdSpecV1alpha2 } from "../api/v1alpha2";
import { V1ALPHA2_SPEC, withRulesOnWellTyped } from "../api/well-typed";
import { child, type FieldError } from "../errors";
import { bundledConfigOf } from "../distributions/bundled";
import type { Release } from "../distributions/table";
import { generationRefusals, type GenerateOptions } from "./generate";
import { specProviderType } from "./spec-provider-type";
import { RELEASE_APIS } from "../distributions/releases";
import { SERVER_API } from "../api/apis";
import { checkedBase } from "./base";
import { scaleOut } from "./shared-state";
import { imageStateErrors, volumeStateErrors } from "./shared-state-errors";
import { releaseFor } from "./source";
import { configSource } from "../api/config-source";
import { settingsErrors } from "./provider-settings";
import { overrideWarnings } from "./override-settings";
import type { ConfigMapData } from "./override";
import { settingsEnv } from "./settings-env";
import { atBaseConfig, baseConfigOf, externalUnseen, imageUnseen, overrideVerdict } from "./related-check";

export interface CheckOptions extends ValidateContext, GenerateOptions {
  /** Server line; @default from the distribution's image tag, else the table's default. */
  readonly release?: Release;
  /** Base config text to generate against; @default the named distribution's bundled config. */
  readonly baseConfig?: string;
  /** ConfigMaps beside the CR (by name → data): an overrideConfig or baseConfig among them is checked; one not given is a warning. */
  readonly configMaps?: ConfigMapData;
  /**
   * Generate against the base config (true), or stop after the spec's own rules (false). The
   * sync hook passes false on its fast path: it generates anyway, against the image's config.
   * @default true
   */
  readonly generation?: boolean;
  /**
   * The line for the normalized spec, asked only when `release` is not given: admission picks
   * the line the sync hook would (from the object's status and annotations) without
   * normalizing the spec a second time for it.
   */
  readonly lineOf?: (spec: CanonicalSpec) => Release | undefined;
}

/** Every spec provider's type, resolved as generation will: removed types and names no type of the line matches are errors. */
export function providerTypeErrors(spec: CanonicalSpec, release: Release): FieldError[] {
  // On a line without the API (safety on 1.x, skills before 1.x), its providers get the dialect's one error
  // (or are ignored when disabled).
  const served = RELEASE_APIS[release];
  const errors: FieldError[] = [];
  // A plain loop: every sync and admission runs it, and it almost always finds nothing.
  for (const p of spec.providers) {
    if (p.api === "telemetry" || !served.includes(SERVER_API[p.api])) continue;
    const resolved = specProviderType(p, release, spec.externalProviders);
    if (resolved.error) errors.push({ path: child(p.path, "provider"), message: resolved.error });
  }
  return errors;
}

const NOTHING = { errors: [], notes: [], warnings: [] } as const;

export interface GenerationCheck {
  readonly errors: readonly FieldError[];
  readonly notes: readonly string[];
  /** What could not be checked because an object was not given (lib/config/related-check.ts). */
  readonly warnings: readonly FieldError[];
}

/** The base config text to generate against, or the verdict without one (not given, unreadable, or an image's). */
function baseOf(
  spec: CanonicalSpec,
  options: CheckOptions,
  release: Release,
): { readonly text: string; readonly ref?: ConfigMapKey } | GenerationCheck {
  if (options.baseConfig !== undefined) return { text: options.baseConfig };
  // A baseConfig's ConfigMap is known to the sync hook, and to the CLI when the file holds it.
  if (spec.baseConfig) {
    const read = baseConfigOf(spec.baseConfig, options.configMaps);
    return "text" in read ? { text: read.text, ref: spec.baseConfig } : { ...read, notes: [] };
  }
  const d = spec.distribution;
  const bundled = bundledConfigOf(d, release);
  if (bundled !== undefined) return { text: bundled };
  return d.kind === "image" ? { ...NOTHING, warnings: [imageUnseen(d.image)] } : NOTHING;
}

/** What generation against the base config refuses, and its notes, for a spec that normalized. */
export function generationCheck(spec: CanonicalSpec, options: CheckOptions = {}): GenerationCheck {
  const source = configSource(spec);
  const release = releaseFor(spec, options);
  if (source === "override" && spec.overrideConfig) {
    // A generated config notes the external providers it could not merge; a ConfigMap's verdict says it here.
    const verdict = overrideVerdict(spec, spec.overrideConfig, options.configMaps, release);
    return { ...verdict, warnings: [...verdict.warnings, ...externalUnseen(spec)], notes: [] };
  }
  const base = baseOf(spec, options, release);
  if (!("text" in base)) return base;
  if (source === "image-default") return { ...NOTHING, errors: imageDefaultErrors(spec, base.text, release) };
  const refused = generationRefusals(spec, base.text, release, options);
  return { errors: atBaseConfig(base.ref, refused.errors), notes: refused.notes, warnings: [] };
}

/** The image runs its own config: what it keeps inside each pod, when the workload runs more than one. */
function imageDefaultErrors(spec: CanonicalSpec, base: string, release: Release): FieldError[] {
  if (scaleOut(spec.workload) === undefined) return []; // the usual case: one pod, nothing to read
  const read = checkedBase(base);
  return read.ok ? imageStateErrors(spec, read.doc, release) : [];
}

/** What generation against the base config refuses, for a spec that normalized. */
export function generationErrors(spec: CanonicalSpec, options: CheckOptions = {}): FieldError[] {
  return [...generationCheck(spec, options).errors];
}

/** `more` added to `errors`, except on a field that already has one (the first voice wins). */
export function withoutRepeats(errors: readonly FieldError[], more: readonly FieldError[]): FieldError[] {
  if (more.length === 0) return [...errors]; // the usual case: no set of paths
  const seen = new Set(errors.map((e) => e.path));
  const out = [...errors];
  for (const e of more) {
    if (seen.has(e.path)) continue;
    seen.add(e.path);
    out.push(e);
  }
  return out;
}

/** Every problem of a v1alpha2 spec, in one list (see the file comment). */
export function checkSpec(rawSpec: unknown, given: CheckOptions = {}): ValidationResult {
  const read = schemaNormalized(rawSpec);
  if (read.ok) return checkSchemaValid(read.raw, given, read.spec);
  // Nothing generates from a spec the schema refuses, so what generation would refuse is said here.
  const options = { ...given, generation: true };
  return withRulesOnWellTyped(rawSpec, read.refused.errors, V1ALPHA2_SPEC, (raw) => checkSchemaValid(raw, options));
}

/** `checkSpec` of a spec the schema has accepted already (a whole object was checked): the rest of the verdict. */
export function checkSchemaValid(
  raw: LlsdSpecV1alpha2,
  given: CheckOptions = {},
  spec: CanonicalSpec = normalize(raw),
): ValidationResult {
  const options = withLine(given, spec);
  const checked = validateCanonical(spec, raw, options);
  const release = releaseFor(spec, options);
  const types = providerTypeErrors(spec, release);
  const settings = settingsErrors(spec, release, settingsEnv(spec));
  const own = withoutRepeats(checked.errors, [...types, ...settings, ...volumeStateErrors(spec)]);
  const {
    errors: refused,
    notes,
    warnings: unseen,
  } = options.generation === false ? NOTHING : generationCheck(spec, options);
  const errors = withoutRepeats(own, refused);
  const more = [...unseen, ...overrideSettingsWarnings(spec, options, release)];
  const warnings = more.length > 0 ? [...checked.warnings, ...more] : checked.warnings;
  if (notes.length > 0) return { ...checked, errors, warnings, notes };
  return errors.length === checked.errors.length && more.length === 0 ? checked : { ...checked, errors, warnings };
}

/** The user's own config file, when the ConfigMap is at hand: what its classes say is a warning. */
function overrideSettingsWarnings(spec: CanonicalSpec, options: CheckOptions, release: Release): FieldError[] {
  if (!spec.overrideConfig || options.configMaps === undefined) return [];
  return overrideWarnings(spec, options.configMaps, release);
}

/** The options with the line `lineOf` picks, when no release was given. */
function withLine(given: CheckOptions, spec: CanonicalSpec): CheckOptions {
  const line = given.release ?? given.lineOf?.(spec);
  return line && !given.release ? { ...given, release: line } : given;
}

/**
 * From a v1alpha2 spec to a config: validate, pick the config source, find the base, generate.
 * Shared by the CLI and the sync hook; the base config is an input, so this stays pure.
 */
import { fieldError, type FieldError } from "../errors";
import type { CanonicalSpec, ConfigMapKey } from "../api/canonical";
import { CONFIG_FILE_NAME } from "../defaults";
import { BASE_CONFIG_PATH, baseConfigErrors, baseConfigText } from "./base-configmap";
import type { ValidateContext } from "../api/validate";
import { bundledConfigOf } from "../distributions/bundled";
import type { DistributionTable, Release } from "../distributions/table";
import { checkSpec, generationErrors, withoutRepeats, type CheckOptions } from "./check";
import { generate, type GenerateOptions, type Generated } from "./generate";
import { checkOverrideConfig, type ConfigMapData } from "./override";
import { lineFor } from "./source";
import { configSource } from "../api/config-source";
import { overrideStateErrors } from "./shared-state-errors";
import { overrideForgeable } from "./override-auth";

export { configSource, type ConfigSource } from "../api/config-source";
export { lineFor, releaseFor } from "./source";

export interface RenderInput extends GenerateOptions {
  /** Base config text; @default the bundled config of the named distribution. */
  readonly baseConfig?: string;
  /** Server line; @default the line of the distribution's image (lib/distributions/detect.ts). */
  readonly release?: Release;
  readonly distributions?: DistributionTable;
  /** ConfigMaps of the CR's namespace; when given, an overrideConfig is checked against them and a baseConfig read from them. */
  readonly configMaps?: ConfigMapData;
}

export type Rendered =
  | {
      readonly ok: true;
      readonly source: "generated";
      readonly release: Release;
      readonly generated: Generated;
      readonly warnings: readonly FieldError[];
    }
  | {
      readonly ok: true;
      readonly source: "override";
      readonly release: Release;
      readonly configYaml?: string;
      readonly warnings: readonly FieldError[];
      readonly notes: readonly string[];
    }
  | {
      readonly ok: true;
      readonly source: "image-default";
      readonly release: Release;
      readonly warnings: readonly FieldError[];
      readonly notes: readonly string[];
    }
  | {
      readonly ok: false;
      readonly errors: readonly FieldError[];
      readonly warnings: readonly FieldError[];
      readonly notes: readonly string[];
    };

function baseFor(spec: CanonicalSpec, release: Release, input: RenderInput): string | FieldError {
  if (input.baseConfig !== undefined) return input.baseConfig;
  if (spec.baseConfig) return configMapBase(spec.baseConfig, input.configMaps);
  const d = spec.distribution;
  const bundled = bundledConfigOf(d, release);
  if (bundled !== undefined) return bundled;
  return fieldError(
    "spec.distribution",
    d.kind === "image"
      ? `no base config for image ${d.image}: the image must carry config labels (io.llamastack.config.base64, or com.ogx.config.*), or use overrideConfig`
      : `no bundled base config for this distribution on the ${release} server line`,
  );
}

/** spec.baseConfig's text, from the ConfigMaps given beside the CR. */
function configMapBase(ref: ConfigMapKey, configMaps: ConfigMapData | undefined): string | FieldError {
  if (configMaps === undefined)
    return fieldError(
      `${BASE_CONFIG_PATH}.configMapName`,
      `ConfigMap ${ref.configMapName} was not given: put it in the file beside the CR (or pass --base-config)`,
    );
  const read = baseConfigText(ref, configMaps);
  return read.ok ? read.text : read.error;
}

/** The server line and what was said on the way there, carried into each kind of answer. */
interface RenderContext {
  readonly release: Release;
  readonly warnings: readonly FieldError[];
  readonly lineNotes: readonly string[];
}

function renderOverride(spec: CanonicalSpec, configMaps: ConfigMapData | undefined, at: RenderContext): Rendered {
  const { release, warnings, lineNotes } = at;
  const ref = spec.overrideConfig ?? { configMapName: "", key: CONFIG_FILE_NAME };
  const key = ref.key === CONFIG_FILE_NAME ? "" : ` key "${ref.key}"`;
  const note = `config.yaml comes from ConfigMap ${ref.configMapName}${key}, mounted as is`;
  if (configMaps === undefined)
    return {
      ok: true,
      source: "override",
      release,
      warnings,
      notes: [...lineNotes, `${note} (not checked: the ConfigMap was not given)`],
    };
  const checked = checkOverrideConfig(ref, configMaps);
  if (!checked.ok) return { ok: false, errors: [checked.error], warnings, notes: [...lineNotes] };
  const refused = [
    ...overrideForgeable(spec, ref.configMapName, checked.parsed),
    ...overrideStateErrors(spec, ref.configMapName, checked.parsed, release),
  ];
  if (refused.length > 0) return { ok: false, errors: refused, warnings, notes: [...lineNotes] };
  return {
    ok: true,
    source: "override",
    release,
    configYaml: checked.configYaml,
    warnings,
    notes: [...lineNotes, note],
  };
}

function renderGenerated(spec: CanonicalSpec, input: RenderInput, at: RenderContext): Rendered {
  const { release, warnings, lineNotes } = at;
  const base = baseFor(spec, release, input);
  if (typeof base !== "string") return { ok: false, errors: [base], warnings, notes: lineNotes };
  const generated = generate(spec, base, release, input);
  if (!generated.ok) {
    // A --base-config file is not the spec's ConfigMap: its errors keep their own place.
    const ref = input.baseConfig === undefined ? spec.baseConfig : undefined;
    const errors = baseConfigErrors(ref, generated.errors);
    return { ok: false, errors, warnings, notes: [...lineNotes, ...generated.notes] };
  }
  return {
    ok: true,
    source: "generated",
    release,
    generated: lineNotes.length > 0 ? { ...generated, notes: [...lineNotes, ...generated.notes] } : generated,
    warnings,
  };
}

export function render(rawSpec: unknown, input: RenderInput = {}, ctx: ValidateContext = {}): Rendered {
  const options = { ...ctx, ...input, generation: false };
  const checked = checkSpec(rawSpec, options);
  const warnings = checked.warnings;
  if (checked.errors.length > 0 || !checked.spec) {
    // Every class of problem at once: what generation would also refuse is listed too.
    const errors = checked.spec
      ? withoutRepeats(checked.errors, generationErrors(checked.spec, options))
      : checked.errors;
    return { ok: false, errors, warnings, notes: [] };
  }
  const spec = checked.spec;
  const line = lineFor(spec, input);
  const at: RenderContext = {
    release: line.release,
    warnings,
    lineNotes: line.note ? [`spec.distribution: ${line.note}`] : [],
  };
  const source = configSource(spec);
  if (source === "override" && spec.overrideConfig) return renderOverride(spec, input.configMaps, at);
  if (source === "image-default") return renderImageDefault(spec, { ...options, release: at.release }, at);
  return renderGenerated(spec, input, at);
}

/** The image runs its own config: refused only for state it keeps inside each pod (lib/config/shared-state.ts). */
function renderImageDefault(spec: CanonicalSpec, options: CheckOptions, at: RenderContext): Rendered {
  const { release, warnings, lineNotes } = at;
  const refused = generationErrors(spec, options);
  if (refused.length > 0) return { ok: false, errors: refused, warnings, notes: [...lineNotes] };
  const note = "no providers, resources, storage or disabled: the distribution image runs its own default config";
  return { ok: true, source: "image-default", release, warnings, notes: [...lineNotes, note] };
}

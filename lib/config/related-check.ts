/**
 * What the verdict on a spec owes to objects beside it: the ConfigMap of `overrideConfig` or
 * `baseConfig`, and an image's own config labels. Given the ConfigMaps (`llsd validate` and
 * `llsd render` read them from the file), a spec is judged against them as the sync hook judges
 * it against `related`; an object the caller cannot see (admission sees neither ConfigMaps nor
 * images, the CLI reads no registry) is said as a warning naming what was not checked, never
 * passed over in silence.
 */
import type { CanonicalSpec, ConfigMapKey } from "../api/canonical";
import { fieldError, type FieldError } from "../errors";
import type { Release } from "../distributions/table";
import { BASE_CONFIG_PATH, baseConfigErrors, baseConfigText } from "./base-configmap";
import { checkOverrideConfig, type ConfigMapData } from "./override";
import { overrideStateErrors } from "./shared-state-errors";
import { overrideAuthUnseen, overrideExposedWithoutAuth, overrideForgeable } from "./override-auth";

export interface RelatedVerdict {
  readonly errors: readonly FieldError[];
  readonly warnings: readonly FieldError[];
}

const OVERRIDE_PATH = "spec.overrideConfig.configMapName";

/** Not seen: said where the reference is, with who does check it. */
const unseen = (path: string, what: string): FieldError =>
  fieldError(
    path,
    `${what} was not checked here (not given); the sync hook reads it and refuses the CR in its status when it is missing or its config is refused. Give it to llsd validate in the same file to check it`,
  );

/** `overrideConfig`: its ConfigMap checked as the sync hook checks it, or a warning. */
export function overrideVerdict(
  spec: CanonicalSpec,
  ref: ConfigMapKey,
  configMaps: ConfigMapData | undefined,
  release: Release,
): RelatedVerdict {
  // Given, the ConfigMaps are all there is (as `related` is for the sync hook): one missing among them is refused.
  const data = configMaps;
  if (data === undefined)
    return {
      errors: [],
      warnings: [
        unseen(OVERRIDE_PATH, `ConfigMap ${ref.configMapName}`),
        ...overrideAuthUnseen(spec, ref.configMapName),
      ],
    };
  const checked = checkOverrideConfig(ref, data);
  if (!checked.ok) return { errors: [checked.error], warnings: [] };
  return {
    errors: [
      ...overrideForgeable(spec, ref.configMapName, checked.parsed),
      ...overrideStateErrors(spec, ref.configMapName, checked.parsed, release),
    ],
    warnings: overrideExposedWithoutAuth(spec, ref.configMapName, checked.parsed),
  };
}

/** `baseConfig`: the text to generate against, or a warning that it was not seen, or why it cannot be read. */
export function baseConfigOf(
  ref: ConfigMapKey,
  configMaps: ConfigMapData | undefined,
): { readonly text: string } | RelatedVerdict {
  const data = configMaps;
  if (data === undefined)
    return { errors: [], warnings: [unseen(`${BASE_CONFIG_PATH}.configMapName`, `ConfigMap ${ref.configMapName}`)] };
  const read = baseConfigText(ref, data);
  return read.ok ? { text: read.text } : { errors: [read.error], warnings: [] };
}

/** Errors of generation against a baseConfig ConfigMap, said at spec.baseConfig (as the sync hook says them). */
export const atBaseConfig = (ref: ConfigMapKey | undefined, errors: readonly FieldError[]): FieldError[] =>
  baseConfigErrors(ref, errors);

/** An image whose config labels only the sync hook reads. */
export const imageUnseen = (image: string): FieldError =>
  fieldError(
    "spec.distribution.image",
    `the config labels of image ${image} were not read here: what generating against its config would refuse was not checked; the sync hook reads them and says it in the CR's status (llsd render --base-config FILE checks a copy)`,
  );

/** External providers' images, whose provider spec only the sync hook reads. */
export function externalUnseen(spec: CanonicalSpec): FieldError[] {
  const first = spec.externalProviders[0];
  if (first === undefined) return [];
  const all = spec.externalProviders.length;
  return [
    fieldError(
      "spec.externalProviders",
      `the image${all > 1 ? "s" : ""} of ${all} external provider${all > 1 ? "s" : ""} (${first.image}${all > 1 ? ", …" : ""}) were not read here: their provider type, module and config were not checked; the sync hook reads them and says what it refuses in the CR's status`,
    ),
  ];
}

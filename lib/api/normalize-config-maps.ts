/**
 * The spec's ConfigMap references in their canonical shape: `caBundle` (one object or a list)
 * as a list, each entry with its field path, and `{configMapName, key?}` with the key defaulted.
 */
import { child } from "../errors";
import { CONFIG_FILE_NAME, DEFAULT_CA_BUNDLE_KEY } from "../defaults";
import type { CaBundleSource, ConfigMapKey } from "./canonical";
import type { CaBundleInput, ConfigMapKeyInput } from "./v1alpha2";

const CA_PATH = "spec.networking.tls.caBundle";

function isCaBundleList(input: CaBundleInput | readonly CaBundleInput[]): input is readonly CaBundleInput[] {
  return Array.isArray(input);
}

function caBundleSource(input: CaBundleInput, path: string): CaBundleSource {
  return { configMapName: input.configMapName, configMapKeys: input.configMapKeys ?? [DEFAULT_CA_BUNDLE_KEY], path };
}

/** The one object and the list alike: a list, each entry with its keys defaulted and its field path. */
export function caBundles(input: CaBundleInput | readonly CaBundleInput[]): CaBundleSource[] {
  return isCaBundleList(input)
    ? input.map((c, i) => caBundleSource(c, child(CA_PATH, i)))
    : [caBundleSource(input, CA_PATH)];
}

/** `{configMapName, key?}` with the key defaulted to config.yaml. */
export function configMapKey(input: ConfigMapKeyInput): ConfigMapKey {
  return { configMapName: input.configMapName, key: input.key ?? CONFIG_FILE_NAME };
}

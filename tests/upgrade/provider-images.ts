/**
 * The registry an upgrade run reads external provider images from. A parent with
 * `spec.externalProviders` has no children without its images' metadata files, so its upgrade
 * would go unseen; this stand-in answers each of its images as tests/external-fixtures.ts does
 * (the section's API, a package named after the provider id) and says every base image has no
 * config labels, so the bundled config is used as with image reading off. Parents without
 * external providers get no resolver at all: exactly the hooks' `LLSD_READ_IMAGE_LABELS=false`.
 * It implements the `BaseConfigResolver` shape every release has (lib/oci/cache.ts).
 */
import { serverApiName } from "../../lib/api/apis";
import { isPlainObject, type JsonMap } from "../../lib/json";
import { FIXTURE_DIGEST, providerSpecYaml } from "../external-fixtures";

export interface UpgradeResolver {
  resolve(image: string): Promise<{ readonly kind: "no-labels"; readonly digest: string }>;
  providerSpec(
    image: string,
  ): Promise<
    | { readonly kind: "found"; readonly text: string; readonly layer: string; readonly digest: string }
    | { readonly kind: "missing"; readonly detail: string; readonly digest: string }
  >;
}

/** image → its metadata file, for every external provider of the parent (the first use of an image wins). */
function metadataByImage(externalProviders: JsonMap): Map<string, string> {
  const byImage = new Map<string, string>();
  for (const [section, list] of Object.entries(externalProviders)) {
    for (const entry of Array.isArray(list) ? list : []) {
      if (!isPlainObject(entry) || typeof entry.image !== "string" || typeof entry.providerId !== "string") continue;
      if (!byImage.has(entry.image))
        byImage.set(entry.image, providerSpecYaml(entry.providerId, { api: serverApiName(section) }));
    }
  }
  return byImage;
}

/** The stand-in registry for one /sync request, or undefined when its parent names no external provider. */
export function upgradeResolver(request: JsonMap): UpgradeResolver | undefined {
  const parent = isPlainObject(request.parent) ? request.parent : {};
  const spec = isPlainObject(parent.spec) ? parent.spec : {};
  if (!isPlainObject(spec.externalProviders)) return undefined;
  const byImage = metadataByImage(spec.externalProviders);
  if (byImage.size === 0) return undefined;
  return {
    resolve: () => Promise.resolve({ kind: "no-labels", digest: FIXTURE_DIGEST }),
    providerSpec: (image) => {
      const text = byImage.get(image);
      return Promise.resolve(
        text === undefined
          ? { kind: "missing", detail: "not an image of this parent's spec", digest: FIXTURE_DIGEST }
          : { kind: "found", text, layer: FIXTURE_DIGEST, digest: FIXTURE_DIGEST },
      );
    },
  };
}

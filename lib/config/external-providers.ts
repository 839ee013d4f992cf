/**
 * External providers merged into config.yaml after the inline ones (FR-014, FR-090..092): each
 * becomes `{provider_id, provider_type, module, config}` with the type and module from the
 * image's metadata and `config` from the CR. An id already in the API (inline or base) is
 * replaced in place, with a note; the server imports `module` from the packages the init
 * containers installed (lib/children/external-providers.ts). Pure: the metadata is an input.
 */
import type { CanonicalSpec, ExternalProvider } from "../api/canonical";
import type { JsonObject } from "../api/v1alpha2";
import { effectiveId, type ConfigDoc, type JsonMap, type ProviderEntry } from "./doc";
import type { ProviderPackage } from "./provider-package";

/** An external provider with what its image said about itself. */
export interface ResolvedExternalProvider {
  readonly provider: ExternalProvider;
  readonly package: ProviderPackage;
  /** The image the metadata was read from, pinned by digest (`image@sha256:…`): the init container runs exactly it. */
  readonly pinnedImage: string;
}

/** `registry/repo:tag` + digest → `registry/repo:tag@digest`; a reference that already names a digest is kept. */
export function pinImage(image: string, digest: string): string {
  return image.includes("@") ? image : `${image}@${digest}`;
}

export function externalEntry(r: ResolvedExternalProvider): ProviderEntry {
  return {
    provider_id: r.provider.providerId,
    provider_type: r.package.providerType,
    module: r.package.packageName,
    config: structuredClone((r.provider.config ?? {}) as JsonObject) as JsonMap,
  };
}

function origin(spec: CanonicalSpec, id: string): string {
  const inline = spec.providers.find((p) => p.id === id);
  return inline ? inline.path : "the base config";
}

/** Merge into `doc` (changed in place, like the other generation steps); notes say what was replaced. */
export function mergeExternalProviders(
  doc: ConfigDoc,
  spec: CanonicalSpec,
  resolved: readonly ResolvedExternalProvider[],
): string[] {
  const notes: string[] = [];
  for (const r of resolved) {
    const { api, providerId, path, image } = r.provider;
    const list = [...(doc.providers[api] ?? [])];
    const at = list.findIndex((p) => effectiveId(p.provider_id) === providerId);
    const entry = externalEntry(r);
    if (at >= 0) {
      notes.push(
        `${path}: replaces provider "${providerId}" of providers.${api} (from ${origin(spec, providerId)}, ${list[at]!.provider_type}) with ${r.package.providerType} from image ${image}`,
      );
      list[at] = entry;
    } else list.push(entry);
    doc.providers[api] = list;
    if (doc.apis && doc.apis.length > 0 && !doc.apis.includes(api)) doc.apis = [...doc.apis, api];
  }
  return notes;
}

/**
 * External providers merged into config.yaml after the inline ones (docs/external-providers.md): each
 * becomes `{provider_id, provider_type, module, config}` with the type and module from the
 * image's metadata and `config` from the CR. An id already in the API (inline or base) is
 * replaced in place, with a note; the server imports `module` from the packages the init
 * containers installed (lib/children/external-providers.ts). Pure: the metadata is an input.
 */
import type { CanonicalSpec, ExternalProvider } from "../api/canonical";
import { isJsonMap } from "./base-shape";
import { addApi, effectiveId, type ConfigDoc, type ProviderEntry } from "./doc";
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
  const config = structuredClone(r.provider.config ?? {});
  return {
    provider_id: r.provider.providerId,
    provider_type: r.package.providerType,
    module: r.package.packageName,
    // The CR's config was parsed from JSON (or YAML of plain data), so the guard always holds.
    config: isJsonMap(config) ? config : {},
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
    addApi(doc, api);
  }
  return notes;
}

/**
 * One provider image → the text of its `/lls-provider/lls-provider-spec.yaml`, uncached
 * (cache.ts caches it by manifest digest). Layers are read from the top (last) down, the way
 * the container's filesystem stacks them: the first layer that has the file wins, and a
 * whiteout of the file, of its directory, or an opaque marker on the directory in a layer
 * above means the image has no such file. At most `maxLayers` layers are read, each bounded
 * by the client's layer and file limits; the file is parsed elsewhere (lib/config/provider-package.ts).
 */
import type { Call, RegistryClient, ResolvedImage } from "./client";
import type { RegistryRef } from "./reference";
import { ok, REASON, type Result } from "./types";

/** The metadata file, as a tar entry path (tar paths carry no leading `/`; `./` prefixes are normalized). */
export const PROVIDER_SPEC_PATH = "lls-provider/lls-provider-spec.yaml";

/** OCI whiteouts that hide the file in every layer below the one that holds them. */
export const PROVIDER_SPEC_WHITEOUTS: readonly string[] = [
  "lls-provider/.wh.lls-provider-spec.yaml",
  "lls-provider/.wh..wh..opq",
  ".wh.lls-provider",
];

/** A provider image is its base plus a few layers on top; the file lives in one of the top ones. */
export const DEFAULT_MAX_PROVIDER_LAYERS = 8;

export type ProviderSpecFile =
  | { readonly kind: "found"; readonly text: string; readonly layer: string }
  | { readonly kind: "missing"; readonly detail: string };

export function providerSpecWeight(file: ProviderSpecFile): number {
  return 512 + (file.kind === "found" ? file.text.length * 2 : file.detail.length * 2);
}

function notFound(total: number, scanned: number): string {
  if (total > scanned) {
    return `not in the top ${scanned} of its ${total} layers (the hooks read at most ${scanned}; add the file in a top layer)`;
  }
  return `not in any of its ${total} layer${total === 1 ? "" : "s"}`;
}

/** Reads the provider spec file from the top `maxLayers` layers down; the first layer that has it (or deletes it) wins. */
export function providerSpecReader(
  maxLayers = DEFAULT_MAX_PROVIDER_LAYERS,
): (client: RegistryClient, ref: RegistryRef, image: ResolvedImage, call: Call) => Promise<Result<ProviderSpecFile>> {
  return async (client, ref, image, call) => {
    const layers = image.manifest.layers;
    const scanned = layers.slice(Math.max(0, layers.length - maxLayers)).reverse();
    const wanted = { path: PROVIDER_SPEC_PATH, hiddenBy: PROVIDER_SPEC_WHITEOUTS };
    for (const layer of scanned) {
      const file = await client.extractFile(ref, layer, call, wanted);
      if (file.ok) return ok({ kind: "found", text: file.value, layer: layer.digest });
      if (file.error.reason === REASON.fileDeleted) return ok({ kind: "missing", detail: file.error.message });
      if (file.error.reason !== REASON.fileNotFound) return file;
    }
    return ok({ kind: "missing", detail: notFound(layers.length, scanned.length) });
  };
}

/**
 * The resolver the sync hook calls: one registry client behind two image caches
 * (image-cache.ts: tag → digest TTL, digest → value LRU, single-flight, failure backoff), one
 * for base configs (labels, see README.md) and one for external providers' metadata files.
 */
import { cacheBytes, registryLookupBytes } from "../caches";
import type { CredentialLookup } from "./auth";
import { readBaseFromImage, type BaseFromImage } from "./base-config";
import { createRegistryClient, type RegistryClientOptions } from "./client";
import { createImageCache, type CachedRead, type ImageReadObserver } from "./image-cache";
import type { LabelKind } from "./labels";
import {
  DEFAULT_MAX_PROVIDER_LAYERS,
  providerSpecWeight,
  providerSpecReader,
  type ProviderSpecFile,
} from "./provider-metadata";

export { failureDelayMs } from "./image-cache";

export type ResolvedBase =
  | {
      readonly kind: "found";
      readonly config: string;
      readonly digest: string;
      readonly source: "oci-label";
      readonly labelKind: LabelKind;
      readonly version?: string;
    }
  | { readonly kind: "no-labels"; readonly digest: string }
  | { readonly kind: "error"; readonly reason: string; readonly message: string; readonly transient: boolean };

/** An external provider image's metadata file, or why it could not be read. `digest` pins the image the file came from. */
export type ResolvedProviderSpec =
  | { readonly kind: "found"; readonly text: string; readonly layer: string; readonly digest: string }
  | { readonly kind: "missing"; readonly detail: string; readonly digest: string }
  | { readonly kind: "error"; readonly reason: string; readonly message: string; readonly transient: boolean };

export interface BaseConfigResolverOptions extends RegistryClientOptions {
  /** Overall budget of one resolve, retries and waits included; well under Metacontroller's 10 s hook timeout. */
  readonly deadlineMs?: number;
  /** How long a tag → digest answer is trusted. */
  readonly tagTtlMs?: number;
  /**
   * Bytes of what is kept by digest, for base configs and provider metadata each (default: half
   * the "image reads" share of the cache budget each, lib/caches.ts).
   */
  readonly maxBytes?: number;
  /** First failure is remembered this long, doubling per consecutive failure up to failureMaxMs. */
  readonly failureBaseMs?: number;
  readonly failureMaxMs?: number;
  /** How many layers, from the top, are searched for a provider's metadata file. @default 8 */
  readonly maxProviderLayers?: number;
  /** Credentials of the service itself (a mounted dockerconfigjson); a resolve's own lookup is asked first. */
  readonly credentials?: CredentialLookup;
  readonly now?: () => number;
  /** Told how each read was answered (cache, registry, backoff): the hooks' metrics. */
  readonly onRead?: ImageReadObserver;
}

export interface BaseConfigResolver {
  resolve(imageRef: string, credentials?: CredentialLookup): Promise<ResolvedBase>;
  /** Absent on resolvers that cannot read provider images (then external providers cannot be resolved). */
  providerSpec?(imageRef: string, credentials?: CredentialLookup): Promise<ResolvedProviderSpec>;
}

export const RESOLVER_DEFAULTS = Object.freeze({
  deadlineMs: 4000,
  tagTtlMs: 5 * 60_000,
  failureBaseMs: 1000,
  failureMaxMs: 60_000,
});

/** The resolver's two image caches: base configs and provider metadata. */
const IMAGE_CACHES = 2;

/** Strings are UTF-16 in memory; a fixed overhead keeps tiny entries from looking free. */
function weightOf(base: BaseFromImage): number {
  return 512 + (base.kind === "found" ? base.config.length * 2 : 0);
}

function baseOf(read: CachedRead<BaseFromImage>): ResolvedBase {
  if (read.kind === "error") return read;
  const digest = read.image.digest;
  return read.value.kind === "found" ? { ...read.value, digest, source: "oci-label" } : { kind: "no-labels", digest };
}

function providerSpecOf(read: CachedRead<ProviderSpecFile>): ResolvedProviderSpec {
  return read.kind === "error" ? read : { ...read.value, digest: read.image.digest };
}

export function createBaseConfigResolver(options: BaseConfigResolverOptions = {}): BaseConfigResolver {
  const now = options.now ?? Date.now;
  const settings = {
    ...RESOLVER_DEFAULTS,
    maxBytes: cacheBytes("image reads") / IMAGE_CACHES,
    lookupBytes: registryLookupBytes(),
    ...options,
    now,
  };
  const client = createRegistryClient({ ...options, now });
  const bases = createImageCache(client, settings, {
    what: "the base config",
    kind: "base_config",
    read: readBaseFromImage,
    weight: weightOf,
  });
  const maxLayers = options.maxProviderLayers ?? DEFAULT_MAX_PROVIDER_LAYERS;
  const specs = createImageCache(client, settings, {
    what: "the provider metadata",
    kind: "provider_metadata",
    read: providerSpecReader(maxLayers),
    weight: providerSpecWeight,
  });
  return {
    resolve: async (imageRef, credentials) => baseOf(await bases(imageRef, credentials)),
    providerSpec: async (imageRef, credentials) => providerSpecOf(await specs(imageRef, credentials)),
  };
}

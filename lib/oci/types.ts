/**
 * Shared shapes of the registry client. Failures are values (`Result`), never thrown: the
 * hook turns them into status conditions (docs/failure-policy.md), so every one carries a condition reason,
 * a message for humans and whether retrying later without a spec change may help.
 */

/** The four manifest types. distribution 2.8 answers 404 for an OCI manifest unless its type is in Accept. */
export const MEDIA = Object.freeze({
  ociManifest: "application/vnd.oci.image.manifest.v1+json",
  ociIndex: "application/vnd.oci.image.index.v1+json",
  dockerManifest: "application/vnd.docker.distribution.manifest.v2+json",
  dockerList: "application/vnd.docker.distribution.manifest.list.v2+json",
});

export const MANIFEST_ACCEPT = [MEDIA.ociManifest, MEDIA.ociIndex, MEDIA.dockerManifest, MEDIA.dockerList].join(", ");

/** Condition reasons. Stable strings: they end up in `status.conditions[].reason`. */
export const REASON = Object.freeze({
  invalidReference: "InvalidImageReference",
  notAllowed: "RegistryNotAllowed",
  unavailable: "RegistryUnavailable",
  authRequired: "RegistryAuthRequired",
  authFailed: "RegistryAuthFailed",
  notFound: "ImageNotFound",
  registryError: "RegistryError",
  rateLimited: "RegistryRateLimited",
  timeout: "RegistryTimeout",
  invalidImage: "InvalidImage",
  platformNotFound: "PlatformNotFound",
  tooLarge: "ImageContentTooLarge",
  digestMismatch: "DigestMismatch",
  invalidLabel: "InvalidConfigLabel",
  fileNotFound: "ConfigFileNotFound",
  /** An OCI whiteout in the layer deletes the file (or its directory) from the layers below. */
  fileDeleted: "FileDeletedByWhiteout",
});

export type Reason = (typeof REASON)[keyof typeof REASON];

export interface OciFailure {
  readonly reason: Reason;
  /** Never contains a credential, a token or a Secret value. */
  readonly message: string;
  /** True when the same request may succeed later (registry down, rate limit, timeout). */
  readonly transient: boolean;
}

export type Failed = { readonly ok: false; readonly error: OciFailure };
export type Result<T> = { readonly ok: true; readonly value: T } | Failed;

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function fail(reason: Reason, message: string, transient = false): Failed {
  return { ok: false, error: { reason, message, transient } };
}

export interface Platform {
  readonly os: string;
  readonly architecture: string;
  readonly variant?: string;
}

export const DEFAULT_PLATFORM: Platform = Object.freeze({ os: "linux", architecture: "amd64" });

export interface Descriptor {
  readonly mediaType: string;
  readonly digest: string;
  readonly size: number;
  readonly platform?: Platform;
}

export interface ImageManifest {
  readonly kind: "image";
  readonly mediaType: string;
  readonly config: Descriptor;
  readonly layers: readonly Descriptor[];
}

export interface ImageIndex {
  readonly kind: "index";
  readonly mediaType: string;
  readonly manifests: readonly Descriptor[];
}

export type Manifest = ImageManifest | ImageIndex;

/** Upper bounds on what one resolve reads. Defaults in `DEFAULT_LIMITS`. */
export interface Limits {
  /** A manifest or index. The OCI spec asks registries to accept at least 4 MiB. */
  readonly manifestBytes: number;
  /** The image config blob (labels live here; upstream stores whole configs in them). */
  readonly configBytes: number;
  /** The extracted config.yaml, from a layer or a decoded label. */
  readonly fileBytes: number;
  /** The compressed layer named by `io.llamastack.config.layer`; it is read whole to verify its digest. */
  readonly layerBytes: number;
}

export const DEFAULT_LIMITS: Limits = Object.freeze({
  manifestBytes: 4 * 1024 * 1024,
  configBytes: 4 * 1024 * 1024,
  fileBytes: 1024 * 1024,
  layerBytes: 64 * 1024 * 1024,
});

/** Only sha256 is verified; other algorithms are refused rather than trusted unchecked. */
export const SHA256_DIGEST = /^sha256:[a-f0-9]{64}$/;

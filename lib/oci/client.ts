/**
 * The registry client: three kinds of GET (manifest, config blob, one layer), each bounded,
 * verified against its digest and authenticated through the session. Results, never throws.
 */
import { credentialFingerprint, type RegistryCredential } from "./auth";
import { readBounded, registryErrorCode, sha256Digest, verifyDigest, type Bound } from "./body";
import type { Deadline, HttpOptions } from "./http";
import { extractFile } from "./layer";
import { utf8 } from "./labels";
import { parseLabels, parseManifest, selectPlatform } from "./manifest";
import { isInsecure, registryBaseUrl, type HostPolicy, type RegistryRef } from "./reference";
import { createSession, type Session, type SessionContext } from "./session";
import { createRegistryGuard, hopCheck, type RegistryGuard } from "./ssrf";
import {
  DEFAULT_LIMITS,
  DEFAULT_PLATFORM,
  fail,
  MANIFEST_ACCEPT,
  ok,
  REASON,
  type Descriptor,
  type ImageManifest,
  type Limits,
  type Manifest,
  type Platform,
  type Result,
} from "./types";

export interface RegistryClientOptions extends HostPolicy, Partial<HttpOptions> {
  /**
   * Checks every redirect target and token realm before it is contacted (ssrf.ts): share the
   * guard that checks the registries. @default a guard of its own with this policy
   */
  readonly hopGuard?: RegistryGuard;
  /** Which image of an index / manifest list to read. Default linux/amd64. */
  readonly platform?: Platform;
  readonly limits?: Partial<Limits>;
}

/** One resolve's budget and identity. */
export interface Call {
  readonly deadline: Deadline;
  readonly credential?: RegistryCredential;
}

export interface ResolvedImage {
  /** What the reference names: the index digest for a multi-platform image. Pins `image@digest`. */
  readonly digest: string;
  /** The platform image's own manifest digest (equal to `digest` for a single-platform image). */
  readonly manifestDigest: string;
  readonly manifest: ImageManifest;
}

export interface RegistryClient {
  readonly limits: Limits;
  getImage(ref: RegistryRef, call: Call): Promise<Result<ResolvedImage>>;
  getLabels(ref: RegistryRef, image: ResolvedImage, call: Call): Promise<Result<Readonly<Record<string, string>>>>;
  extractFile(ref: RegistryRef, layer: Descriptor, call: Call, wanted: WantedFile): Promise<Result<string>>;
}

/** A file to read out of a layer. */
export interface WantedFile {
  readonly path: string;
  /** Whiteout entries that delete `path` (a `fileDeleted` failure when seen without the file). */
  readonly hiddenBy?: readonly string[];
}

export function httpOptions(options: Partial<HttpOptions>): HttpOptions {
  return {
    requestTimeoutMs: options.requestTimeoutMs ?? 3000,
    maxRetries: options.maxRetries ?? 2,
    retryBaseMs: options.retryBaseMs ?? 100,
    maxRetryDelayMs: options.maxRetryDelayMs ?? 2000,
    now: options.now ?? Date.now,
  };
}

/** One registry and one call: what every GET of a resolve shares. */
interface Target {
  readonly session: Session;
  readonly ref: RegistryRef;
  readonly ctx: SessionContext;
}

/** A GET that must answer 200; anything else becomes a failure that names what was missing. */
async function get200(
  t: Target,
  path: string,
  what: string,
  headers: Record<string, string>,
): Promise<Result<Response>> {
  const { ref, ctx } = t;
  const response = await t.session.get(ref, path, headers, ctx);
  if (!response.ok || response.value.status === 200) return response;
  const { status } = response.value;
  const code = await registryErrorCode(response.value, ctx);
  if (status === 404) return fail(REASON.notFound, `${ref.host}/${ref.repository} has no ${what} (404${code})`);
  if (status === 403)
    return fail(REASON.authFailed, `${ref.host} denied access to the ${what} of ${ref.repository} (403${code})`);
  return fail(REASON.registryError, `${ref.host} answered ${status}${code} for the ${what}`, status >= 500);
}

async function getManifest(
  t: Target,
  reference: string,
  expected: string | undefined,
  limit: number,
): Promise<Result<{ digest: string; manifest: Manifest }>> {
  const what = `manifest ${reference}`;
  const response = await get200(t, `manifests/${reference}`, what, { accept: MANIFEST_ACCEPT });
  if (!response.ok) return response;
  const bytes = await readBounded(response.value, { limit, what }, t.ctx, t.ref.host);
  if (!bytes.ok) return bytes;
  const digest = sha256Digest(bytes.value);
  // A tag names no digest; the registry's Docker-Content-Digest, when sha256, must still agree.
  const header = response.value.headers.get("docker-content-digest");
  const claimed = expected ?? (header?.startsWith("sha256:") ? header : undefined);
  if (claimed !== undefined && claimed !== digest)
    return fail(REASON.digestMismatch, `the ${what} does not match its digest ${claimed} (got ${digest})`, true);
  const manifest = parseManifest(bytes.value, response.value.headers.get("content-type"));
  return manifest.ok ? ok({ digest, manifest: manifest.value }) : manifest;
}

async function getBlob(t: Target, descriptor: Descriptor, { limit, what }: Bound): Promise<Result<Buffer>> {
  if (descriptor.size > limit)
    return fail(REASON.tooLarge, `the ${what} (${descriptor.size} bytes) is larger than the ${limit}-byte limit`);
  const response = await get200(t, `blobs/${descriptor.digest}`, `${what} ${descriptor.digest}`, {});
  if (!response.ok) return response;
  // Read at most the declared size: more than that cannot hash to the digest anyway.
  const bytes = await readBounded(response.value, { limit: descriptor.size, what }, t.ctx, t.ref.host);
  if (!bytes.ok)
    return bytes.error.reason === REASON.tooLarge
      ? fail(REASON.digestMismatch, `the ${what} is longer than its descriptor says`, true)
      : bytes;
  return verifyDigest(bytes.value, descriptor.digest, what);
}

/** The image a reference names; an index is followed to its entry for `platform`. */
async function getImage(t: Target, platform: Platform, limits: Limits): Promise<Result<ResolvedImage>> {
  const top = await getManifest(t, t.ref.reference, t.ref.digest, limits.manifestBytes);
  if (!top.ok) return top;
  if (top.value.manifest.kind === "image")
    return ok({ digest: top.value.digest, manifestDigest: top.value.digest, manifest: top.value.manifest });
  const entry = selectPlatform(top.value.manifest, platform);
  if (!entry.ok) return entry;
  const chosen = await getManifest(t, entry.value.digest, entry.value.digest, limits.manifestBytes);
  if (!chosen.ok) return chosen;
  if (chosen.value.manifest.kind !== "image")
    return fail(REASON.invalidImage, `the index entry ${entry.value.digest} is itself an index`);
  return ok({ digest: top.value.digest, manifestDigest: chosen.value.digest, manifest: chosen.value.manifest });
}

async function getFile(t: Target, layer: Descriptor, wanted: WantedFile, limits: Limits): Promise<Result<string>> {
  if (layer.size > limits.layerBytes)
    return fail(
      REASON.tooLarge,
      `layer ${layer.digest} (${layer.size} bytes) is larger than the ${limits.layerBytes}-byte limit`,
    );
  const response = await get200(t, `blobs/${layer.digest}`, `layer ${layer.digest}`, {});
  if (!response.ok) return response;
  const request = {
    path: wanted.path,
    digest: layer.digest,
    maxFileBytes: limits.fileBytes,
    maxLayerBytes: limits.layerBytes,
    ...(wanted.hiddenBy ? { hiddenBy: wanted.hiddenBy } : {}),
  };
  const file = await extractFile(response.value, request, t.ctx, t.ref.host);
  return file.ok ? utf8(file.value, `${wanted.path} in layer ${layer.digest}`) : file;
}

export function createRegistryClient(options: RegistryClientOptions = {}): RegistryClient {
  const http = httpOptions(options);
  const limits: Limits = { ...DEFAULT_LIMITS, ...options.limits };
  const platform = options.platform ?? DEFAULT_PLATFORM;
  const session = createSession(http.now);
  const checkHop = hopCheck(options.hopGuard ?? createRegistryGuard(options));

  function target(ref: RegistryRef, call: Call): Result<Target> {
    const baseUrl = registryBaseUrl(ref, options);
    if (!baseUrl.ok) return baseUrl;
    const ctx: SessionContext = {
      deadline: call.deadline,
      http,
      checkHop,
      baseUrl: baseUrl.value,
      insecure: isInsecure(ref.host, options),
      credential: call.credential,
      fingerprint: credentialFingerprint(call.credential),
    };
    return ok({ session, ref, ctx });
  }

  return {
    limits,
    async getImage(ref, call) {
      const t = target(ref, call);
      return t.ok ? getImage(t.value, platform, limits) : t;
    },
    async getLabels(ref, image, call) {
      const t = target(ref, call);
      if (!t.ok) return t;
      const bytes = await getBlob(t.value, image.manifest.config, { limit: limits.configBytes, what: "image config" });
      return bytes.ok ? parseLabels(bytes.value) : bytes;
    },
    async extractFile(ref, layer, call, wanted) {
      const t = target(ref, call);
      return t.ok ? getFile(t.value, layer, wanted, limits) : t;
    },
  };
}

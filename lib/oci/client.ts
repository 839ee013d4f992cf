/**
 * The registry client: three kinds of GET (manifest, config blob, one layer), each bounded,
 * verified against its digest and authenticated through the session. Results, never throws.
 */
import { credentialFingerprint, type RegistryCredential } from "./auth";
import { readBounded, registryErrorCode, sha256Digest, verifyDigest } from "./body";
import type { Deadline, HttpOptions } from "./http";
import { extractFile } from "./layer";
import { utf8 } from "./labels";
import { parseLabels, parseManifest, selectPlatform } from "./manifest";
import { isInsecure, registryBaseUrl, type HostPolicy, type RegistryRef } from "./reference";
import { createSession, type SessionContext } from "./session";
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
  /** `hiddenBy`: whiteout entries that delete `path` (a `fileDeleted` failure when seen without the file). */
  extractFile(
    ref: RegistryRef,
    layer: Descriptor,
    path: string,
    call: Call,
    hiddenBy?: readonly string[],
  ): Promise<Result<string>>;
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

export function createRegistryClient(options: RegistryClientOptions = {}): RegistryClient {
  const http = httpOptions(options);
  const limits: Limits = { ...DEFAULT_LIMITS, ...options.limits };
  const platform = options.platform ?? DEFAULT_PLATFORM;
  const session = createSession(http.now);
  const checkHop = hopCheck(options.hopGuard ?? createRegistryGuard(options));

  function context(ref: RegistryRef, call: Call): Result<SessionContext> {
    const baseUrl = registryBaseUrl(ref, options);
    if (!baseUrl.ok) return baseUrl;
    return ok({
      deadline: call.deadline,
      http,
      checkHop,
      baseUrl: baseUrl.value,
      insecure: isInsecure(ref.host, options),
      credential: call.credential,
      fingerprint: credentialFingerprint(call.credential),
    });
  }

  /** A GET that must answer 200; anything else becomes a failure that names what was missing. */
  async function get200(
    ref: RegistryRef,
    path: string,
    what: string,
    headers: Record<string, string>,
    ctx: SessionContext,
  ): Promise<Result<Response>> {
    const response = await session.get(ref, path, headers, ctx);
    if (!response.ok || response.value.status === 200) return response;
    const { status } = response.value;
    const code = await registryErrorCode(response.value, ctx);
    if (status === 404) return fail(REASON.notFound, `${ref.host}/${ref.repository} has no ${what} (404${code})`);
    if (status === 403)
      return fail(REASON.authFailed, `${ref.host} denied access to the ${what} of ${ref.repository} (403${code})`);
    return fail(REASON.registryError, `${ref.host} answered ${status}${code} for the ${what}`, status >= 500);
  }

  async function getManifest(
    ref: RegistryRef,
    reference: string,
    expected: string | undefined,
    ctx: SessionContext,
  ): Promise<Result<{ digest: string; manifest: Manifest }>> {
    const what = `manifest ${reference}`;
    const response = await get200(ref, `manifests/${reference}`, what, { accept: MANIFEST_ACCEPT }, ctx);
    if (!response.ok) return response;
    const bytes = await readBounded(response.value, limits.manifestBytes, what, ctx, ref.host);
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

  async function getBlob(
    ref: RegistryRef,
    descriptor: Descriptor,
    limit: number,
    what: string,
    ctx: SessionContext,
  ): Promise<Result<Buffer>> {
    if (descriptor.size > limit)
      return fail(REASON.tooLarge, `the ${what} (${descriptor.size} bytes) is larger than the ${limit}-byte limit`);
    const response = await get200(ref, `blobs/${descriptor.digest}`, `${what} ${descriptor.digest}`, {}, ctx);
    if (!response.ok) return response;
    // Read at most the declared size: more than that cannot hash to the digest anyway.
    const bytes = await readBounded(response.value, descriptor.size, what, ctx, ref.host);
    if (!bytes.ok)
      return bytes.error.reason === REASON.tooLarge
        ? fail(REASON.digestMismatch, `the ${what} is longer than its descriptor says`, true)
        : bytes;
    return verifyDigest(bytes.value, descriptor.digest, what);
  }

  return {
    limits,

    async getImage(ref, call) {
      const ctx = context(ref, call);
      if (!ctx.ok) return ctx;
      const top = await getManifest(ref, ref.reference, ref.digest, ctx.value);
      if (!top.ok) return top;
      if (top.value.manifest.kind === "image")
        return ok({ digest: top.value.digest, manifestDigest: top.value.digest, manifest: top.value.manifest });
      const entry = selectPlatform(top.value.manifest, platform);
      if (!entry.ok) return entry;
      const chosen = await getManifest(ref, entry.value.digest, entry.value.digest, ctx.value);
      if (!chosen.ok) return chosen;
      if (chosen.value.manifest.kind !== "image")
        return fail(REASON.invalidImage, `the index entry ${entry.value.digest} is itself an index`);
      return ok({ digest: top.value.digest, manifestDigest: chosen.value.digest, manifest: chosen.value.manifest });
    },

    async getLabels(ref, image, call) {
      const ctx = context(ref, call);
      if (!ctx.ok) return ctx;
      const bytes = await getBlob(ref, image.manifest.config, limits.configBytes, "image config", ctx.value);
      return bytes.ok ? parseLabels(bytes.value) : bytes;
    },

    async extractFile(ref, layer, path, call, hiddenBy) {
      const ctx = context(ref, call);
      if (!ctx.ok) return ctx;
      if (layer.size > limits.layerBytes)
        return fail(
          REASON.tooLarge,
          `layer ${layer.digest} (${layer.size} bytes) is larger than the ${limits.layerBytes}-byte limit`,
        );
      const response = await get200(ref, `blobs/${layer.digest}`, `layer ${layer.digest}`, {}, ctx.value);
      if (!response.ok) return response;
      const request = {
        path,
        digest: layer.digest,
        maxFileBytes: limits.fileBytes,
        maxLayerBytes: limits.layerBytes,
        ...(hiddenBy ? { hiddenBy } : {}),
      };
      const file = await extractFile(response.value, request, ctx.value, ref.host);
      return file.ok ? utf8(file.value, `${path} in layer ${layer.digest}`) : file;
    },
  };
}

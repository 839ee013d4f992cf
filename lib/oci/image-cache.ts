/**
 * What every image read shares (base configs, provider metadata): tag → digest for a short TTL
 * (a tag may move), digest → what was read in a bounded LRU (content-addressed, so it never
 * goes stale), one shared fetch per image while it is in flight, and failures remembered with
 * exponential backoff so a broken registry is not hammered by every resync. Every key that can
 * reveal an image includes the caller's credential fingerprint: a namespace without the pull
 * secret is never served what another namespace pulled.
 */
import type { LRUCache } from "lru-cache";
import { byteCache, dataBytes, textBytes } from "../caches";
import { lruClock } from "../lru-clock";
import { credentialFingerprint, type CredentialLookup, type RegistryCredential } from "./auth";
import type { Call, RegistryClient, ResolvedImage } from "./client";
import { startDeadline } from "./http";
import { toRegistryRef, type RegistryRef } from "./reference";
import { ok, type OciFailure, type Result } from "./types";

export type CachedRead<T> =
  | { readonly kind: "read"; readonly value: T; readonly image: ResolvedImage }
  | { readonly kind: "error"; readonly reason: string; readonly message: string; readonly transient: boolean };

/** Which image read: an image's base config (labels) or an external provider's metadata file. */
export type ImageReadKind = "base_config" | "provider_metadata";

/**
 * How one read was answered: `cached` (a value kept, no registry call), `shared` (joined a fetch
 * already in flight), `fetched` (from the registry), `failed` (the registry read failed),
 * `backoff` (a failure still in its backoff, no registry call). Reads of an image reference
 * that does not parse are not counted: they reach neither the cache nor the registry.
 */
export type ImageReadResult = "cached" | "shared" | "fetched" | "failed" | "backoff";

/** Told of every counted read (hooks/metrics.ts counts them). */
export type ImageReadObserver = (read: ImageReadKind, result: ImageReadResult) => void;

export interface ImageCacheSettings {
  readonly deadlineMs: number;
  readonly tagTtlMs: number;
  /** What was read, by digest: at most this many bytes (lib/caches.ts). */
  readonly maxBytes: number;
  /** Tag → digest answers, and failures: at most this many bytes each. */
  readonly lookupBytes: number;
  readonly failureBaseMs: number;
  readonly failureMaxMs: number;
  /** Credentials of the service itself; a read's own lookup is asked first. */
  readonly credentials?: CredentialLookup;
  readonly now: () => number;
  readonly onRead?: ImageReadObserver;
}

export interface ImageReader<T> {
  /** `what` names the read in error messages: `Cannot read <what> of image "<ref>": …`. */
  readonly what: string;
  readonly kind: ImageReadKind;
  read(client: RegistryClient, ref: RegistryRef, image: ResolvedImage, call: Call): Promise<Result<T>>;
  /** Bytes the value holds, for the LRU's size bound. */
  weight(value: T): number;
}

export type ImageCache<T> = (imageRef: string, credentials?: CredentialLookup) => Promise<CachedRead<T>>;

export function failureDelayMs(consecutive: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, consecutive - 1));
}

/** Where a read is stored: its cache key, the image as asked for and as parsed, and who asks. */
interface ReadKey {
  readonly key: string;
  readonly imageRef: string;
  readonly ref: RegistryRef;
  readonly credential: RegistryCredential | undefined;
}

function cacheKey(ref: RegistryRef, credential: RegistryCredential | undefined): string {
  return `${ref.registry}/${ref.repository}@${ref.reference}\n${credentialFingerprint(credential)}`;
}

type Failure<T> = { result: CachedRead<T>; until: number; count: number };

/** The caches of one kind of read, each bounded in bytes (absent: 0 bytes, nothing kept); `createImageCache` exposes only `read`. */
class ImageReads<T extends object> {
  readonly refs: LRUCache<string, ResolvedImage> | undefined;
  readonly values: LRUCache<string, T> | undefined;
  // Not a TTL: the consecutive-failure count outlives `until`, so the next failure waits longer.
  readonly failures: LRUCache<string, Failure<T>> | undefined;
  readonly inflight = new Map<string, Promise<CachedRead<T>>>();

  constructor(
    private readonly client: RegistryClient,
    private readonly settings: ImageCacheSettings,
    private readonly reader: ImageReader<T>,
  ) {
    this.refs = byteCache(settings.lookupBytes, {
      sizeOf: (image: ResolvedImage, key: string) => textBytes(key) + dataBytes(image),
      lru: { ttl: settings.tagTtlMs, ...lruClock(settings.now) },
    });
    this.values = byteCache(settings.maxBytes, {
      sizeOf: (value: T, key: string) => textBytes(key) + reader.weight(value),
    });
    this.failures = byteCache(settings.lookupBytes, {
      sizeOf: (failure: Failure<T>, key: string) => textBytes(key) + dataBytes(failure.result),
    });
  }

  read(imageRef: string, credentials?: CredentialLookup): Promise<CachedRead<T>> {
    const ref = toRegistryRef(imageRef);
    if (!ref.ok) return Promise.resolve(this.errorOf(imageRef, ref.error));
    const credential = credentials?.(ref.value.host) ?? this.settings.credentials?.(ref.value.host);
    const key = cacheKey(ref.value, credential);
    const answer = this.known(key);
    if (answer !== undefined)
      return Promise.resolve(this.counted(answer, answer.kind === "read" ? "cached" : "backoff"));
    const pending = this.inflight.get(key);
    if (pending !== undefined) return pending.then((shared) => this.counted(shared, "shared"));
    const flight = this.fetchValue({ key, imageRef, ref: ref.value, credential })
      .then((read) => this.counted(read, read.kind === "read" ? "fetched" : "failed"))
      .finally(() => this.inflight.delete(key));
    this.inflight.set(key, flight);
    return flight;
  }

  private counted(read: CachedRead<T>, result: ImageReadResult): CachedRead<T> {
    this.settings.onRead?.(this.reader.kind, result);
    return read;
  }

  /** A remembered failure still in its backoff, or a value already cached: no registry call. */
  private known(key: string): CachedRead<T> | undefined {
    const failure = this.failures?.get(key);
    if (failure !== undefined && failure.until > this.settings.now()) return failure.result;
    const image = this.refs?.get(key);
    const value = image === undefined ? undefined : this.values?.get(image.manifestDigest);
    return image !== undefined && value !== undefined ? { kind: "read", value, image } : undefined;
  }

  private async fetchValue(k: ReadKey): Promise<CachedRead<T>> {
    const deadline = startDeadline(this.settings.deadlineMs);
    const call = { deadline, ...(k.credential === undefined ? {} : { credential: k.credential }) };
    try {
      const image = await this.imageOf(k, call);
      if (!image.ok) return this.failed(k, image.error);
      const value = await this.valueOf(k, image.value, call);
      if (!value.ok) return this.failed(k, value.error);
      this.failures?.delete(k.key);
      return { kind: "read", value: value.value, image: image.value };
    } finally {
      deadline.dispose();
    }
  }

  private async imageOf(k: ReadKey, call: Call): Promise<Result<ResolvedImage>> {
    const cached = this.refs?.get(k.key);
    if (cached !== undefined) return ok(cached);
    const fetched = await this.client.getImage(k.ref, call);
    if (fetched.ok) this.refs?.set(k.key, fetched.value);
    return fetched;
  }

  private async valueOf(k: ReadKey, image: ResolvedImage, call: Call): Promise<Result<T>> {
    const cached = this.values?.get(image.manifestDigest);
    if (cached !== undefined) return ok(cached);
    const read = await this.reader.read(this.client, k.ref, image, call);
    if (read.ok) this.values?.set(image.manifestDigest, read.value);
    return read;
  }

  private failed({ key, imageRef }: ReadKey, error: OciFailure): CachedRead<T> {
    const count = (this.failures?.get(key)?.count ?? 0) + 1;
    const result = this.errorOf(imageRef, error);
    const { failureBaseMs, failureMaxMs } = this.settings;
    this.failures?.set(key, {
      result,
      count,
      until: this.settings.now() + failureDelayMs(count, failureBaseMs, failureMaxMs),
    });
    return result;
  }

  private errorOf(imageRef: string, error: OciFailure): CachedRead<T> {
    return {
      kind: "error",
      reason: error.reason,
      message: `Cannot read ${this.reader.what} of image "${imageRef}": ${error.message}`,
      transient: error.transient,
    };
  }
}

export function createImageCache<T extends object>(
  client: RegistryClient,
  settings: ImageCacheSettings,
  reader: ImageReader<T>,
): ImageCache<T> {
  const reads = new ImageReads(client, settings, reader);
  return (imageRef, credentials) => reads.read(imageRef, credentials);
}

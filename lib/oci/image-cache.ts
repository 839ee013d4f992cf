/**
 * What every image read shares (base configs, provider metadata): tag → digest for a short TTL
 * (a tag may move), digest → what was read in a bounded LRU (content-addressed, so it never
 * goes stale), one shared fetch per image while it is in flight, and failures remembered with
 * exponential backoff so a broken registry is not hammered by every resync. Every key that can
 * reveal an image includes the caller's credential fingerprint: a namespace without the pull
 * secret is never served what another namespace pulled.
 */
import { LRUCache } from "lru-cache";
import { lruClock } from "../lru-clock";
import { credentialFingerprint, type CredentialLookup, type RegistryCredential } from "./auth";
import type { Call, RegistryClient, ResolvedImage } from "./client";
import { startDeadline } from "./http";
import { toRegistryRef, type RegistryRef } from "./reference";
import type { OciFailure, Result } from "./types";

export type CachedRead<T> =
  | { readonly kind: "read"; readonly value: T; readonly image: ResolvedImage }
  | { readonly kind: "error"; readonly reason: string; readonly message: string; readonly transient: boolean };

export interface ImageCacheSettings {
  readonly deadlineMs: number;
  readonly tagTtlMs: number;
  readonly maxEntries: number;
  readonly maxBytes: number;
  readonly failureBaseMs: number;
  readonly failureMaxMs: number;
  /** Credentials of the service itself; a read's own lookup is asked first. */
  readonly credentials?: CredentialLookup;
  readonly now: () => number;
}

export interface ImageReader<T> {
  /** `what` names the read in error messages: `Cannot read <what> of image "<ref>": …`. */
  readonly what: string;
  read(client: RegistryClient, ref: RegistryRef, image: ResolvedImage, call: Call): Promise<Result<T>>;
  /** Bytes the value holds, for the LRU's size bound. */
  weight(value: T): number;
}

export type ImageCache<T> = (imageRef: string, credentials?: CredentialLookup) => Promise<CachedRead<T>>;

export function failureDelayMs(consecutive: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, consecutive - 1));
}

export function createImageCache<T extends object>(
  client: RegistryClient,
  settings: ImageCacheSettings,
  reader: ImageReader<T>,
): ImageCache<T> {
  const now = settings.now;
  const refs = new LRUCache<string, ResolvedImage>({ max: 4096, ttl: settings.tagTtlMs, ...lruClock(now) });
  // An entry heavier than maxBytes is not kept (lru-cache's maxEntrySize defaults to maxSize).
  const values = new LRUCache<string, T>({
    max: settings.maxEntries,
    maxSize: Math.max(1, Math.floor(settings.maxBytes)),
    sizeCalculation: (v) => Math.max(1, Math.ceil(reader.weight(v))),
  });
  // Not a TTL: the consecutive-failure count outlives `until`, so the next failure waits longer.
  const failures = new LRUCache<string, { result: CachedRead<T>; until: number; count: number }>({ max: 4096 });
  const inflight = new Map<string, Promise<CachedRead<T>>>();

  const errorOf = (imageRef: string, error: OciFailure): CachedRead<T> => ({
    kind: "error",
    reason: error.reason,
    message: `Cannot read ${reader.what} of image "${imageRef}": ${error.message}`,
    transient: error.transient,
  });

  function freshImage(key: string): ResolvedImage | undefined {
    return refs.get(key);
  }

  function failed(key: string, imageRef: string, error: OciFailure): CachedRead<T> {
    const count = (failures.get(key)?.count ?? 0) + 1;
    const result = errorOf(imageRef, error);
    failures.set(key, {
      result,
      count,
      until: now() + failureDelayMs(count, settings.failureBaseMs, settings.failureMaxMs),
    });
    return result;
  }

  async function fetchValue(
    key: string,
    imageRef: string,
    ref: RegistryRef,
    credential: RegistryCredential | undefined,
  ): Promise<CachedRead<T>> {
    const deadline = startDeadline(settings.deadlineMs);
    const call = { deadline, ...(credential === undefined ? {} : { credential }) };
    try {
      let image = freshImage(key);
      if (image === undefined) {
        const fetched = await client.getImage(ref, call);
        if (!fetched.ok) return failed(key, imageRef, fetched.error);
        image = fetched.value;
        refs.set(key, image);
      }
      let value = values.get(image.manifestDigest);
      if (value === undefined) {
        const read = await reader.read(client, ref, image, call);
        if (!read.ok) return failed(key, imageRef, read.error);
        value = read.value;
        values.set(image.manifestDigest, value);
      }
      failures.delete(key);
      return { kind: "read", value, image };
    } finally {
      deadline.dispose();
    }
  }

  return (imageRef, credentials) => {
    const ref = toRegistryRef(imageRef);
    if (!ref.ok) return Promise.resolve(errorOf(imageRef, ref.error));
    const credential = credentials?.(ref.value.host) ?? settings.credentials?.(ref.value.host);
    const key = `${ref.value.registry}/${ref.value.repository}@${ref.value.reference}\n${credentialFingerprint(credential)}`;

    const failure = failures.get(key);
    if (failure !== undefined && failure.until > now()) return Promise.resolve(failure.result);
    const image = freshImage(key);
    const value = image === undefined ? undefined : values.get(image.manifestDigest);
    if (image !== undefined && value !== undefined) return Promise.resolve({ kind: "read", value, image });

    const pending = inflight.get(key);
    if (pending !== undefined) return pending;
    const flight = fetchValue(key, imageRef, ref.value, credential).finally(() => inflight.delete(key));
    inflight.set(key, flight);
    return flight;
  };
}

/**
 * The base-config resolver the sync hook calls: registry client + caches. tag → digest for a
 * short TTL (a tag may move), digest → base config in a bounded LRU (content-addressed, so it
 * never goes stale), one shared fetch per image while it is in flight, and failures remembered
 * with exponential backoff so a broken registry is not hammered by every resync. Every key
 * that can reveal an image includes the caller's credential fingerprint: a namespace without
 * the pull secret is never served what another namespace pulled.
 */
import { credentialFingerprint, type CredentialLookup, type RegistryCredential } from "./auth";
import { readBaseFromImage, type BaseFromImage } from "./base-config";
import { createRegistryClient, type RegistryClientOptions, type ResolvedImage } from "./client";
import { startDeadline } from "./http";
import type { LabelKind } from "./labels";
import { Lru } from "./lru";
import { toRegistryRef, type RegistryRef } from "./reference";
import type { OciFailure } from "./types";

export type ResolvedBase =
  | { readonly kind: "found"; readonly config: string; readonly digest: string; readonly source: "oci-label"; readonly labelKind: LabelKind; readonly version?: string }
  | { readonly kind: "no-labels"; readonly digest: string }
  | { readonly kind: "error"; readonly reason: string; readonly message: string; readonly transient: boolean };

export interface BaseConfigResolverOptions extends RegistryClientOptions {
  /** Overall budget of one resolve, retries and waits included; well under Metacontroller's 10 s hook timeout. */
  readonly deadlineMs?: number;
  /** How long a tag → digest answer is trusted. */
  readonly tagTtlMs?: number;
  /** digest → base config LRU bounds. */
  readonly maxEntries?: number;
  readonly maxBytes?: number;
  /** First failure is remembered this long, doubling per consecutive failure up to failureMaxMs. */
  readonly failureBaseMs?: number;
  readonly failureMaxMs?: number;
  /** Credentials of the service itself (a mounted dockerconfigjson); a resolve's own lookup is asked first. */
  readonly credentials?: CredentialLookup;
  readonly now?: () => number;
}

export interface BaseConfigResolver {
  resolve(imageRef: string, credentials?: CredentialLookup): Promise<ResolvedBase>;
}

export const RESOLVER_DEFAULTS = Object.freeze({
  deadlineMs: 4000, tagTtlMs: 5 * 60_000, maxEntries: 128, maxBytes: 32 * 1024 * 1024, failureBaseMs: 1000, failureMaxMs: 60_000,
});

/** Strings are UTF-16 in memory; a fixed overhead keeps tiny entries from looking free. */
function weightOf(base: BaseFromImage): number {
  return 512 + (base.kind === "found" ? base.config.length * 2 : 0);
}

function withDigest(base: BaseFromImage, digest: string): ResolvedBase {
  return base.kind === "found" ? { ...base, digest, source: "oci-label" } : { kind: "no-labels", digest };
}

function errorOf(imageRef: string, error: OciFailure): ResolvedBase {
  return { kind: "error", reason: error.reason, message: `Cannot read the base config of image "${imageRef}": ${error.message}`, transient: error.transient };
}

export function failureDelayMs(consecutive: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, consecutive - 1));
}

export function createBaseConfigResolver(options: BaseConfigResolverOptions = {}): BaseConfigResolver {
  const settings = { ...RESOLVER_DEFAULTS, ...options };
  const now = options.now ?? Date.now;
  const client = createRegistryClient({ ...options, now });
  const refs = new Lru<string, { image: ResolvedImage; expiresAt: number }>(4096);
  const bases = new Lru<string, BaseFromImage>(settings.maxEntries, settings.maxBytes);
  const failures = new Lru<string, { result: ResolvedBase; until: number; count: number }>(4096);
  const inflight = new Map<string, Promise<ResolvedBase>>();

  function freshImage(key: string): ResolvedImage | undefined {
    const known = refs.get(key);
    return known !== undefined && known.expiresAt > now() ? known.image : undefined;
  }

  function failed(key: string, imageRef: string, error: OciFailure): ResolvedBase {
    const count = (failures.get(key)?.count ?? 0) + 1;
    const result = errorOf(imageRef, error);
    failures.set(key, { result, count, until: now() + failureDelayMs(count, settings.failureBaseMs, settings.failureMaxMs) });
    return result;
  }

  async function fetchBase(key: string, imageRef: string, ref: RegistryRef, credential: RegistryCredential | undefined): Promise<ResolvedBase> {
    const deadline = startDeadline(settings.deadlineMs);
    const call = { deadline, ...(credential === undefined ? {} : { credential }) };
    try {
      let image = freshImage(key);
      if (image === undefined) {
        const fetched = await client.getImage(ref, call);
        if (!fetched.ok) return failed(key, imageRef, fetched.error);
        image = fetched.value;
        refs.set(key, { image, expiresAt: now() + settings.tagTtlMs });
      }
      let base = bases.get(image.manifestDigest);
      if (base === undefined) {
        const read = await readBaseFromImage(client, ref, image, call);
        if (!read.ok) return failed(key, imageRef, read.error);
        base = read.value;
        bases.set(image.manifestDigest, base, weightOf(base));
      }
      failures.delete(key);
      return withDigest(base, image.digest);
    } finally {
      deadline.dispose();
    }
  }

  return {
    resolve(imageRef, credentials) {
      const ref = toRegistryRef(imageRef);
      if (!ref.ok) return Promise.resolve(errorOf(imageRef, ref.error));
      const credential = credentials?.(ref.value.host) ?? options.credentials?.(ref.value.host);
      const key = `${ref.value.registry}/${ref.value.repository}@${ref.value.reference}\n${credentialFingerprint(credential)}`;

      const failure = failures.get(key);
      if (failure !== undefined && failure.until > now()) return Promise.resolve(failure.result);
      const image = freshImage(key);
      const base = image === undefined ? undefined : bases.get(image.manifestDigest);
      if (image !== undefined && base !== undefined) return Promise.resolve(withDigest(base, image.digest));

      const pending = inflight.get(key);
      if (pending !== undefined) return pending;
      const flight = fetchBase(key, imageRef, ref.value, credential).finally(() => inflight.delete(key));
      inflight.set(key, flight);
      return flight;
    },
  };
}

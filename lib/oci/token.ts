/**
 * Bearer tokens from a registry's token service: the realm passes the same policy as the
 * registry, credentials go only to an https realm, and tokens are cached until shortly before
 * they expire.
 */
import { byteCache, registryLookupBytes, textBytes } from "../caches";
import { isPlainObject } from "../json";
import { lruClock } from "../lru-clock";
import { basicAuthorization, type Challenge } from "./auth";
import { readBounded } from "./body";
import { send } from "./http";
import { isForbiddenHost, type RegistryRef } from "./reference";
import type { SessionContext } from "./session-context";
import { fail, ok, REASON, type Result } from "./types";

/** Registries answer `expires_in` in seconds; the token spec's default is 60. */
const DEFAULT_TOKEN_SECONDS = 60;

/** The registry (or its token service) wants credentials and this call has none. */
export function missingCredentials(ref: RegistryRef): Result<never> {
  return fail(
    REASON.authRequired,
    `${ref.host} requires credentials and none were found for it; reference a kubernetes.io/dockerconfigjson Secret that has an entry for "${ref.host}"`,
  );
}

export type BearerChallenge = Challenge & { scheme: "bearer" };

/** Authorization headers by `tokenKey`, each until shortly before its token expires. */
export interface TokenCache {
  get(key: string): string | undefined;
  remember(key: string, authorization: string, expiresInSeconds: number): void;
}

export function tokenCache(now: () => number): TokenCache {
  // Bounded in bytes (lib/caches.ts): a token is as long as the registry makes it.
  const tokens = byteCache<string, string>(registryLookupBytes(), {
    sizeOf: (authorization, key) => textBytes(key) + textBytes(authorization),
    lru: lruClock(now),
  });
  return {
    get: (key) => tokens?.get(key),
    remember(key, authorization, expiresInSeconds) {
      const ttlMs = expiresInSeconds * 1000;
      // Renew a little early so a token never expires between our check and the registry's.
      const ttl = Math.floor(ttlMs - Math.min(10_000, ttlMs / 2));
      if (ttl > 0) tokens?.set(key, authorization, { ttl });
    },
  };
}

export function tokenKey(challenge: BearerChallenge, scope: string, ctx: SessionContext): string {
  return [challenge.realm, challenge.service ?? "", scope, ctx.fingerprint].join("\n");
}

/** The token service's URL, once it passed the same policy as the registry. */
async function realmUrl(ref: RegistryRef, challenge: BearerChallenge, ctx: SessionContext): Promise<Result<URL>> {
  let realm: URL;
  try {
    realm = new URL(challenge.realm);
  } catch {
    return fail(REASON.authFailed, `${ref.host} named a token service that is not a URL`);
  }
  // Basic credentials go to the realm: it must be https, unless the registry itself is a listed plain-http one.
  const schemeOk = realm.protocol === "https:" || (realm.protocol === "http:" && ctx.insecure);
  if (!schemeOk || isForbiddenHost(realm.host))
    return fail(
      REASON.notAllowed,
      `${ref.host} named a token service at ${realm.host} that this service does not contact (https required)`,
    );
  const allowed =
    realm.host === new URL(ctx.baseUrl).host ? ok(undefined) : ((await ctx.checkHop?.(realm)) ?? ok(undefined));
  if (!allowed.ok)
    return fail(
      REASON.notAllowed,
      `${ref.host} named a token service at ${realm.host} that this service does not contact: ${allowed.error.message}`,
    );
  return ok(realm);
}

/** The token service's 200 body; a refusal becomes the failure it means. */
async function requestToken(ref: RegistryRef, realm: URL, ctx: SessionContext): Promise<Result<Buffer>> {
  const headers: Record<string, string> =
    ctx.credential === undefined ? {} : { authorization: basicAuthorization(ctx.credential) };
  const response = await send(realm.href, headers, ctx);
  if (!response.ok) return response;
  const { status } = response.value;
  if (status === 401 || status === 403) {
    await response.value.body?.cancel();
    return ctx.credential === undefined
      ? missingCredentials(ref)
      : fail(REASON.authFailed, `the token service of ${ref.host} rejected the credentials for "${ref.host}"`);
  }
  if (status !== 200) {
    await response.value.body?.cancel();
    return fail(REASON.authFailed, `the token service of ${ref.host} answered ${status}`, status >= 500);
  }
  return readBounded(response.value, { limit: 64 * 1024, what: "token response" }, ctx, realm.host);
}

/** `{token | access_token, expires_in?}` from the token service, checked field by field. */
function parseToken(ref: RegistryRef, body: Buffer): Result<{ token: string; seconds: number }> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString("utf8"));
  } catch {
    return fail(REASON.authFailed, `the token service of ${ref.host} did not answer JSON`);
  }
  const fields = isPlainObject(parsed) ? parsed : {};
  const token = typeof fields.token === "string" && fields.token !== "" ? fields.token : fields.access_token;
  if (typeof token !== "string" || token === "")
    return fail(REASON.authFailed, `the token service of ${ref.host} answered without a token`);
  const expires = fields.expires_in;
  return ok({ token, seconds: typeof expires === "number" && expires > 0 ? expires : DEFAULT_TOKEN_SECONDS });
}

export async function fetchToken(
  ref: RegistryRef,
  challenge: BearerChallenge,
  ctx: SessionContext,
): Promise<Result<{ token: string; seconds: number }>> {
  const realm = await realmUrl(ref, challenge, ctx);
  if (!realm.ok) return realm;
  if (challenge.service !== undefined) realm.value.searchParams.set("service", challenge.service);
  realm.value.searchParams.set("scope", scopeOf(ref));
  const body = await requestToken(ref, realm.value, ctx);
  if (!body.ok) return body;
  return parseToken(ref, body.value);
}

export function scopeOf(ref: RegistryRef): string {
  return `repository:${ref.repository}:pull`;
}

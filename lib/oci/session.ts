/**
 * Authenticated registry GETs. The registry says how to authenticate (a 401 with
 * `WWW-Authenticate`); we remember its challenge per registry and its Bearer tokens per
 * realm/service/scope/credential until they expire, so a warm client sends one request per
 * GET instead of 401 → token → retry every time.
 */
import { byteCache, dataBytes, registryLookupBytes, textBytes } from "../caches";
import { basicAuthorization, parseChallenge, type Challenge } from "./auth";
import { send } from "./http";
import { registryUrl, type RegistryRef } from "./reference";
import type { SessionContext } from "./session-context";
import { fetchToken, missingCredentials, scopeOf, tokenCache, tokenKey } from "./token";
import { fail, ok, REASON, type Result } from "./types";

export type { SessionContext } from "./session-context";

export interface Session {
  get(ref: RegistryRef, path: string, headers: Record<string, string>, ctx: SessionContext): Promise<Result<Response>>;
}

async function attempt(
  url: string,
  headers: Record<string, string>,
  auth: Result<string | undefined>,
  ctx: SessionContext,
): Promise<Result<Response>> {
  if (!auth.ok) return auth;
  return send(url, auth.value === undefined ? headers : { ...headers, authorization: auth.value }, ctx);
}

/** After a second 401/403: no credentials, or ones that do not work here. */
function refused(ref: RegistryRef, ctx: SessionContext): Result<never> {
  if (ctx.credential === undefined) return missingCredentials(ref);
  return fail(
    REASON.authFailed,
    `${ref.host} rejected the credentials for "${ref.host}" or they do not allow pulling ${ref.repository}`,
  );
}

export function createSession(now: () => number): Session {
  // Registries come from user specs: the most recent ones only, bounded in bytes (lib/caches.ts).
  const challenges = byteCache<string, Challenge>(registryLookupBytes(), {
    sizeOf: (challenge, registry) => textBytes(registry) + dataBytes(challenge),
  });
  const tokens = tokenCache(now);

  /** The Authorization header for a request, from what the registry asked for; undefined = anonymous. */
  async function authorize(
    ref: RegistryRef,
    challenge: Challenge | undefined,
    ctx: SessionContext,
    fresh: boolean,
  ): Promise<Result<string | undefined>> {
    if (challenge === undefined) return ok(undefined);
    if (challenge.scheme === "basic")
      return ctx.credential === undefined ? missingCredentials(ref) : ok(basicAuthorization(ctx.credential));
    const key = tokenKey(challenge, scopeOf(ref), ctx);
    const cached = fresh ? undefined : tokens.get(key);
    if (cached !== undefined) return ok(cached);
    const fetched = await fetchToken(ref, challenge, ctx);
    if (!fetched.ok) return fetched;
    const authorization = `Bearer ${fetched.value.token}`;
    tokens.remember(key, authorization, fetched.value.seconds);
    return ok(authorization);
  }

  const known = (ref: RegistryRef): Challenge | undefined => challenges?.get(ref.registry);

  return {
    async get(ref, path, headers, ctx) {
      const url = registryUrl(ctx.baseUrl, ref, path);
      const first = await attempt(url, headers, await authorize(ref, known(ref), ctx, false), ctx);
      if (!first.ok || first.value.status !== 401) return first;
      // Unknown scheme, expired or revoked token: learn the challenge and try once more.
      await first.value.body?.cancel();
      const challenge = parseChallenge(first.value.headers.get("www-authenticate"));
      if (challenge === undefined)
        return fail(
          REASON.authFailed,
          `${ref.host} answered 401 without an authentication challenge this client understands`,
        );
      challenges?.set(ref.registry, challenge); // asked first next time
      const second = await attempt(url, headers, await authorize(ref, challenge, ctx, true), ctx);
      if (!second.ok || (second.value.status !== 401 && second.value.status !== 403)) return second;
      await second.value.body?.cancel();
      return refused(ref, ctx);
    },
  };
}

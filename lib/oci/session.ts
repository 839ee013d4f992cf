/**
 * Authenticated registry GETs. The registry says how to authenticate (a 401 with
 * `WWW-Authenticate`); we remember its challenge per registry and its Bearer tokens per
 * realm/service/scope/credential until they expire, so a warm client sends one request per
 * GET instead of 401 → token → retry every time (research tooling §2).
 */
import { basicAuthorization, parseChallenge, type Challenge, type RegistryCredential } from "./auth";
import { readBounded } from "./body";
import { send, type RequestContext } from "./http";
import { isForbiddenHost, registryUrl, type RegistryRef } from "./reference";
import { fail, ok, REASON, type Result } from "./types";

export interface SessionContext extends RequestContext {
  readonly baseUrl: string;
  /** The registry is on the operator's insecure list: then (only then) a plain-http token realm is accepted. */
  readonly insecure: boolean;
  readonly credential: RegistryCredential | undefined;
  /** credentialFingerprint(credential): token cache keys, never the secret itself. */
  readonly fingerprint: string;
}

/** Registries answer `expires_in` in seconds; the token spec's default is 60. */
const DEFAULT_TOKEN_SECONDS = 60;
const MAX_TOKENS = 256;
const MAX_REGISTRIES = 256;

export interface Session {
  get(ref: RegistryRef, path: string, headers: Record<string, string>, ctx: SessionContext): Promise<Result<Response>>;
}

function missingCredentials(ref: RegistryRef): Result<never> {
  return fail(
    REASON.authRequired,
    `${ref.host} requires credentials and none were found for it; reference a kubernetes.io/dockerconfigjson Secret that has an entry for "${ref.host}"`,
  );
}

export function createSession(now: () => number): Session {
  const challenges = new Map<string, Challenge>();
  const tokens = new Map<string, { authorization: string; expiresAt: number }>();

  function tokenKey(challenge: Challenge & { scheme: "bearer" }, scope: string, ctx: SessionContext): string {
    return [challenge.realm, challenge.service ?? "", scope, ctx.fingerprint].join("\n");
  }

  function remember(key: string, authorization: string, expiresInSeconds: number): void {
    const ttlMs = expiresInSeconds * 1000;
    // Renew a little early so a token never expires between our check and the registry's.
    tokens.set(key, { authorization, expiresAt: now() + ttlMs - Math.min(10_000, ttlMs / 2) });
    for (const [k, t] of tokens) if (tokens.size > MAX_TOKENS || t.expiresAt <= now()) tokens.delete(k);
  }

  async function fetchToken(
    ref: RegistryRef,
    challenge: Challenge & { scheme: "bearer" },
    scope: string,
    ctx: SessionContext,
  ): Promise<Result<string>> {
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
    if (challenge.service !== undefined) realm.searchParams.set("service", challenge.service);
    realm.searchParams.set("scope", scope);
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
    const body = await readBounded(response.value, 64 * 1024, "token response", ctx, realm.host);
    if (!body.ok) return body;
    let parsed: { token?: unknown; access_token?: unknown; expires_in?: unknown };
    try {
      parsed = JSON.parse(body.value.toString("utf8")) as typeof parsed;
    } catch {
      return fail(REASON.authFailed, `the token service of ${ref.host} did not answer JSON`);
    }
    const token = typeof parsed.token === "string" && parsed.token !== "" ? parsed.token : parsed.access_token;
    if (typeof token !== "string" || token === "")
      return fail(REASON.authFailed, `the token service of ${ref.host} answered without a token`);
    const seconds =
      typeof parsed.expires_in === "number" && parsed.expires_in > 0 ? parsed.expires_in : DEFAULT_TOKEN_SECONDS;
    const authorization = `Bearer ${token}`;
    remember(tokenKey(challenge, scope, ctx), authorization, seconds);
    return ok(authorization);
  }

  /** The Authorization header for a request, from what the registry asked for before; undefined = anonymous. */
  async function authorize(ref: RegistryRef, ctx: SessionContext, fresh: boolean): Promise<Result<string | undefined>> {
    const challenge = challenges.get(ref.registry);
    if (challenge === undefined) return ok(undefined);
    if (challenge.scheme === "basic")
      return ctx.credential === undefined ? missingCredentials(ref) : ok(basicAuthorization(ctx.credential));
    const scope = `repository:${ref.repository}:pull`;
    const cached = tokens.get(tokenKey(challenge, scope, ctx));
    if (!fresh && cached !== undefined && cached.expiresAt > now()) return ok(cached.authorization);
    return fetchToken(ref, challenge, scope, ctx);
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

  return {
    async get(ref, path, headers, ctx) {
      const url = registryUrl(ctx.baseUrl, ref, path);
      const first = await attempt(url, headers, await authorize(ref, ctx, false), ctx);
      if (!first.ok || first.value.status !== 401) return first;
      // Unknown scheme, expired or revoked token: learn the challenge and try once more.
      await first.value.body?.cancel();
      const challenge = parseChallenge(first.value.headers.get("www-authenticate"));
      if (challenge === undefined)
        return fail(
          REASON.authFailed,
          `${ref.host} answered 401 without an authentication challenge this client understands`,
        );
      challenges.delete(ref.registry);
      challenges.set(ref.registry, challenge);
      // Registries come from user specs: keep the most recent ones only.
      for (const oldest of challenges.keys()) if (challenges.size > MAX_REGISTRIES) challenges.delete(oldest);
      const second = await attempt(url, headers, await authorize(ref, ctx, true), ctx);
      if (!second.ok || (second.value.status !== 401 && second.value.status !== 403)) return second;
      await second.value.body?.cancel();
      if (ctx.credential === undefined) return missingCredentials(ref);
      return fail(
        REASON.authFailed,
        `${ref.host} rejected the credentials for "${ref.host}" or they do not allow pulling ${ref.repository}`,
      );
    },
  };
}

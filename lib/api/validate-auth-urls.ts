/**
 * The URLs `spec.auth` makes the server call carry secrets: callers' tokens (the Kubernetes API
 * server, the introspection URL, a custom endpoint), the introspection client secret, and the
 * signing keys every token is checked against (JWKS: whoever can rewrite them can mint tokens).
 * A plain `http://` URL sends them in clear text, so it is refused unless the spec says
 * `allowInsecureHttp: true` next to it. A loopback host is no exception: it is the server pod's
 * own loopback, which the hooks know nothing of. `issuer` is no URL the server calls (it only
 * compares it with each token's `iss`), so any scheme is fine there.
 */
import { child, fieldError, type FieldError } from "../errors";
import type { AuthInput, PlainHttpConsent } from "./auth-types";
import { AUTH_PATH } from "./normalize-auth";

interface AuthUrl {
  /** Path under spec.auth of the object holding the URL (and allowInsecureHttp). */
  readonly at: string;
  readonly key: string;
  readonly read: (auth: AuthInput) => (PlainHttpConsent & { readonly url?: string }) | undefined;
  /** What would travel in clear text. */
  readonly carries: string;
}

const URLS: readonly AuthUrl[] = [
  {
    at: "kubernetes",
    key: "apiServerUrl",
    read: (a) => a.kubernetes && { ...a.kubernetes, url: a.kubernetes.apiServerUrl },
    carries: "every caller's token",
  },
  {
    at: "oidc.jwks",
    key: "uri",
    read: (a) => a.oidc?.jwks && { ...a.oidc.jwks, url: a.oidc.jwks.uri },
    carries: "the signing keys, which anyone on the path could replace to mint tokens the server accepts",
  },
  {
    at: "oidc.introspection",
    key: "url",
    read: (a) => a.oidc?.introspection,
    carries: "every caller's token and the client secret",
  },
  {
    at: "custom",
    key: "endpoint",
    read: (a) => a.custom && { ...a.custom, url: a.custom.endpoint },
    carries: "every caller's token",
  },
];

export function isPlainHttp(url: string): boolean {
  return /^http:\/\//i.test(url.trim());
}

/** Every `http://` auth URL without `allowInsecureHttp: true` beside it. */
export function plainHttpAuthErrors(auth: AuthInput): FieldError[] {
  return URLS.flatMap(({ at, key, read, carries }) => {
    const found = read(auth);
    if (found?.url === undefined || !isPlainHttp(found.url) || found.allowInsecureHttp === true) return [];
    const path = child(AUTH_PATH, at);
    return [
      fieldError(
        child(path, key),
        `${found.url} is plain http: ${carries} would cross the network unencrypted; use https://, or, for a network you trust end to end, set ${child(path, "allowInsecureHttp")}: true`,
      ),
    ];
  });
}

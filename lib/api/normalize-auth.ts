/**
 * `spec.auth` in canonical form: the input as written (the rules pass through to the server),
 * which providers are set, and the introspection client secret as a SecretRef with its path.
 */
import { AUTH_PROVIDERS, type AuthInput } from "./auth-types";
import type { Auth } from "./canonical";
import { toSecretRef } from "./normalize-providers";

export const AUTH_PATH = "spec.auth";
export const CLIENT_SECRET_PATH = `${AUTH_PATH}.oidc.introspection.clientSecret`;

export function normalizeAuth(input: AuthInput): Auth {
  const providers = AUTH_PROVIDERS.filter((name) => input[name] !== undefined);
  const secret = input.oidc?.introspection?.clientSecret;
  return secret ? { input, providers, clientSecret: toSecretRef(secret, CLIENT_SECRET_PATH) } : { input, providers };
}

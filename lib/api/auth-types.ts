/**
 * `spec.auth`: who may call the server (docs/auth.md). One provider at a time, plus the
 * server's own access rules (`accessPolicy`, `routePolicy`, written exactly as its config takes
 * them) and tenancy. Mapped to `server.auth` / `server.tenancy` by lib/config/auth.ts.
 */
import type { SecretRefInput } from "./secret-ref-input";

/** Claim (or user-info field) → attribute name the access rules test (`groups: roles`). */
export type ClaimsMapping = { readonly [claim: string]: string };

/**
 * Set next to an auth URL to let it be plain `http://`: tokens (and the introspection client
 * secret) then travel unencrypted, so the hooks refuse such a URL unless this says so.
 */
export interface PlainHttpConsent {
  /** @default false */
  readonly allowInsecureHttp?: boolean;
}

export interface KubernetesAuthInput extends PlainHttpConsent {
  /** @default https://kubernetes.default.svc */
  readonly apiServerUrl?: string;
  readonly claimsMapping?: ClaimsMapping;
  /** User-info field whose value is the caller's tenant (OGX 1.3+). */
  readonly tenantClaim?: string;
}

export interface OidcIntrospectionInput extends PlainHttpConsent {
  readonly url: string;
  readonly clientId: string;
  /** Reaches the server through an environment variable, never the ConfigMap. */
  readonly clientSecret: SecretRefInput;
  /** @default false (HTTP basic auth) */
  readonly sendSecretInBody?: boolean;
}

export interface OidcAuthInput {
  readonly issuer?: string;
  /** @default the server's (`ogx`; `llama-stack` on 0.7) */
  readonly audience?: string;
  readonly jwks?: { readonly uri: string; readonly keyRecheckPeriodSeconds?: number } & PlainHttpConsent;
  readonly introspection?: OidcIntrospectionInput;
  readonly claimsMapping?: ClaimsMapping;
  /** Token claim whose value is the caller's tenant (OGX 1.3+). */
  readonly tenantClaim?: string;
}

export interface UpstreamHeaderAuthInput {
  readonly principalHeader: string;
  /** A header with a JSON object of attribute lists. */
  readonly attributesHeader?: string;
  /** Header name → attribute name (OGX 1.3+). */
  readonly attributeHeaders?: { readonly [header: string]: string };
  /** A header with the caller's tenant (OGX 1.3+). */
  readonly tenantHeader?: string;
}

export interface CustomAuthInput extends PlainHttpConsent {
  readonly endpoint: string;
  /** Field of the endpoint's answer that holds the caller's tenant (OGX 1.3+). */
  readonly tenantField?: string;
}

export type AuthAction = "create" | "read" | "update" | "delete";

/** One rule of `access_policy`, in the server's format. */
export interface AccessRuleInput {
  readonly permit?: AccessScopeInput;
  readonly forbid?: AccessScopeInput;
  readonly when?: string | readonly string[];
  readonly unless?: string | readonly string[];
  readonly description?: string;
}
export interface AccessScopeInput {
  readonly principal?: string;
  readonly actions: AuthAction | readonly AuthAction[];
  readonly resource?: string;
}

/** One rule of `route_policy`, in the server's format. */
export interface RouteRuleInput {
  readonly permit?: { readonly paths: string | readonly string[] };
  readonly forbid?: { readonly paths: string | readonly string[] };
  readonly when?: string | readonly string[];
  readonly unless?: string | readonly string[];
  readonly description?: string;
}

export interface TenancyInput {
  readonly mode: "disabled" | "single" | "multi";
  /** Required for `single`. */
  readonly defaultTenantId?: string;
}

export interface AuthInput {
  readonly kubernetes?: KubernetesAuthInput;
  readonly oidc?: OidcAuthInput;
  readonly upstreamHeader?: UpstreamHeaderAuthInput;
  readonly custom?: CustomAuthInput;
  readonly accessPolicy?: readonly AccessRuleInput[];
  readonly routePolicy?: readonly RouteRuleInput[];
  readonly tenancy?: TenancyInput;
}

/** The provider fields, in the order the docs list them: exactly one is set. */
export const AUTH_PROVIDERS = ["kubernetes", "oidc", "upstreamHeader", "custom"] as const;
export type AuthProviderName = (typeof AUTH_PROVIDERS)[number];

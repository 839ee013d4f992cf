/**
 * `spec.auth` → the server's `server.auth` and `server.tenancy` (docs/auth.md), in the shape
 * the line's config classes read (`AuthenticationConfig`, `TenancyConfig`). The introspection
 * client secret reaches the server through an environment variable only. Unset, nothing here
 * touches the config.
 */
import type { AuthInput, KubernetesAuthInput, OidcAuthInput } from "../api/auth-types";
import type { CanonicalSpec } from "../api/canonical";
import { HEALTH_PATH, SECRET_ENV_PREFIX } from "../defaults";
import type { Release } from "../distributions/table";
import type { FieldError } from "../errors";
import { VERSION_PATH } from "../live/server-info";
import { authLineErrors } from "../api/auth-lines";
import { isJsonScalar, type ConfigDoc } from "./doc";
import { type Json, type JsonMap } from "../json";
import { isPlainRecord } from "../json-copy";
import { envRef } from "../env-names";
import type { SecretEnv } from "./providers";

/** The API server as every pod reaches it, and the CA that signs its certificate (mounted with the ServiceAccount token). */
export const IN_CLUSTER_API_SERVER = "https://kubernetes.default.svc";
export const SERVICE_ACCOUNT_CA = "/var/run/secrets/kubernetes.io/serviceaccount/ca.crt";
export const CLIENT_SECRET_ENV = `${SECRET_ENV_PREFIX}_AUTH_OIDC_CLIENT_SECRET`;
/**
 * Routes the server serves without a token (PUBLIC_ROUTE_KEY at 0.7.3, 0.8.0 and 1.3.0). Its
 * route_policy has no such exemption, so a policy gets a first rule permitting them: the
 * probes and the live status keep working.
 */
export const OPEN_ROUTES: readonly string[] = [HEALTH_PATH, VERSION_PATH];

export interface AuthOutcome {
  readonly errors: readonly FieldError[];
  readonly env: readonly SecretEnv[];
  readonly notes: readonly string[];
}

/** Optional keys: only those the user set, so the server's defaults stay the server's. */
function defined(entries: readonly (readonly [string, Json | undefined])[]): JsonMap {
  const out: JsonMap = {};
  for (const [key, value] of entries) if (value !== undefined) out[key] = value;
  return out;
}

/** The kubernetes provider reads the ServiceAccount CA (the pod must mount it: lib/children/pod.ts). */
export function readsServiceAccountCa(spec: CanonicalSpec): boolean {
  const k = spec.auth?.input.kubernetes;
  return k !== undefined && (k.apiServerUrl ?? IN_CLUSTER_API_SERVER) === IN_CLUSTER_API_SERVER;
}

/** The kubernetes provider checks the in-cluster API server with the pod's CA; another URL uses the system CAs. */
function kubernetes(k: KubernetesAuthInput): JsonMap {
  const url = k.apiServerUrl ?? IN_CLUSTER_API_SERVER;
  return defined([
    ["type", "kubernetes"],
    ["api_server_url", url],
    ["tls_cafile", url === IN_CLUSTER_API_SERVER ? SERVICE_ACCOUNT_CA : undefined],
    ["claims_mapping", k.claimsMapping],
    ["tenant_claim", k.tenantClaim],
  ]);
}

function oidc(o: OidcAuthInput): JsonMap {
  const i = o.introspection;
  return defined([
    ["type", "oauth2_token"],
    ["issuer", o.issuer],
    ["audience", o.audience],
    [
      "jwks",
      o.jwks &&
        defined([
          ["uri", o.jwks.uri],
          ["key_recheck_period", o.jwks.keyRecheckPeriodSeconds],
        ]),
    ],
    [
      "introspection",
      i &&
        defined([
          ["url", i.url],
          ["client_id", i.clientId],
          ["client_secret", envRef(CLIENT_SECRET_ENV)],
          ["send_secret_in_body", i.sendSecretInBody],
        ]),
    ],
    ["claims_mapping", o.claimsMapping],
    ["tenant_claim", o.tenantClaim],
  ]);
}

function providerConfig(auth: AuthInput): JsonMap | undefined {
  if (auth.kubernetes) return kubernetes(auth.kubernetes);
  if (auth.oidc) return oidc(auth.oidc);
  const h = auth.upstreamHeader;
  if (h)
    return defined([
      ["type", "upstream_header"],
      ["principal_header", h.principalHeader],
      ["attributes_header", h.attributesHeader],
      ["attribute_headers", h.attributeHeaders],
      ["tenant_header", h.tenantHeader],
    ]);
  const c = auth.custom;
  return (
    c &&
    defined([
      ["type", "custom"],
      ["endpoint", c.endpoint],
      ["tenant_field", c.tenantField],
    ])
  );
}

/** Plain data as config JSON (the rules pass through as written: the schema lets only the server's keys in). */
function toJson(value: unknown): Json {
  if (Array.isArray(value)) return value.map(toJson);
  if (isPlainRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJson(v)]));
  return isJsonScalar(value) ? value : null;
}

function rules(list: readonly object[] | undefined): Json[] | undefined {
  return list && list.length > 0 ? list.map(toJson) : undefined;
}

const OPEN_ROUTES_RULE: JsonMap = {
  permit: { paths: [...OPEN_ROUTES] },
  description: "added by llsd-hooks: health and version stay open for probes and status, as without a route policy",
};

function authSection(auth: AuthInput): JsonMap {
  const routes = rules(auth.routePolicy);
  return defined([
    ["provider_config", providerConfig(auth)],
    ["route_policy", routes && [structuredClone(OPEN_ROUTES_RULE), ...routes]],
    ["access_policy", rules(auth.accessPolicy)],
  ]);
}

/** Writes `server.auth` (and `server.tenancy`) into `doc.server`; call after the server section is built. */
export function applyAuth(doc: ConfigDoc, spec: CanonicalSpec, release: Release): AuthOutcome {
  const auth = spec.auth;
  if (!auth) return { errors: [], env: [], notes: [] };
  const errors = authLineErrors(spec, release);
  const server: JsonMap = { ...(doc.server ?? {}), auth: authSection(auth.input) };
  const tenancy = auth.input.tenancy;
  if (tenancy)
    server.tenancy = defined([
      ["mode", tenancy.mode],
      ["default_tenant_id", tenancy.defaultTenantId],
    ]);
  doc.server = server;
  const secret = auth.clientSecret;
  const env = secret
    ? [{ name: CLIENT_SECRET_ENV, secretName: secret.name, secretKey: secret.key, path: secret.path }]
    : [];
  const notes = auth.input.routePolicy?.length
    ? [
        `spec.auth.routePolicy: a first rule permits ${OPEN_ROUTES.join(" and ")} to everyone (the server serves them without a token; probes and the live status use them)`,
      ]
    : [];
  return { errors, env, notes };
}

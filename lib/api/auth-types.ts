/**
 * `spec.auth`: who may call the server (docs/auth.md), its schema and types. One provider at a
 * time, plus the server's own access rules (`accessPolicy`, `routePolicy`: its `AccessRule` and
 * `RouteAccessRule`, field for field) and tenancy. What their strings may say (conditions,
 * actions per line) is checked by validate-auth.ts; lib/config/auth.ts maps them to
 * `server.auth` / `server.tenancy`.
 */
import { Type } from "@sinclair/typebox";
import { bool, int, list, mapOf, obj, oneOfStrings, oneOrList, str, type TypeOf } from "./schema-parts";
import { secretRef } from "./secret-ref-input";

const ACTIONS = ["create", "read", "update", "delete"] as const;

const claimsMapping = mapOf(
  "Claim (or user-info field) → attribute name the access rules test, e.g. `groups: roles`; a dotted claim walks nested objects. Absent: the server's default mapping.",
  Type.String({ minLength: 1 }),
);

const conditions = (word: string) =>
  oneOrList(
    `Condition(s) ${word} which the rule applies, all of them: \`user with <value> in <attribute>\`, \`user with <value> not in <attribute>\`, \`user is owner\`, \`user is not owner\`, \`user in owners <attribute>\`, \`user not in owners <attribute>\`, \`resource is unowned\`.`,
    Type.String({ minLength: 1 }),
  );

const ruleTail = {
  when: conditions("under"),
  unless: conditions("except under"),
  description: str("What the rule is for (the server logs it with each decision)."),
};

const accessScope = obj(
  "What the rule covers.",
  {
    principal: str("The one caller it applies to; absent: everyone."),
    actions: oneOrList("Action(s): `create`, `read`, `update`, `delete`.", oneOfStrings(ACTIONS)),
    resource: str("`<type>::<id>`, `<type>::*` or `regex:<pattern>` (e.g. `model::*`); absent: every resource."),
  },
  ["actions"],
);

const routeScope = obj(
  "The routes the rule covers.",
  {
    paths: oneOrList(
      "Route(s): an exact path (`/v1/chat/completions`), a prefix ending in `*` (`/v1/files*`), `*`, or `regex:<pattern>`.",
      Type.String({ minLength: 1 }),
    ),
  },
  ["paths"],
);

const accessRule = obj("One rule, in the server's `access_policy` format: `permit` or `forbid`.", {
  permit: accessScope,
  forbid: accessScope,
  ...ruleTail,
});

const routeRule = obj("One rule, in the server's `route_policy` format: `permit` or `forbid`.", {
  permit: routeScope,
  forbid: routeScope,
  ...ruleTail,
});

/** Next to each URL the server calls: the one way to let it be plain `http://` (validate-auth-urls.ts). */
const allowInsecureHttp = (url: string, what: string) =>
  bool(
    `\`true\` lets ${url} be plain \`http://\`: ${what} then cross the network unencrypted. Without it an \`http://\` URL is refused.`,
  );

const tenantOf = (what: string) => str(`${what} whose value is the caller's tenant (OGX 1.3+).`, { minLength: 1 });

const kubernetesSchema = obj(
  "Callers send a Kubernetes token (a ServiceAccount's, or a user's); the server asks the API server who it is (SelfSubjectReview). Needs no settings in-cluster.",
  {
    apiServerUrl: str(
      "API server URL. Defaults to `https://kubernetes.default.svc`, checked with the pod's ServiceAccount CA.",
      {
        minLength: 1,
        pattern: "^https?://[^/\\s]+",
      },
    ),
    allowInsecureHttp: allowInsecureHttp("apiServerUrl", "callers' tokens"),
    claimsMapping,
    tenantClaim: tenantOf("User-info field"),
  },
);

const upstreamHeaderSchema = obj(
  "A gateway in front authenticates callers and passes who they are in headers; the server trusts them, so only the gateway may reach it (networking.allowedFrom).",
  {
    principalHeader: str("Header with the caller's name, e.g. `x-auth-user`.", { minLength: 1 }),
    attributesHeader: str('Header with a JSON object of attribute lists, e.g. `{"roles": ["admin"]}`.', {
      minLength: 1,
    }),
    attributeHeaders: mapOf(
      "Header name → attribute name, each header a JSON list or one value (OGX 1.3+).",
      Type.String({ minLength: 1 }),
    ),
    tenantHeader: tenantOf("Header"),
  },
  ["principalHeader"],
);

const customSchema = obj(
  "Callers send a token your endpoint checks: the server POSTs it there and reads the attributes from the answer.",
  {
    endpoint: str("URL of your authentication endpoint.", { minLength: 1 }),
    allowInsecureHttp: allowInsecureHttp("endpoint", "callers' tokens"),
    tenantField: tenantOf("Field of the endpoint's answer"),
  },
  ["endpoint"],
);

const tenancySchema = obj(
  "Tenant isolation (`server.tenancy`, OGX 1.3+).",
  {
    mode: str("`single`: every caller is `defaultTenantId`; `multi`: the provider's tenant source says (required).", {
      enum: ["disabled", "single", "multi"],
    }),
    defaultTenantId: str("The tenant of `single` mode.", { pattern: "^[a-z0-9][a-z0-9-_]{0,127}$" }),
  },
  ["mode"],
);

const oidcSchema = obj(
  "Callers send an OIDC/OAuth2 access token, checked against the provider's keys (`jwks`) or by its introspection endpoint (one of them).",
  {
    issuer: str("Issuer URL; tokens from another issuer are refused.", { minLength: 1 }),
    audience: str("Audience tokens must carry. Defaults to the server's (`ogx`; `llama-stack` on 0.7).", {
      minLength: 1,
    }),
    jwks: obj(
      "Where the signing keys are.",
      {
        uri: str("JWKS URL, e.g. `https://idp.example.com/realms/ai/protocol/openid-connect/certs`.", {
          minLength: 1,
        }),
        keyRecheckPeriodSeconds: int("How often the keys are read again. Defaults to 3600.", { minimum: 1 }),
        allowInsecureHttp: allowInsecureHttp("uri", "the signing keys (which anyone on the path could replace)"),
      },
      ["uri"],
    ),
    introspection: obj(
      "RFC 7662 token introspection.",
      {
        url: str("Introspection endpoint URL.", { minLength: 1 }),
        clientId: str("Client id the server introspects as.", { minLength: 1 }),
        clientSecret: secretRef("Client secret, a Secret key; reaches the server as an environment variable."),
        sendSecretInBody: bool("Send the client credentials in the form body instead of HTTP basic auth."),
        allowInsecureHttp: allowInsecureHttp("url", "callers' tokens and the client secret"),
      },
      ["url", "clientId", "clientSecret"],
    ),
    claimsMapping,
    tenantClaim: tenantOf("Token claim"),
  },
);

export const AUTH_SCHEMA = obj(
  "Who may call the server: exactly one of `kubernetes`, `oidc`, `upstreamHeader`, `custom`, plus optional access rules and tenancy (docs/auth.md). `/v1/health` and `/v1/version` stay open, as the server leaves them.",
  {
    kubernetes: kubernetesSchema,
    oidc: oidcSchema,
    upstreamHeader: upstreamHeaderSchema,
    custom: customSchema,
    accessPolicy: list("Rules on resources (`access_policy`), first match wins.", accessRule),
    routePolicy: list(
      "Rules on routes (`route_policy`), first match wins; a route no rule permits is refused.",
      routeRule,
    ),
    tenancy: tenancySchema,
  },
);

export type AuthInput = TypeOf<typeof AUTH_SCHEMA>;
export type KubernetesAuthInput = TypeOf<typeof kubernetesSchema>;
export type OidcAuthInput = TypeOf<typeof oidcSchema>;
/** One rule of `access_policy`, in the server's format. */
export type AccessRuleInput = TypeOf<typeof accessRule>;
/** One rule of `route_policy`, in the server's format. */
export type RouteRuleInput = TypeOf<typeof routeRule>;
export type TenancyInput = TypeOf<typeof tenancySchema>;
/**
 * Set next to an auth URL to let it be plain `http://`: tokens (and the introspection client
 * secret) then travel unencrypted, so the hooks refuse such a URL unless this says so.
 */
export type PlainHttpConsent = Pick<KubernetesAuthInput, "allowInsecureHttp">;

/** The provider fields, in the order the docs list them: exactly one is set. */
export const AUTH_PROVIDERS = ["kubernetes", "oidc", "upstreamHeader", "custom"] as const;
export type AuthProviderName = (typeof AUTH_PROVIDERS)[number];

/**
 * JSON Schema of `spec.auth` (docs/auth.md). The rules of `accessPolicy` and `routePolicy` are
 * the server's own format (its `AccessRule` and `RouteAccessRule`), field for field; what their
 * strings may say (conditions, actions per line) is checked by validate-auth.ts.
 */
import { bool, int, obj, str, type Schema } from "./schema-parts";

const ACTIONS = ["create", "read", "update", "delete"];

function oneOrMany(description: string, item: Schema): Schema {
  return { description, oneOf: [item, { type: "array", minItems: 1, items: item }] };
}

const claimsMapping: Schema = {
  type: "object",
  description:
    "Claim (or user-info field) → attribute name the access rules test, e.g. `groups: roles`; a dotted claim walks nested objects. Absent: the server's default mapping.",
  additionalProperties: { type: "string", minLength: 1 },
};

const conditions = (word: string): Schema =>
  oneOrMany(
    `Condition(s) ${word} which the rule applies, all of them: \`user with <value> in <attribute>\`, \`user with <value> not in <attribute>\`, \`user is owner\`, \`user is not owner\`, \`user in owners <attribute>\`, \`user not in owners <attribute>\`, \`resource is unowned\`.`,
    { type: "string", minLength: 1 },
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
    actions: oneOrMany("Action(s): `create`, `read`, `update`, `delete`.", { type: "string", enum: ACTIONS }),
    resource: str("`<type>::<id>`, `<type>::*` or `regex:<pattern>` (e.g. `model::*`); absent: every resource."),
  },
  ["actions"],
);

const routeScope = obj(
  "The routes the rule covers.",
  {
    paths: oneOrMany(
      "Route(s): an exact path (`/v1/chat/completions`), a prefix ending in `*` (`/v1/files*`), `*`, or `regex:<pattern>`.",
      { type: "string", minLength: 1 },
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
const allowInsecureHttp = (url: string, what: string): Schema =>
  bool(
    `\`true\` lets ${url} be plain \`http://\`: ${what} then cross the network unencrypted. Without it an \`http://\` URL is refused.`,
  );

const tenantOf = (what: string): Schema =>
  str(`${what} whose value is the caller's tenant (OGX 1.3+).`, { minLength: 1 });

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
    attributeHeaders: {
      type: "object",
      description: "Header name → attribute name, each header a JSON list or one value (OGX 1.3+).",
      additionalProperties: { type: "string", minLength: 1 },
    },
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

function oidcSchema(secretRef: (description: string) => Schema): Schema {
  return obj(
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
}

/** `secretRef` comes from the spec schema (a parameter, not an import: that module imports this one). */
export function authSchema(secretRef: (description: string) => Schema): Schema {
  return obj(
    "Who may call the server: exactly one of `kubernetes`, `oidc`, `upstreamHeader`, `custom`, plus optional access rules and tenancy (docs/auth.md). `/v1/health` and `/v1/version` stay open, as the server leaves them.",
    {
      kubernetes: kubernetesSchema,
      oidc: oidcSchema(secretRef),
      upstreamHeader: upstreamHeaderSchema,
      custom: customSchema,
      accessPolicy: {
        type: "array",
        description: "Rules on resources (`access_policy`), first match wins.",
        items: accessRule,
      },
      routePolicy: {
        type: "array",
        description: "Rules on routes (`route_policy`), first match wins; a route no rule permits is refused.",
        items: routeRule,
      },
      tenancy: tenancySchema,
    },
  );
}

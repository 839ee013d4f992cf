/**
 * `spec.auth` rules the schema cannot say (docs/auth.md): exactly one provider, the server's
 * own checks on its rules (permit or forbid, when or unless, conditions it parses), and what
 * tenancy needs, plain-http URLs (validate-auth-urls.ts) and who may reach a server that trusts
 * a gateway's headers (validate-auth-trust.ts). Same checks for `/validate`, `llsd validate` and `/sync`.
 */
import { child, fieldError, type FieldError } from "../errors";
import { AUTH_PROVIDERS, type AccessRuleInput, type AuthInput, type RouteRuleInput } from "./auth-types";
import type { CanonicalSpec } from "./canonical";
import { AUTH_PATH } from "./normalize-auth";
import { upstreamHeaderExposure } from "./validate-auth-trust";
import { plainHttpAuthErrors } from "./validate-auth-urls";

const PROVIDER_LIST = AUTH_PROVIDERS.join(", ");

/** The condition forms the server's `parse_condition` accepts (identical on 0.7.3, 0.8.0 and 1.3.0). */
const CONDITION_FORMS: readonly (readonly string[])[] = [
  ["user", "is", "owner"],
  ["user", "is", "not", "owner"],
  ["user", "with", "*", "in", "*"],
  ["user", "with", "*", "not", "in", "*"],
  ["user", "in", "owners", "*"],
  ["user", "not", "in", "owners", "*"],
  ["resource", "is", "unowned"],
];
const FORMS_TEXT =
  "`user with <value> in <attribute>`, `user with <value> not in <attribute>`, `user is owner`, `user is not owner`, `user in owners <attribute>`, `user not in owners <attribute>` or `resource is unowned`";

/** Split on whitespace, as Python's `str.split()` does. */
function parses(condition: string): boolean {
  const words = condition.split(/\s+/).filter((w) => w !== "");
  return CONDITION_FORMS.some(
    (form) => form.length === words.length && form.every((w, i) => w === "*" || w === words[i]),
  );
}

function conditionErrors(value: string | readonly string[] | undefined, path: string): FieldError[] {
  if (value === undefined) return [];
  const list =
    typeof value === "string" ? [{ text: value, path }] : value.map((text, i) => ({ text, path: child(path, i) }));
  return list
    .filter((c) => !parses(c.text))
    .map((c) => fieldError(c.path, `"${c.text}" is not a condition the server reads: write ${FORMS_TEXT}`));
}

function ruleErrors(rule: AccessRuleInput | RouteRuleInput, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if ((rule.permit === undefined) === (rule.forbid === undefined))
    errors.push(
      fieldError(path, "set exactly one of permit or forbid (the server refuses a rule with neither or both)"),
    );
  if (rule.when !== undefined && rule.unless !== undefined)
    errors.push(fieldError(child(path, "unless"), "set when or unless, not both (the server refuses both)"));
  return errors.concat(
    conditionErrors(rule.when, child(path, "when")),
    conditionErrors(rule.unless, child(path, "unless")),
  );
}

function policyErrors(auth: AuthInput): FieldError[] {
  const access = (auth.accessPolicy ?? []).flatMap((r, i) => ruleErrors(r, child(child(AUTH_PATH, "accessPolicy"), i)));
  const route = (auth.routePolicy ?? []).flatMap((r, i) => ruleErrors(r, child(child(AUTH_PATH, "routePolicy"), i)));
  return access.concat(route);
}

function providerErrors(auth: AuthInput): FieldError[] {
  const set = AUTH_PROVIDERS.filter((name) => auth[name] !== undefined);
  if (set.length === 0)
    return [fieldError(AUTH_PATH, `set one provider: ${PROVIDER_LIST} (docs/auth.md has a recipe for each)`)];
  return set
    .slice(1)
    .map((name) => fieldError(child(AUTH_PATH, name), `one provider at a time: keep ${set[0]} or ${name}, not both`));
}

function oidcErrors(auth: AuthInput): FieldError[] {
  const oidc = auth.oidc;
  if (!oidc || (oidc.jwks === undefined) !== (oidc.introspection === undefined)) return [];
  const path = child(AUTH_PATH, "oidc");
  if (oidc.jwks && oidc.introspection)
    return [fieldError(child(path, "introspection"), "set jwks or introspection, not both (the server takes one)")];
  return [
    fieldError(
      child(path, "jwks"),
      "set jwks.uri (the provider's signing keys, e.g. <issuer>/protocol/openid-connect/certs for Keycloak: the jwks_uri of <issuer>/.well-known/openid-configuration) or introspection; the server reads no discovery document",
    ),
  ];
}

/** Where the provider finds a caller's tenant, if it does. */
function tenantSource(auth: AuthInput): string | undefined {
  return (
    auth.kubernetes?.tenantClaim ??
    auth.oidc?.tenantClaim ??
    auth.upstreamHeader?.tenantHeader ??
    auth.custom?.tenantField
  );
}

function tenancyErrors(auth: AuthInput): FieldError[] {
  const tenancy = auth.tenancy;
  const path = child(AUTH_PATH, "tenancy");
  if (tenancy?.mode === "single" && tenancy.defaultTenantId === undefined)
    return [
      fieldError(child(path, "defaultTenantId"), "required when mode is single: the tenant every caller belongs to"),
    ];
  if (tenancy?.mode === "multi" && tenantSource(auth) === undefined)
    return [
      fieldError(
        child(path, "mode"),
        "multi needs the provider's tenant source (kubernetes.tenantClaim, oidc.tenantClaim, upstreamHeader.tenantHeader or custom.tenantField): without it the server refuses every call",
      ),
    ];
  return [];
}

/** Every `spec.auth` rule that holds on every server line. */
export function authRules(spec: CanonicalSpec): FieldError[] {
  const auth = spec.auth?.input;
  if (!auth) return [];
  const override = spec.overrideConfig
    ? [
        fieldError(
          AUTH_PATH,
          "auth is written into the generated config; with overrideConfig, set server.auth in your ConfigMap instead, or remove overrideConfig",
        ),
      ]
    : [];
  return override.concat(
    providerErrors(auth),
    oidcErrors(auth),
    policyErrors(auth),
    tenancyErrors(auth),
    plainHttpAuthErrors(auth),
    upstreamHeaderExposure(spec),
  );
}

/** Said of every exposed server without an auth provider, generated or mounted as is (lib/config/override-auth.ts). */
export const EXPOSED_WITHOUT_AUTH = "the server is reachable from outside the cluster and asks nobody who they are";

/** An exposed server that asks nobody who they are: a warning, not an error (it ran that way before). */
export function exposedWithoutAuth(spec: CanonicalSpec): FieldError[] {
  if (!spec.networking.expose.enabled || spec.auth !== undefined || spec.overrideConfig) return [];
  return [fieldError("spec.networking.expose", `${EXPOSED_WITHOUT_AUTH}: set spec.auth (docs/auth.md)`)];
}

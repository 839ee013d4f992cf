/**
 * spec.auth's checks, shared by /validate, `llsd validate` and /sync: each refusal names its
 * field path and says what to write instead; the server's own rule checks (permit or forbid,
 * when or unless, the condition forms its parser reads) are made before the server sees them.
 */
import type { AuthInput } from "../../../lib/api/auth-types";
import { validate } from "../../../lib/api/validate";
import type { Release } from "../../../lib/distributions/table";
import { aSpec } from "../../builders";

const jwks = { uri: "https://idp.example.com/certs" };
const withAuth = (auth: AuthInput, extra: object = {}) => aSpec({ auth, ...extra });
/** upstreamHeader needs its gateway named (validate-auth-trust.test.ts). */
const BEHIND_GATEWAY = { networking: { allowedFrom: { namespaces: ["gateway"] } } };
const errorsOf = (spec: object, release?: Release) =>
  validate(spec, release ? { release } : {}).errors.map((e) => `${e.path}: ${e.message}`);

describe("spec.auth: accepted", () => {
  it.each<[string, AuthInput]>([
    ["kubernetes with no settings", { kubernetes: {} }],
    ["oidc with an issuer and jwks", { oidc: { issuer: "https://idp.example.com", audience: "llsd", jwks } }],
    [
      "every condition form",
      {
        kubernetes: {},
        accessPolicy: [
          { permit: { actions: "read" }, when: ["user is owner", "user is not owner", "resource is unowned"] },
          { forbid: { actions: ["delete"] }, unless: ["user with admin in roles", "user with x not in teams"] },
          { permit: { actions: ["read"] }, when: ["user in owners roles", "user not  in owners teams"] },
        ],
        routePolicy: [{ permit: { paths: "*" }, when: "user with dev in roles" }],
      },
    ],
    [
      "multi tenancy with the provider's tenant source",
      { upstreamHeader: { principalHeader: "x-user", tenantHeader: "x-tenant" }, tenancy: { mode: "multi" } },
    ],
  ])("%s", (_name, auth) => {
    expect(errorsOf(withAuth(auth, BEHIND_GATEWAY), "1.3")).toEqual([]);
  });
});

describe("spec.auth: refused, with the path and the fix", () => {
  it.each<[string, object, Release | undefined, string]>([
    [
      "no provider",
      withAuth({ accessPolicy: [] }),
      undefined,
      "spec.auth: set one provider: kubernetes, oidc, upstreamHeader, custom",
    ],
    [
      "two providers",
      withAuth({ kubernetes: {}, custom: { endpoint: "https://a" } }),
      undefined,
      "spec.auth.custom: one provider at a time: keep kubernetes or custom",
    ],
    ["an issuer alone", withAuth({ oidc: { issuer: "https://idp" } }), undefined, "spec.auth.oidc.jwks: set jwks.uri"],
    [
      "jwks and introspection",
      withAuth({
        oidc: { jwks, introspection: { url: "https://i", clientId: "c", clientSecret: { name: "s", key: "k" } } },
      }),
      undefined,
      "spec.auth.oidc.introspection: set jwks or introspection, not both",
    ],
    [
      "a rule with neither permit nor forbid",
      withAuth({ kubernetes: {}, accessPolicy: [{ when: "user is owner" }] }),
      undefined,
      "spec.auth.accessPolicy[0]: set exactly one of permit or forbid",
    ],
    [
      "a rule with permit and forbid",
      withAuth({ kubernetes: {}, routePolicy: [{ permit: { paths: "*" }, forbid: { paths: "*" } }] }),
      undefined,
      "spec.auth.routePolicy[0]: set exactly one of permit or forbid",
    ],
    [
      "when and unless",
      withAuth({
        kubernetes: {},
        accessPolicy: [{ permit: { actions: "read" }, when: "user is owner", unless: "user is owner" }],
      }),
      undefined,
      "spec.auth.accessPolicy[0].unless: set when or unless, not both",
    ],
    [
      "a condition the server cannot read",
      withAuth({ kubernetes: {}, accessPolicy: [{ permit: { actions: "read" }, when: "user in owner roles" }] }),
      undefined,
      'spec.auth.accessPolicy[0].when: "user in owner roles" is not a condition the server reads',
    ],
    [
      "a bad condition in a list",
      withAuth({ kubernetes: {}, routePolicy: [{ permit: { paths: "*" }, unless: ["user is owner", "admin"] }] }),
      undefined,
      'spec.auth.routePolicy[0].unless[1]: "admin" is not a condition',
    ],
    [
      "single tenancy without its tenant",
      withAuth({ kubernetes: {}, tenancy: { mode: "single" } }),
      undefined,
      "spec.auth.tenancy.defaultTenantId: required when mode is single",
    ],
    [
      "multi tenancy without a tenant source",
      withAuth({ kubernetes: {}, tenancy: { mode: "multi" } }),
      undefined,
      "spec.auth.tenancy.mode: multi needs the provider's tenant source",
    ],
    [
      "auth beside overrideConfig",
      withAuth({ kubernetes: {} }, { overrideConfig: { configMapName: "cfg" } }),
      undefined,
      "spec.auth: auth is written into the generated config; with overrideConfig",
    ],
    [
      "upstreamHeader on 0.7",
      withAuth({ upstreamHeader: { principalHeader: "x-user" } }, BEHIND_GATEWAY),
      "0.7",
      "spec.auth.upstreamHeader: the 0.7 server line has no upstream_header auth: remove it, or run a line that has it (0.8, 1.2, 1.3)",
    ],
    [
      "tenancy on 0.8",
      withAuth({ kubernetes: {}, tenancy: { mode: "disabled" } }),
      "0.8",
      "spec.auth.tenancy: the 0.8 server line has no server.tenancy: remove it, or run a line that has it (1.2, 1.3)",
    ],
    [
      "a tenant claim on 0.7",
      withAuth({ oidc: { jwks, tenantClaim: "org" } }),
      "0.7",
      "spec.auth.oidc.tenantClaim: the 0.7 server line has no tenant_claim",
    ],
  ])("%s", (_name, spec, release, expected) => {
    expect(errorsOf(spec, release)).toEqual([expect.stringContaining(expected)]);
  });

  it("a misspelt provider gets a did-you-mean from the schema", () => {
    const misspelt: object = { distribution: { name: "starter" }, auth: { kubernets: {} } };
    expect(errorsOf(misspelt)).toEqual(['spec.auth: unknown field "kubernets"; did you mean "kubernetes"?']);
  });
});

describe("an exposed server without auth", () => {
  const warningsOf = (spec: object) => validate(spec).warnings.map((w) => `${w.path}: ${w.message}`);

  it.each<[string, object, number]>([
    ["exposed, no auth: warned", aSpec({ networking: { expose: true } }), 1],
    ["exposed as {}, no auth: warned", aSpec({ networking: { expose: {} } }), 1],
    ["exposed with auth: quiet", withAuth({ kubernetes: {} }, { networking: { expose: true } }), 0],
    ["not exposed: quiet", aSpec({ networking: { expose: false } }), 0],
    [
      "exposed with its own config (it may set server.auth): quiet",
      aSpec({ networking: { expose: true }, overrideConfig: { configMapName: "c" } }),
      0,
    ],
  ])("%s", (_name, spec, count) => {
    const warned = warningsOf(spec).filter((w) => w.includes("set spec.auth"));
    expect(warned).toHaveLength(count);
    expect(validate(spec).errors).toEqual([]);
  });
});

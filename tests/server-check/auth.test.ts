/**
 * `spec.auth` as each line's server reads it: every provider form, the access rules and tenancy
 * synced on every line that has them, then checked against the line's own config classes
 * (tests/server-check/check.ts: unknown keys are errors). On a line without a piece, the sync
 * refuses it with the field path and the lines that have it.
 */
import { parse } from "yaml";
import type { AuthInput } from "../../lib/api/auth-types";
import { schemaTagOf } from "../../lib/distributions/releases";
import { RELEASES, type Release } from "../../lib/distributions/table";
import { sync } from "../../lib/sync/sync";
import type { SyncResponse } from "../../lib/wire/metacontroller";
import { fixtureFound } from "../external-fixtures";
import { aParent, aRequest, aSecret, deps } from "../sync-builders";
import { checkServerConfigs } from "./check";
import { serverCheckOf, tableFor } from "./from-sync";

const CLIENT_SECRET = "idp-client-secret-value";
const rules: AuthInput = {
  accessPolicy: [
    { permit: { actions: ["read"] }, when: "user in owners roles", description: "team reads" },
    { forbid: { actions: ["create", "delete"], resource: "model::*" }, unless: ["user with admin in roles"] },
  ],
  routePolicy: [{ permit: { paths: ["/v1/models*", "/v1/chat/completions"] }, when: "user with dev in roles" }],
};

/** name → auth, and the first line that reads it. */
const FORMS: readonly (readonly [string, AuthInput, Release])[] = [
  ["kubernetes, no settings", { kubernetes: {} }, "0.7"],
  ["kubernetes with claims and rules", { kubernetes: { claimsMapping: { groups: "roles" } }, ...rules }, "0.7"],
  ["kubernetes, another API server", { kubernetes: { apiServerUrl: "https://api.example.com:6443" } }, "0.7"],
  [
    "oidc with jwks",
    {
      oidc: {
        issuer: "https://idp/realms/ai",
        audience: "llsd",
        jwks: { uri: "https://idp/certs", keyRecheckPeriodSeconds: 600 },
      },
    },
    "0.7",
  ],
  [
    "oidc with introspection",
    {
      oidc: {
        introspection: {
          url: "https://idp/introspect",
          clientId: "llsd",
          clientSecret: { name: "idp", key: "secret" },
          sendSecretInBody: true,
        },
      },
    },
    "0.7",
  ],
  ["custom", { custom: { endpoint: "https://auth.example.com/check" } }, "0.7"],
  [
    "upstreamHeader",
    { upstreamHeader: { principalHeader: "x-auth-user", attributesHeader: "x-auth-attributes" } },
    "0.8",
  ],
  [
    "upstreamHeader with tenant and attribute headers, multi-tenant",
    {
      upstreamHeader: {
        principalHeader: "x-auth-user",
        tenantHeader: "x-tenant",
        attributeHeaders: { "x-groups": "teams" },
      },
      tenancy: { mode: "multi" },
    },
    "1.2",
  ],
  ["oidc with a tenant claim", { oidc: { jwks: { uri: "https://idp/certs" }, tenantClaim: "org" } }, "1.2"],
  [
    "kubernetes, single tenant",
    { kubernetes: { tenantClaim: "extra.tenant" }, tenancy: { mode: "single", defaultTenantId: "team-a" } },
    "1.2",
  ],
  [
    "custom with a tenant field",
    { custom: { endpoint: "https://auth.example.com/check", tenantField: "tenant" } },
    "1.2",
  ],
];

function syncAuth(
  auth: AuthInput,
  release: Release,
): SyncResponse & { related: ReturnType<typeof aRequest>["related"] } {
  // upstreamHeader is accepted only with its gateway named (docs/auth.md); the other providers do not mind.
  const spec = { distribution: { name: "starter" }, auth, networking: { allowedFrom: { namespaces: ["gateway"] } } };
  const request = aRequest(aParent(spec), [], [aSecret("idp", { secret: CLIENT_SECRET })]);
  const answer = sync(request, { ...deps(), distributions: tableFor(release) }, fixtureFound(spec));
  return { ...answer, related: request.related };
}

const onLines = FORMS.flatMap(([name, auth, since]) =>
  RELEASES.map((release) => ({ name, auth, since, release, answer: syncAuth(auth, release) })),
);
const supported = onLines.filter((c) => RELEASES.indexOf(c.release) >= RELEASES.indexOf(c.since));
const unsupported = onLines.filter((c) => RELEASES.indexOf(c.release) < RELEASES.indexOf(c.since));

describe("spec.auth on the server lines", () => {
  const checks = supported.map((c) => {
    const check = serverCheckOf(c.answer, c.answer.related, c.release);
    if (!check) throw new Error(`${c.name} on ${c.release}: no config mounted`);
    return check;
  });
  const problems = checkServerConfigs(checks);

  it.each(supported.map((c, i) => [c.name, c.release, i] as const))(
    "%s on %s: the line's config classes accept server.auth, with no key they ignore",
    (_name, _release, i) => {
      expect(problems[i]).toEqual([]);
      const server = (parse(checks[i]!.configYaml) as { server: { auth?: object } }).server;
      expect(server.auth).toEqual(expect.objectContaining({ provider_config: expect.any(Object) }));
    },
  );

  it.each(unsupported.map((c) => [c.name, c.release, c.since, c.answer] as const))(
    "%s on %s: refused, with the field path and the lines that have it (from %s)",
    (_name, release, since, answer) => {
      const text = JSON.stringify(answer.status);
      expect(text).toMatch(new RegExp(`spec\\.auth\\.[a-zA-Z.]+: the ${release} server line has no`));
      expect(text).toContain(RELEASES.slice(RELEASES.indexOf(since)).join(", "));
      expect(answer.children.some((c) => c.kind === "ConfigMap" && JSON.stringify(c).includes("auth:"))).toBe(false);
    },
  );

  it("the client secret reaches the server by env only: never in a child's data or in status", () => {
    for (const release of RELEASES) {
      const answer = syncAuth(FORMS[4]![1], release);
      const check = serverCheckOf(answer, answer.related, release)!;
      expect(check.configYaml).toContain("client_secret: ${env.LLSD_AUTH_OIDC_CLIENT_SECRET}");
      expect(check.env.LLSD_AUTH_OIDC_CLIENT_SECRET).toBe(CLIENT_SECRET);
      expect(JSON.stringify([answer.children, answer.status])).not.toContain(CLIENT_SECRET);
    }
  });
});

it("checks every line's tag", () => {
  expect(new Set(supported.map((c) => schemaTagOf(c.release)))).toEqual(
    new Set(["v0.7.3", "v0.8.0", "v1.2.2", "v1.3.0"]),
  );
});

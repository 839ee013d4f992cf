/**
 * spec.auth → server.auth, key by key as the server's classes name them (the expected configs
 * are written out here, not derived), what the pod needs for it, and what auth must reach.
 */
import { parse } from "yaml";
import type { AuthInput } from "../../../lib/api/auth-types";
import { normalize } from "../../../lib/api/normalize";
import { buildPodSpec } from "../../../lib/children/pod";
import { authEgressTargets } from "../../../lib/config/auth-egress";
import { referencesOf } from "../../../lib/sync/references";
import type { Release } from "../../../lib/distributions/table";
import { aSpec } from "../../builders";
import { aContext } from "../children/context-builder";
import { ok, run } from "../../config-helpers";

const secret = { name: "idp", key: "client-secret" };
const serverOf = (auth: AuthInput, release: Release = "1.3") =>
  (parse(ok(run(aSpec({ auth }), release)).configYaml) as { server: { [k: string]: unknown } }).server;

describe("server.auth as the server reads it", () => {
  it.each<[string, AuthInput, object]>([
    [
      "kubernetes: {} → the in-cluster API server and the ServiceAccount CA",
      { kubernetes: {} },
      {
        provider_config: {
          type: "kubernetes",
          api_server_url: "https://kubernetes.default.svc",
          tls_cafile: "/var/run/secrets/kubernetes.io/serviceaccount/ca.crt",
        },
      },
    ],
    [
      "kubernetes with another API server: the system CAs, not the pod's",
      { kubernetes: { apiServerUrl: "https://api.example.com:6443", claimsMapping: { groups: "teams" } } },
      {
        provider_config: {
          type: "kubernetes",
          api_server_url: "https://api.example.com:6443",
          claims_mapping: { groups: "teams" },
        },
      },
    ],
    [
      "oidc with jwks",
      { oidc: { issuer: "https://idp/realms/ai", audience: "llsd", jwks: { uri: "https://idp/certs" } } },
      {
        provider_config: {
          type: "oauth2_token",
          issuer: "https://idp/realms/ai",
          audience: "llsd",
          jwks: { uri: "https://idp/certs" },
        },
      },
    ],
    [
      "oidc introspection: the client secret as an env reference",
      { oidc: { introspection: { url: "https://idp/introspect", clientId: "llsd", clientSecret: secret } } },
      {
        provider_config: {
          type: "oauth2_token",
          introspection: {
            url: "https://idp/introspect",
            client_id: "llsd",
            client_secret: "${env.LLSD_AUTH_OIDC_CLIENT_SECRET}",
          },
        },
      },
    ],
    [
      "upstreamHeader",
      { upstreamHeader: { principalHeader: "x-auth-user", attributesHeader: "x-auth-attributes" } },
      {
        provider_config: {
          type: "upstream_header",
          principal_header: "x-auth-user",
          attributes_header: "x-auth-attributes",
        },
      },
    ],
    [
      "custom, with rules: the open routes come first in route_policy",
      {
        custom: { endpoint: "https://auth/check" },
        accessPolicy: [{ permit: { actions: ["read"] }, when: "user in owners roles" }],
        routePolicy: [{ forbid: { paths: "/v1/files*" }, unless: "user with admin in roles" }],
      },
      {
        provider_config: { type: "custom", endpoint: "https://auth/check" },
        access_policy: [{ permit: { actions: ["read"] }, when: "user in owners roles" }],
        route_policy: [
          {
            permit: { paths: ["/v1/health", "/v1/version"] },
            description:
              "added by llsd-hooks: health and version stay open for probes and status, as without a route policy",
          },
          { forbid: { paths: "/v1/files*" }, unless: "user with admin in roles" },
        ],
      },
    ],
  ])("%s", (_name, auth, expected) => {
    expect(serverOf(auth).auth).toEqual(expected);
  });

  it("tenancy goes to server.tenancy, beside auth", () => {
    const server = serverOf({ kubernetes: {}, tenancy: { mode: "single", defaultTenantId: "team-a" } });
    expect(server.tenancy).toEqual({ mode: "single", default_tenant_id: "team-a" });
  });

  it("the client secret is read from its Secret by env, and nothing else of it is in the config", () => {
    const generated = ok(
      run(aSpec({ auth: { oidc: { introspection: { url: "https://i", clientId: "c", clientSecret: secret } } } })),
    );
    expect(generated.secretEnv).toContainEqual({
      name: "LLSD_AUTH_OIDC_CLIENT_SECRET",
      secretName: "idp",
      secretKey: "client-secret",
      path: "spec.auth.oidc.introspection.clientSecret",
    });
    expect(generated.configYaml).not.toMatch(/client-secret|idp\b/);
  });

  it("without spec.auth, the base's server section has no auth (unset changes nothing)", () => {
    expect(
      parse(ok(run(aSpec({ networking: { tls: { enabled: false } } }), "1.3")).configYaml).server,
    ).not.toHaveProperty("auth");
  });
});

describe("the pod", () => {
  it.each<[string, AuthInput | undefined, boolean | undefined]>([
    ["kubernetes: the ServiceAccount CA is mounted whatever the ServiceAccount says", { kubernetes: {} }, true],
    [
      "kubernetes on another API server: nothing asked",
      { kubernetes: { apiServerUrl: "https://api.example.com" } },
      undefined,
    ],
    ["oidc: nothing asked", { oidc: { jwks: { uri: "https://idp/certs" } } }, undefined],
    ["no auth: nothing asked", undefined, undefined],
  ])("%s", (_name, auth, automount) => {
    const pod = buildPodSpec(aContext({ spec: auth ? { auth } : {} }));
    expect(pod.automountServiceAccountToken).toBe(automount);
  });
});

describe("authEgressTargets()", () => {
  it.each<[string, AuthInput | undefined, object[]]>([
    [
      "kubernetes",
      { kubernetes: {} },
      [{ kind: "apiServer", url: "https://kubernetes.default.svc", path: "spec.auth.kubernetes" }],
    ],
    [
      "kubernetes elsewhere",
      { kubernetes: { apiServerUrl: "https://api.x:6443" } },
      [{ kind: "url", url: "https://api.x:6443", path: "spec.auth.kubernetes" }],
    ],
    [
      "oidc jwks",
      { oidc: { jwks: { uri: "https://idp/certs" } } },
      [{ kind: "url", url: "https://idp/certs", path: "spec.auth.oidc.jwks.uri" }],
    ],
    [
      "oidc introspection",
      { oidc: { introspection: { url: "https://idp/i", clientId: "c", clientSecret: secret } } },
      [{ kind: "url", url: "https://idp/i", path: "spec.auth.oidc.introspection.url" }],
    ],
    [
      "custom",
      { custom: { endpoint: "https://auth/check" } },
      [{ kind: "url", url: "https://auth/check", path: "spec.auth.custom.endpoint" }],
    ],
    ["upstreamHeader: nothing (the gateway checked)", { upstreamHeader: { principalHeader: "x-user" } }, []],
    ["no auth", undefined, []],
  ])("%s", (_name, auth, expected) => {
    expect(authEgressTargets(normalize(aSpec(auth ? { auth } : {})))).toEqual(expected);
  });
});

describe("the client secret's Secret", () => {
  it("is among the references customize asks for and sync checks", () => {
    const spec = normalize(
      aSpec({ auth: { oidc: { introspection: { url: "https://i", clientId: "c", clientSecret: secret } } } }),
    );
    expect(referencesOf(spec).secretKeys).toEqual([
      { name: "idp", key: "client-secret", path: "spec.auth.oidc.introspection.clientSecret" },
    ]);
  });
});

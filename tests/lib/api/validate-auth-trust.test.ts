/**
 * Identity that cannot be forged: `auth.upstreamHeader` with anyone but the gateway able to
 * reach the server is refused, with the field path, the reason and the fix; `http://` auth URLs
 * are refused unless `allowInsecureHttp: true` stands next to them. Same rules for /validate,
 * `llsd validate` and /sync (tests/check/one-voice.test.ts runs them through every entry point).
 */
import type { AuthInput } from "../../../lib/api/auth-types";
import { validate } from "../../../lib/api/validate";
import { overrideForgeable } from "../../../lib/config/override-auth";
import { aCanonicalSpec, aSpec } from "../../builders";

const HEADER = { upstreamHeader: { principalHeader: "x-auth-user" } };
const GATEWAY = { allowedFrom: { namespaces: ["gateway"] } };
const errorsOf = (spec: object): string[] => validate(spec).errors.map((e) => `${e.path}: ${e.message}`);
const behind = (networking: object, auth: AuthInput = HEADER) => aSpec({ auth, networking });

const FORGEABLE = "with spec.auth.upstreamHeader the server believes the x-auth-user header without any check";

describe("upstreamHeader: refused when anyone but the gateway reaches the server", () => {
  it.each<[string, object, string, string[]]>([
    [
      "exposed",
      behind({ expose: true, ...GATEWAY }),
      "spec.networking.expose",
      [FORGEABLE, "expose the gateway that sets the headers, not the server (remove expose)"],
    ],
    [
      "exposed with a hostname",
      behind({ expose: { hostname: "llama.example.com" }, ...GATEWAY }),
      "spec.networking.expose",
      ["name the gateway's namespace in spec.networking.allowedFrom.namespaces"],
    ],
    [
      "the NetworkPolicy off",
      behind({ policy: { enabled: false }, ...GATEWAY }),
      "spec.networking.policy.enabled",
      [FORGEABLE, "every pod of the cluster reaches it: remove enabled: false"],
    ],
    [
      "allowedFrom every namespace",
      behind({ allowedFrom: { namespaces: ["gateway", "*"] } }),
      "spec.networking.allowedFrom.namespaces[1]",
      ['"*" admits every namespace', "list only the gateway's namespace"],
    ],
    [
      "no allowedFrom at all",
      behind({}),
      "spec.networking.allowedFrom",
      ["none is named, so nobody could call the server", "name the gateway's namespace"],
    ],
    [
      "a policy rule without from",
      behind({ ...GATEWAY, policy: { ingress: [{ ports: [{ port: 8321 }] }] } }),
      "spec.networking.policy.ingress[0]",
      ["a rule without from admits every source", "select the gateway's pods or namespace in from"],
    ],
    [
      "a policy rule from every namespace, on every port",
      behind({ ...GATEWAY, policy: { ingress: [{ from: [{ podSelector: {} }, { namespaceSelector: {} }] }] } }),
      "spec.networking.policy.ingress[0].from[1]",
      ["this peer admits every namespace"],
    ],
    [
      "a policy rule from every address, on the named server port",
      behind({
        ...GATEWAY,
        policy: { ingress: [{ from: [{ ipBlock: { cidr: "0.0.0.0/0" } }], ports: [{ port: "http" }] }] },
      }),
      "spec.networking.policy.ingress[0].from[0]",
      ["this peer admits every namespace"],
    ],
  ])("%s: at %s", (_name, spec, path, says) => {
    const errors = errorsOf(spec);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.startsWith(`${path}: `)).toBe(true);
    for (const text of says) expect(errors[0]).toContain(text);
  });

  it.each<[string, object]>([
    ["the gateway's namespace", behind(GATEWAY)],
    ["namespaces by label key", behind({ allowedFrom: { labels: ["gateway"] } })],
    [
      "only a policy rule selecting the gateway's pods",
      behind({ policy: { ingress: [{ from: [{ podSelector: { matchLabels: { app: "gateway" } } }] }] } }),
    ],
    [
      "a rule from everywhere on another port only (the metrics port serves no API)",
      behind({ ...GATEWAY, policy: { ingress: [{ ports: [{ port: 9464 }] }] } }),
    ],
    ["another provider, exposed, no allowedFrom", behind({ expose: true }, { kubernetes: {} })],
  ])("accepted: %s", (_name, spec) => {
    expect(errorsOf(spec)).toEqual([]);
  });
});

describe("plain-http auth URLs: refused unless allowInsecureHttp says so next to them", () => {
  const secret = { name: "idp", key: "secret" };
  it.each<[string, AuthInput, string, string]>([
    [
      "kubernetes.apiServerUrl",
      { kubernetes: { apiServerUrl: "http://api.example.com:8080" } },
      "spec.auth.kubernetes.apiServerUrl",
      "every caller's token would cross the network unencrypted",
    ],
    [
      "oidc.jwks.uri",
      { oidc: { jwks: { uri: "http://idp.example.com/certs" } } },
      "spec.auth.oidc.jwks.uri",
      "anyone on the path could replace to mint tokens",
    ],
    [
      "oidc.introspection.url",
      { oidc: { introspection: { url: "HTTP://idp/introspect", clientId: "c", clientSecret: secret } } },
      "spec.auth.oidc.introspection.url",
      "every caller's token and the client secret",
    ],
    [
      "custom.endpoint on loopback (the server pod's own)",
      { custom: { endpoint: "http://127.0.0.1:8080/check" } },
      "spec.auth.custom.endpoint",
      "set spec.auth.custom.allowInsecureHttp: true",
    ],
  ])("%s", (_name, auth, path, says) => {
    const errors = errorsOf(aSpec({ auth }));
    expect(errors).toEqual([expect.stringMatching(new RegExp(`^${path.replace(/\./g, "\\.")}: .* is plain http: `))]);
    expect(errors[0]).toContain(says);
    expect(errors[0]).toContain("use https://");
  });

  it.each<[string, AuthInput]>([
    ["https", { oidc: { jwks: { uri: "https://idp.example.com/certs" } } }],
    [
      "an http issuer (compared with tokens, never called)",
      { oidc: { issuer: "http://idp", jwks: { uri: "https://idp/c" } } },
    ],
    ["kubernetes in-cluster default", { kubernetes: {} }],
    ["http with consent", { kubernetes: { apiServerUrl: "http://api:8080", allowInsecureHttp: true } }],
    ["jwks with consent", { oidc: { jwks: { uri: "http://idp/certs", allowInsecureHttp: true } } }],
    [
      "introspection with consent",
      {
        oidc: { introspection: { url: "http://idp/i", clientId: "c", clientSecret: secret, allowInsecureHttp: true } },
      },
    ],
    ["custom with consent", { custom: { endpoint: "http://authz:8080/check", allowInsecureHttp: true } }],
  ])("accepted: %s", (_name, auth) => {
    expect(errorsOf(aSpec({ auth }))).toEqual([]);
  });

  it("consent on another URL does not carry over", () => {
    const auth: AuthInput = {
      oidc: {
        jwks: { uri: "http://idp/certs" },
        introspection: { url: "http://idp/i", clientId: "c", clientSecret: secret, allowInsecureHttp: true },
      },
    };
    expect(errorsOf(aSpec({ auth })).map((e) => e.split(":")[0])).toEqual([
      "spec.auth.oidc.introspection", // jwks and introspection together (the server takes one)
      "spec.auth.oidc.jwks.uri",
    ]);
  });
});

describe("an overrideConfig whose server believes a gateway's headers: refused where a spec's would be", () => {
  const parsed = { server: { auth: { provider_config: { type: "upstream_header", principal_header: "x-user" } } } };
  const of = (networking: object) =>
    overrideForgeable(aCanonicalSpec({ overrideConfig: { configMapName: "mine" }, networking }), "mine", parsed).map(
      (e) => `${e.path}: ${e.message}`,
    );

  it.each<[string, object, string[]]>([
    ["exposed", { expose: true }, ["spec.networking.expose"]],
    ["no policy", { policy: { enabled: false } }, ["spec.networking.policy.enabled"]],
    ["every namespace", { allowedFrom: { namespaces: ["*"] } }, ["spec.networking.allowedFrom.namespaces[0]"]],
    ["behind the policy", {}, []],
  ])("%s", (_t, networking, paths) => {
    const errors = of(networking);
    expect(errors.map((e) => e.split(": ")[0])).toEqual(paths);
    for (const e of errors)
      expect(e).toContain("with upstream_header auth in ConfigMap mine the server believes the x-user header");
  });

  it("another provider in the ConfigMap: nothing", () => {
    const kubernetes = { server: { auth: { provider_config: { type: "kubernetes" } } } };
    const spec = aCanonicalSpec({ overrideConfig: { configMapName: "mine" }, networking: { expose: true } });
    expect(overrideForgeable(spec, "mine", kubernetes)).toEqual([]);
  });
});

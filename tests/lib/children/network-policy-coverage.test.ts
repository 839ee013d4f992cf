/**
 * Which spec endpoints the egress rules let the server reach (status notes), and the
 * API-server seam for auth.kubernetes.
 */
import { normalize } from "../../../lib/api/normalize";
import type { LlsdSpecV1alpha2 } from "../../../lib/api/v1alpha2";
import { parseEndpoint, ruleMatch, specEndpoints, type Endpoint } from "../../../lib/children/network-policy-coverage";
import {
  API_SERVER_UNKNOWN_NOTE,
  platformEgress,
  platformNeeds,
  platformNotes,
} from "../../../lib/children/network-policy-egress";
import { networkPolicyNotes, POLICY_DISABLED_NOTE } from "../../../lib/children/network-policy-notes";
import type { DerivedPostgres } from "../../../lib/config/postgres-stores";
import { derivedPostgres } from "./context-builder";
import type { NetworkPolicyEgressRuleInput as Rule } from "../../../lib/api/v1alpha2-network-policy";

const at = (host: string, port?: number): Endpoint =>
  port === undefined ? { path: "p", host } : { path: "p", host, port };

describe("parseEndpoint()", () => {
  it.each([
    ["http://vllm.models.svc:8000/v1", { host: "vllm.models.svc", port: 8000 }],
    ["https://api.openai.com/v1", { host: "api.openai.com", port: 443 }],
    ["http://10.1.2.3/v1", { host: "10.1.2.3", port: 80 }],
    ["http://[2001:db8::5]:9000", { host: "2001:db8::5", port: 9000 }],
    ["qdrant.db:6333", { host: "qdrant.db", port: 6333 }],
    ["qdrant.db", { host: "qdrant.db" }],
  ])("%s → %j", (endpoint, expected) => {
    expect(parseEndpoint("p", endpoint)).toEqual({ path: "p", ...expected });
  });

  it("an unparseable endpoint is none", () => {
    expect(parseEndpoint("p", "http://")).toBeUndefined();
  });
});

describe("ruleMatch()", () => {
  const tcp = (port: number | string, endPort?: number) => ({ ports: [{ port, ...(endPort ? { endPort } : {}) }] });
  it.each<[string, Rule, Endpoint, string]>([
    ["no to, no ports: everything", {}, at("vllm", 8000), "yes"],
    [
      "ipBlock containing the IP, right port",
      { to: [{ ipBlock: { cidr: "10.0.0.0/8" } }], ...tcp(8000) },
      at("10.1.2.3", 8000),
      "yes",
    ],
    [
      "ipBlock, port in range",
      { to: [{ ipBlock: { cidr: "10.0.0.0/8" } }], ...tcp(8000, 8100) },
      at("10.1.2.3", 8050),
      "yes",
    ],
    ["ipBlock, wrong port", { to: [{ ipBlock: { cidr: "10.0.0.0/8" } }], ...tcp(9000) }, at("10.1.2.3", 8000), "no"],
    ["ipBlock not containing the IP", { to: [{ ipBlock: { cidr: "192.168.0.0/16" } }] }, at("10.1.2.3", 8000), "no"],
    ["IP in except", { to: [{ ipBlock: { cidr: "10.0.0.0/8", except: ["10.1.0.0/16"] } }] }, at("10.1.2.3", 80), "no"],
    ["IPv6 in an IPv6 block", { to: [{ ipBlock: { cidr: "2001:db8::/32" } }] }, at("2001:db8::5", 80), "yes"],
    ["UDP only", { ports: [{ protocol: "UDP", port: 8000 }] }, at("vllm", 8000), "no"],
    [
      "ipBlock against a host name",
      { to: [{ ipBlock: { cidr: "10.0.0.0/8" } }] },
      at("vllm.models.svc", 8000),
      "unknown",
    ],
    ["namespace selector", { to: [{ namespaceSelector: {} }], ...tcp(8000) }, at("vllm.models.svc", 8000), "unknown"],
    ["selector, wrong port", { to: [{ namespaceSelector: {} }], ...tcp(9000) }, at("vllm.models.svc", 8000), "no"],
    ["named port", tcp("https"), at("10.1.2.3", 443), "unknown"],
    ["endpoint without a port, ports given", tcp(6333), at("qdrant"), "unknown"],
  ])("%s", (_title, rule, endpoint, expected) => {
    expect(ruleMatch(rule, endpoint)).toBe(expected);
  });
});

const spec = (s: Partial<LlsdSpecV1alpha2>) => normalize({ distribution: { name: "starter" }, ...s });
const PROVIDERS: Partial<LlsdSpecV1alpha2> = {
  providers: {
    inference: [
      { id: "a", provider: "vllm", endpoint: "http://10.20.0.7:8000/v1" },
      { id: "b", provider: "openai", endpoint: "https://api.openai.com/v1" },
    ],
  },
  storage: {
    kv: { type: "redis", endpoint: "redis.cache:6379" },
    sql: { type: "postgres", connectionString: { name: "pg", key: "dsn" } },
  },
};

/** The derived Secret of one DSN (the SQL store's), at `host:port`. */
const pg = (at: { host: string; port: string }): DerivedPostgres =>
  derivedPostgres("x", [{ parts: { ...at, db: "d", user: "u", password: "s3cr3t" } }]);

describe("specEndpoints()", () => {
  it("lists provider and storage endpoints; the Postgres host only with the Secret's parts, never shown", () => {
    expect(specEndpoints(spec(PROVIDERS), pg({ host: "pg.db", port: "5432" }))).toEqual([
      { path: "spec.providers.inference[0].endpoint", host: "10.20.0.7", port: 8000 },
      { path: "spec.providers.inference[1].endpoint", host: "api.openai.com", port: 443 },
      { path: "spec.storage.kv.endpoint", host: "redis.cache", port: 6379 },
      { path: "spec.storage.sql.connectionString", host: "pg.db", port: 5432, secret: true },
    ]);
    expect(specEndpoints(spec(PROVIDERS))).toHaveLength(3);
  });

  it("a KV store on a DSN of its own is an endpoint too; on the sql store's DSN, the same one", () => {
    const kv = { type: "postgres" as const, connectionString: { name: "pg", key: "kv-dsn" } };
    const parts = (host: string) => ({ host, port: "5432", db: "d", user: "u", password: "s3cr3t" });
    const split = derivedPostgres("x", [
      { parts: parts("pg.db") },
      { parts: parts("kv.db"), prefix: "kv-", key: "kv-dsn", path: "spec.storage.kv.connectionString" },
    ]);
    const storage = { ...PROVIDERS.storage, kv };
    expect(specEndpoints(spec({ ...PROVIDERS, storage }), split).filter((e) => e.secret)).toEqual([
      { path: "spec.storage.sql.connectionString", host: "pg.db", port: 5432, secret: true },
      { path: "spec.storage.kv.connectionString", host: "kv.db", port: 5432, secret: true },
    ]);
    expect(specEndpoints(spec({ ...PROVIDERS, storage }), pg({ host: "pg.db", port: "5432" }))).toHaveLength(3);
  });
});

describe("networkPolicyNotes()", () => {
  const notes = (policy: object, postgres?: { host: string; port: string }) =>
    networkPolicyNotes({
      spec: spec({ ...PROVIDERS, networking: { policy } }),
      exposeWith: "ingress",
      hooksNamespace: "llsd-system",
      ...(postgres ? { postgres: pg(postgres) } : {}),
    });

  it("unset, or without egress: none", () => {
    expect(networkPolicyNotes({ spec: spec(PROVIDERS), exposeWith: "ingress", hooksNamespace: "h" })).toEqual([]);
    expect(notes({ ingress: [{}] })).toEqual([]);
  });

  it("enabled: false: says there is no NetworkPolicy", () => {
    expect(notes({ enabled: false })).toEqual([POLICY_DISABLED_NOTE]);
  });

  it("lists what the rules leave out and what they cannot be matched to, never a Secret's host", () => {
    const egress = [
      { to: [{ ipBlock: { cidr: "10.20.0.0/16" } }], ports: [{ port: 8000 }] },
      {
        to: [{ namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "cache" } } }],
        ports: [{ port: 6379 }],
      },
    ];
    const [missing, unknown, ...rest] = notes({ egress }, { host: "pg.db", port: "5432" });
    expect(rest).toEqual([]);
    expect(missing).toBe(
      "networking.policy.egress: no rule allows spec.providers.inference[1].endpoint (api.openai.com:443), spec.storage.sql.connectionString; the server cannot connect there: add an egress rule for its address and port",
    );
    expect(unknown).toContain("not checked whether the rules allow spec.storage.kv.endpoint (redis.cache:6379)");
    expect(unknown).not.toContain("inference[0]");
    expect(`${missing}${unknown}`).not.toContain("pg.db");
  });

  it("rules that allow everything: none", () => {
    expect(notes({ egress: [{ ports: [] }] })).toEqual([]);
  });
});

describe("the API-server seam (auth.kubernetes)", () => {
  const apiServer = { cidrs: ["172.18.0.2/32"], ports: [6443] };
  it.each([
    [{ kubernetesAuth: false, apiServer }, [], []],
    [{ kubernetesAuth: true }, [], [API_SERVER_UNKNOWN_NOTE]],
    [
      { kubernetesAuth: true, apiServer },
      [{ to: [{ ipBlock: { cidr: "172.18.0.2/32" } }], ports: [{ protocol: "TCP", port: 6443 }] }],
      [],
    ],
  ])("%j → rules and notes", (needs, rules, notes) => {
    expect(platformEgress(needs)).toEqual(rules);
    expect(platformNotes(needs)).toEqual(notes);
  });
});

describe("platformNeeds(): the API server is needed exactly when auth.kubernetes checks tokens in the cluster", () => {
  const withAuth = (auth: LlsdSpecV1alpha2["auth"]): ReturnType<typeof normalize> =>
    normalize({ distribution: { name: "starter" }, ...(auth ? { auth } : {}) });
  it.each<[string, LlsdSpecV1alpha2["auth"], boolean]>([
    ["no auth", undefined, false],
    ["kubernetes: {}", { kubernetes: {} }, true],
    ["kubernetes with an API server outside", { kubernetes: { apiServerUrl: "https://api.example.com:6443" } }, false],
    ["oidc", { oidc: { jwks: { uri: "https://idp.example.com/certs" } } }, false],
    ["upstreamHeader", { upstreamHeader: { principalHeader: "x-user" } }, false],
  ])("%s", (_what, auth, expected) => {
    expect(platformNeeds(withAuth(auth)).kubernetesAuth).toBe(expected);
  });
});

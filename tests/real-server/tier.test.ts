/**
 * The pure parts of `npm run test:server` (the tier itself starts the real server and runs only
 * there): the expected answers are the server's documented behaviour and RFC 7515/7518, not the
 * code under test.
 */
import { createPublicKey, verify, type JsonWebKey } from "node:crypto";
import { resolveEnv, expectedModels } from "./expect";
import { newSigner } from "./jwt";
import { admittedAttributes } from "./policy";
import { inCluster, localize } from "./rewrite";

const local = {
  upstream: "http://127.0.0.1:9",
  redisPort: 7,
  postgresPort: 8,
  stateDir: "/state",
  tls: { cert: "/c.crt", key: "/c.key" },
};

describe("resolveEnv: the server's ${env.X} forms", () => {
  it.each([
    ["${env.A}", { A: "x" }, "x"],
    ["${env.A:=d}", {}, "d"],
    ["${env.A:=d}", { A: "x" }, "x"],
    ["${env.A:+on}", {}, ""],
    ["${env.A:+on}", { A: "x" }, "on"],
    ["${env.DIR:=~/.ogx}/kv.db", {}, "~/.ogx/kv.db"],
  ])("%s with %j is %j", (text, env, out) => expect(resolveEnv(text, env)).toBe(out));
});

describe("expectedModels: ids as 1.3 registers them (routing_tables/models.py)", () => {
  const config = (models: object[]) => ({ registered_resources: { models } });
  it.each([
    [{ model_id: "m", provider_id: "vllm" }, ["vllm/m"]],
    [{ model_id: "vllm/m", provider_id: "vllm" }, ["vllm/m"]],
    [{ model_id: "m", provider_id: "all" }, []],
    [{ model_id: "m", provider_id: "${env.OLLAMA_URL:+ollama}" }, []],
  ])("%j lists %j", (model, ids) => expect(expectedModels(config([model]), {}).map((m) => m.id)).toEqual(ids));
});

describe("admittedAttributes", () => {
  it.each([
    ["no rules: any caller", {}, {}],
    [
      "the first route rule for /v1/models, and a read rule",
      {
        route_policy: [
          { permit: { paths: ["/v1/health"] } },
          { permit: { paths: ["/v1/models*"] }, when: "user with sa in roles" },
        ],
        access_policy: [{ permit: { actions: ["read"] }, when: "resource is unowned" }],
      },
      { roles: ["sa"] },
    ],
    [
      "a read rule with an attribute",
      {
        access_policy: [
          { permit: { actions: ["create"] }, when: "user with a in roles" },
          { permit: { actions: ["read"] }, when: ["user with t in teams"] },
        ],
      },
      { teams: ["t"] },
    ],
    [
      "no route rule for /v1/models",
      { route_policy: [{ permit: { paths: ["/v1/chat/completions"] } }] },
      "no route_policy rule admits /v1/models with attributes alone",
    ],
  ])("%s", (_name, auth, expected) => expect(admittedAttributes(auth)).toEqual(expected));
});

describe("rewrite: only loopback is reached", () => {
  it.each([
    ["vllm", true],
    ["otel-collector.observability", true],
    ["vllm.models.svc.cluster.local", true],
    ["10.96.40.12", true],
    ["idp.example.com", true],
    ["127.0.0.1", false],
    ["localhost", false],
    ["api.openai.com", false],
  ])("%s in the cluster: %s", (host, yes) => expect(inCluster(host)).toBe(yes));

  it("points URLs, backends and mounted files at the local stand-ins", () => {
    const config = [
      "providers: {inference: [{provider_id: v, config: {base_url: 'http://10.96.40.12:8000/v1'}}]}",
      "storage: {backends: {kv: {type: kv_redis, host: redis.db.svc, port: 6379}, sql: {type: sql_postgres, host: '${env.H}', port: 5432}}}",
      "server: {tls_certfile: /etc/llama-stack/tls/tls.crt, tls_keyfile: /etc/llama-stack/tls/tls.key}",
    ].join("\n");
    const l = localize(config, local);
    expect(l.config).toEqual({
      providers: { inference: [{ provider_id: "v", config: { base_url: "http://127.0.0.1:9/v1" } }] },
      storage: {
        backends: {
          kv: { type: "kv_redis", host: "127.0.0.1", port: 7 },
          sql: { type: "sql_postgres", host: "${env.H}", port: 8 },
        },
      },
      server: { tls_certfile: "/c.crt", tls_keyfile: "/c.key" },
    });
    expect(l.needs).toEqual({ redis: true, postgres: true });
    expect(l.leftover).toEqual([]);
  });
});

describe("newSigner: RS256 compact JWS (RFC 7515, 7518)", () => {
  const signer = newSigner("k1");
  const token = signer.mint({ sub: "u" });
  const [head, body, signature] = token.split(".");
  const key = createPublicKey({ key: signer.jwks.keys[0] as JsonWebKey, format: "jwk" });

  it("verifies with the JWKS key, and not with another", () => {
    const data = Buffer.from(`${head}.${body}`);
    expect(verify("sha256", data, key, Buffer.from(signature!, "base64url"))).toBe(true);
    const other = createPublicKey({
      key: newSigner("k1").jwks.keys[0] as JsonWebKey,
      format: "jwk",
    });
    expect(verify("sha256", data, other, Buffer.from(signature!, "base64url"))).toBe(false);
  });

  it("says its algorithm and key id, and carries the claims", () => {
    expect(JSON.parse(Buffer.from(head!, "base64url").toString())).toEqual({ alg: "RS256", typ: "JWT", kid: "k1" });
    expect(JSON.parse(Buffer.from(body!, "base64url").toString())).toEqual({ sub: "u" });
    expect(signer.jwks.keys[0]).toMatchObject({ kty: "RSA", kid: "k1", alg: "RS256", use: "sig" });
  });
});

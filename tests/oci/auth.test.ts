/**
 * Registry authentication end to end: an htpasswd (bcrypt, committed fixture) registry and a
 * token-auth registry with a test token server, credentials from dockerconfigjson text. Error
 * messages must name the registry and never carry a credential.
 */
import { join } from "node:path";
import {
  createBaseConfigResolver,
  credentialLookup,
  parseDockerConfigJson,
  type BaseConfigResolverOptions,
  type CredentialLookup,
  type ResolvedBase,
} from "../../lib/oci";
import { b64, configYaml } from "./support/configs";
import { pushImage } from "./support/images";
import { startProxy, type Proxy } from "./support/proxy";
import { startRegistry, type Registry } from "./support/registry";
import { startTokenServer, TOKEN_ISSUER, TOKEN_SERVICE, type TokenServer } from "./support/token-server";

const USER = "testuser";
const PASSWORD = "testpass"; // matches tests/fixtures/oci/htpasswd (bcrypt; registry 2.8 rejects $apr1$)
const basic = (user: string, password: string): string =>
  `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
const labelled = (marker: string) => ({ labels: { "io.llamastack.config.base64": b64(configYaml(marker)) } });

let basicRegistry: Registry;
let basicProxy: Proxy;
let tokens: TokenServer;
let tokenRegistry: Registry;
let tokenProxy: Proxy;
let now = 5_000_000;

beforeAll(async () => {
  basicRegistry = await startRegistry({ kind: "htpasswd", htpasswdFile: join(__dirname, "../fixtures/oci/htpasswd") });
  basicProxy = await startProxy(basicRegistry.host);
  const basicTarget = { url: basicRegistry.url, authorization: () => basic(USER, PASSWORD) };
  await pushImage(basicTarget, "private/demo", "v1", labelled("basic-v1"));
  await pushImage(basicTarget, "private/demo", "v2", labelled("basic-v2"));

  tokens = await startTokenServer({ [USER]: PASSWORD });
  tokenRegistry = await startRegistry({
    kind: "token",
    realm: tokens.realm,
    service: TOKEN_SERVICE,
    issuer: TOKEN_ISSUER,
    certificatePem: tokens.certificatePem,
  });
  tokenProxy = await startProxy(tokenRegistry.host);
  const tokenTarget = {
    url: tokenRegistry.url,
    authorization: (repo: string) => `Bearer ${tokens.mint(`repository:${repo}:pull,push`, USER)}`,
  };
  await pushImage(tokenTarget, "private/demo", "v1", labelled("token-v1"));
  await pushImage(tokenTarget, "private/demo", "v2", labelled("token-v2"));
  await pushImage(tokenTarget, "public/demo", "v1", labelled("token-public"));
});

afterAll(async () => {
  await basicProxy?.close();
  await tokenProxy?.close();
  await basicRegistry?.stop();
  await tokenRegistry?.stop();
  await tokens?.close();
});

/** What a kubernetes.io/dockerconfigjson Secret holds, keyed the way `kubectl create secret docker-registry` writes it. */
function dockerConfig(host: string, entry: object): CredentialLookup {
  const parsed = parseDockerConfigJson(JSON.stringify({ auths: { [`https://${host}`]: entry } }));
  if (!parsed.ok) throw new Error(parsed.error.message);
  return credentialLookup(parsed.value);
}

/** The registry behind `proxy`, and the token service it names, listed by the operator (a token realm takes the registry policy too). */
function resolver(proxy: Proxy, options: BaseConfigResolverOptions = {}) {
  return createBaseConfigResolver({
    insecureRegistries: [proxy.host],
    privateRegistries: [new URL(tokens.realm).host],
    now: () => now,
    ...options,
  });
}

function expectNoSecret(result: ResolvedBase): void {
  const text = JSON.stringify(result);
  for (const secret of [PASSWORD, "wrong-password", Buffer.from(`${USER}:${PASSWORD}`).toString("base64")])
    expect(text).not.toContain(secret);
}

describe("htpasswd (Basic) registry", () => {
  const image = (tag: string): string => `${basicProxy.host}/private/demo:${tag}`;

  test.each([
    ["username/password", { username: USER, password: PASSWORD }],
    ["auth (base64 user:password)", { auth: Buffer.from(`${USER}:${PASSWORD}`).toString("base64") }],
  ])("a private image with dockerconfigjson credentials (%s)", async (_form, entry) => {
    const result = await resolver(basicProxy).resolve(image("v1"), dockerConfig(basicProxy.host, entry));
    expect(result).toMatchObject({ kind: "found", config: configYaml("basic-v1") });
  });

  test("after the first challenge, Basic credentials are sent up front (no more 401 round trips)", async () => {
    const shared = resolver(basicProxy);
    const creds = dockerConfig(basicProxy.host, { username: USER, password: PASSWORD });
    await shared.resolve(image("v1"), creds);
    basicProxy.reset();
    expect(await shared.resolve(image("v2"), creds)).toMatchObject({ kind: "found", config: configYaml("basic-v2") });
    expect(basicProxy.seen.map((s) => s.kind)).toEqual(["manifest", "blob"]);
  });

  test("no credentials: RegistryAuthRequired, naming the registry and the Secret type to add", async () => {
    const result = await resolver(basicProxy).resolve(image("v1"));
    expect(result).toMatchObject({ kind: "error", reason: "RegistryAuthRequired", transient: false });
    expect(result.kind === "error" && result.message).toMatch(
      new RegExp(`image "${image("v1")}".*${basicProxy.host} requires credentials.*kubernetes\\.io/dockerconfigjson`),
    );
  });

  test("wrong password: RegistryAuthFailed, and the message carries no credential", async () => {
    const result = await resolver(basicProxy).resolve(
      image("v1"),
      dockerConfig(basicProxy.host, { username: USER, password: "wrong-password" }),
    );
    expect(result).toMatchObject({ kind: "error", reason: "RegistryAuthFailed", transient: false });
    expectNoSecret(result);
  });

  test("the service-wide lookup is used when the resolve brings none; a resolve's own lookup wins", async () => {
    const serviceWide = dockerConfig(basicProxy.host, { username: USER, password: "wrong-password" });
    const shared = resolver(basicProxy, { credentials: serviceWide });
    expect(await shared.resolve(image("v1"))).toMatchObject({ kind: "error", reason: "RegistryAuthFailed" });
    const own = dockerConfig(basicProxy.host, { username: USER, password: PASSWORD });
    expect(await shared.resolve(image("v1"), own)).toMatchObject({ kind: "found" });
  });
});

describe("token (Bearer) registry", () => {
  const image = (repo: string, tag = "v1"): string => `${tokenProxy.host}/${repo}:${tag}`;
  const creds = (): CredentialLookup => dockerConfig(tokenProxy.host, { username: USER, password: PASSWORD });

  test("a private image: one token, reused for every request of the repository until it expires", async () => {
    const shared = resolver(tokenProxy);
    tokens.requests.splice(0);
    tokenProxy.reset();
    expect(await shared.resolve(image("private/demo"), creds())).toMatchObject({
      kind: "found",
      config: configYaml("token-v1"),
    });
    expect(tokens.requests).toEqual([`?service=${TOKEN_SERVICE}&scope=repository%3Aprivate%2Fdemo%3Apull`]);
    // 401 challenge, then manifest and config with the token.
    expect(tokenProxy.seen.map((s) => s.kind)).toEqual(["manifest", "manifest", "blob"]);

    tokenProxy.reset();
    expect(await shared.resolve(image("private/demo", "v2"), creds())).toMatchObject({
      kind: "found",
      config: configYaml("token-v2"),
    });
    expect(tokens.requests).toHaveLength(1);
    expect(tokenProxy.seen.map((s) => s.kind)).toEqual(["manifest", "blob"]);
  });

  test("an expired token is renewed up front (injected clock; renewal 10 s before expires_in)", async () => {
    tokens.expiresIn = 60;
    const shared = resolver(tokenProxy, { tagTtlMs: 1000 });
    tokens.requests.splice(0);
    await shared.resolve(image("private/demo"), creds());
    now += 49_000;
    await shared.resolve(image("private/demo"), creds());
    expect(tokens.requests).toHaveLength(1);
    now += 2_000;
    tokenProxy.reset();
    await shared.resolve(image("private/demo"), creds());
    expect(tokens.requests).toHaveLength(2);
    expect(tokenProxy.seen.map((s) => s.kind)).toEqual(["manifest"]);
    tokens.expiresIn = 300;
  });

  test("anonymous pull of a public repository with an anonymous token", async () => {
    expect(await resolver(tokenProxy).resolve(image("public/demo"))).toMatchObject({
      kind: "found",
      config: configYaml("token-public"),
    });
  });

  test("anonymous pull of a private repository: RegistryAuthRequired", async () => {
    const result = await resolver(tokenProxy).resolve(image("private/demo"));
    expect(result).toMatchObject({ kind: "error", reason: "RegistryAuthRequired", transient: false });
  });

  test("bad credentials are refused by the token service: RegistryAuthFailed without the password", async () => {
    const result = await resolver(tokenProxy).resolve(
      image("private/demo"),
      dockerConfig(tokenProxy.host, { username: USER, password: "wrong-password" }),
    );
    expect(result).toMatchObject({ kind: "error", reason: "RegistryAuthFailed" });
    expect(result.kind === "error" && result.message).toContain("token service");
    expectNoSecret(result);
  });

  test("a token realm at a link-local (metadata) address is never contacted", async () => {
    tokenProxy.fault = (seen) =>
      seen.kind === "manifest"
        ? {
            respond: {
              status: 401,
              headers: { "www-authenticate": 'Bearer realm="http://169.254.169.254/token",service="x"' },
            },
          }
        : undefined;
    try {
      const result = await resolver(tokenProxy).resolve(image("private/demo"), creds());
      expect(result).toMatchObject({ kind: "error", reason: "RegistryNotAllowed", transient: false });
      expect(result.kind === "error" && result.message).toContain("169.254.169.254");
    } finally {
      tokenProxy.fault = undefined;
    }
  });
});

/**
 * Every host the registry sends the hooks to obeys the same policy as the registry itself
 * (lib/oci/http.ts, session.ts, ssrf.ts): a redirect target and a token realm pass the
 * allow-list and the internal-address checks before any request, and `Authorization` never
 * follows a redirect to another origin. Real HTTP servers on 127.0.0.1: an htpasswd registry
 * behind the fault-injecting proxy, a token server, and a recorder that notes what reached it.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import {
  createBaseConfigResolver,
  credentialLookup,
  parseDockerConfigJson,
  type BaseConfigResolverOptions,
  type CredentialLookup,
} from "../../lib/oci";
import { createRegistryGuard } from "../../lib/oci/ssrf";
import { guardResolver } from "../../lib/oci/guard-resolver";
import { b64, configYaml } from "./support/configs";
import { pushImage } from "./support/images";
import { startProxy, type Proxy } from "./support/proxy";
import { startRegistry, type Registry } from "./support/registry";
import { startTokenServer, type TokenServer } from "./support/token-server";

const USER = "testuser";
const PASSWORD = "testpass"; // tests/fixtures/oci/htpasswd
const BASIC = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString("base64")}`;

/** Serves what the registry serves (as presigned blob storage would, with its own credentials) and records each request's headers. */
interface Recorder {
  readonly host: string;
  readonly seen: IncomingHttpHeaders[];
  close(): Promise<void>;
}

async function startRecorder(upstream: string): Promise<Recorder> {
  const seen: IncomingHttpHeaders[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(req.headers);
    const out = httpRequest(
      new URL(req.url ?? "/", `http://${upstream}`),
      { headers: { authorization: BASIC } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on("error", () => res.destroy());
    out.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    host: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let registry: Registry;
let proxy: Proxy;
let recorder: Recorder;
let tokens: TokenServer;
const IMAGE = () => `${proxy.host}/private/demo:v1`;
const creds = (): CredentialLookup => {
  const parsed = parseDockerConfigJson(
    JSON.stringify({ auths: { [proxy.host]: { username: USER, password: PASSWORD } } }),
  );
  if (!parsed.ok) throw new Error(parsed.error.message);
  return credentialLookup(parsed.value);
};

beforeAll(async () => {
  registry = await startRegistry({ kind: "htpasswd", htpasswdFile: join(__dirname, "../fixtures/oci/htpasswd") });
  proxy = await startProxy(registry.host);
  recorder = await startRecorder(registry.host);
  tokens = await startTokenServer({ [USER]: PASSWORD });
  await pushImage({ url: registry.url, authorization: () => BASIC }, "private/demo", "v1", {
    labels: { "io.llamastack.config.base64": b64(configYaml("hops")) },
  });
}, 60_000);

afterAll(async () => {
  await proxy?.close();
  await recorder?.close();
  await tokens?.close();
  await registry?.stop();
});

beforeEach(() => {
  proxy.reset();
  proxy.fault = undefined;
  recorder.seen.length = 0;
  tokens.requests.length = 0;
});

/** Blob GETs answered with a redirect to `location(path)`; the redirected request itself passes. */
function redirectBlobs(location: (path: string) => string): void {
  const redirected = new Set<string>();
  proxy.fault = (seen) => {
    if (seen.kind !== "blob" || redirected.has(seen.path)) return undefined; // the redirected request itself passes
    redirected.add(seen.path);
    return { respond: { status: 307, headers: { location: location(seen.path) } } };
  };
}

/** The hooks' resolver: the proxy listed as an insecure registry, `extra` on top, behind the guard as in production. */
function resolver(extra: BaseConfigResolverOptions = {}) {
  const policy = { insecureRegistries: [proxy.host], ...extra };
  const guard = createRegistryGuard(policy);
  return guardResolver(createBaseConfigResolver({ ...policy, hopGuard: guard, retryBaseMs: 1 }), guard);
}

describe("redirects", () => {
  it("to the same origin: followed with the Authorization header (the registry needs it)", async () => {
    redirectBlobs((path) => `http://${proxy.host}${path}?hop=1`);
    const result = await resolver().resolve(IMAGE(), creds());
    expect(result).toMatchObject({ kind: "found", config: configYaml("hops") });
    const blobs = proxy.seen.filter((s) => s.kind === "blob").map((s) => s.path);
    expect(blobs.length).toBe(2 * new Set(blobs).size); // each blob: the redirect, then the request it pointed to
  });

  it("to another origin the operator listed: followed, and the Authorization header is dropped", async () => {
    redirectBlobs((path) => `http://${recorder.host}${path}?hop=1`);
    const result = await resolver({ privateRegistries: [recorder.host] }).resolve(IMAGE(), creds());
    expect(result).toMatchObject({ kind: "found", config: configYaml("hops") });
    expect(recorder.seen.length).toBeGreaterThan(0);
    expect(recorder.seen.map((h) => h.authorization)).toEqual(recorder.seen.map(() => undefined));
  });

  it.each([
    ["a loopback address that is not listed", {}, /resolves to 127\.0\.0\.1, a loopback address/],
    ["a host outside the allow-list", { allowedRegistries: [] as string[] }, /is not in the allowed registries/],
  ])("to %s: refused before any request reaches it", async (_what, policy, message) => {
    redirectBlobs((path) => `http://${recorder.host}${path}?hop=1`);
    const extra = "allowedRegistries" in policy ? { allowedRegistries: [proxy.host] } : {};
    const result = await resolver(extra).resolve(IMAGE(), creds());
    expect(result).toMatchObject({ kind: "error", reason: "RegistryNotAllowed", transient: false });
    expect(result.kind === "error" && result.message).toMatch(
      new RegExp(`redirected to ${recorder.host.replace(/\./g, "\\.")}, which this service does not contact`),
    );
    expect(result.kind === "error" && result.message).toMatch(message);
    expect(recorder.seen).toEqual([]);
  });

  it("to a name that resolves to an internal address: refused after the lookup, as for a registry", async () => {
    redirectBlobs((path) => `http://localhost:${recorder.host.split(":")[1]}${path}?hop=1`);
    const result = await resolver().resolve(IMAGE(), creds());
    expect(result).toMatchObject({ kind: "error", reason: "RegistryNotAllowed" });
    expect(result.kind === "error" && result.message).toMatch(/resolves to (127\.0\.0\.1|::1), a loopback address/);
    expect(recorder.seen).toEqual([]);
  });
});

describe("token realms from WWW-Authenticate", () => {
  const challenge = () => {
    proxy.fault = (seen) =>
      seen.kind === "manifest"
        ? {
            respond: {
              status: 401,
              headers: { "www-authenticate": `Bearer realm="${tokens.realm}",service="test-registry"` },
            },
          }
        : undefined;
  };

  it.each([
    ["at a loopback address that is not listed", {}, /resolves to 127\.0\.0\.1, a loopback address/],
    ["outside the allow-list", { allowedRegistries: [] as string[] }, /is not in the allowed registries/],
  ])("%s: never contacted, the credentials stay home", async (_what, policy, message) => {
    challenge();
    const extra = "allowedRegistries" in policy ? { allowedRegistries: [proxy.host] } : {};
    const result = await resolver(extra).resolve(IMAGE(), creds());
    expect(result).toMatchObject({ kind: "error", reason: "RegistryNotAllowed", transient: false });
    expect(result.kind === "error" && result.message).toMatch(
      new RegExp(
        `named a token service at ${new URL(tokens.realm).host.replace(/\./g, "\\.")} that this service does not contact`,
      ),
    );
    expect(result.kind === "error" && result.message).toMatch(message);
    expect(tokens.requests).toEqual([]);
  });

  it("listed by the operator: contacted (the registry then decides)", async () => {
    challenge();
    await resolver({ privateRegistries: [new URL(tokens.realm).host] }).resolve(IMAGE(), creds());
    expect(tokens.requests.length).toBeGreaterThan(0);
  });
});

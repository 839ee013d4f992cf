/**
 * A Docker token server for the registry's `auth.token` mode: `GET /token?service&scope`, Basic
 * credentials checked against a fixed user, answer `{token, access_token, expires_in}` where the
 * token is an RS256 JWT with the signing certificate in its `x5c` header (what the registry's
 * token auth verifies against its rootcertbundle).
 * Anonymous callers get pull on `public/*` only, as Docker Hub gives public repositories.
 */
import { randomUUID, sign } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { selfSignedCertificate } from "./cert";

export const TOKEN_SERVICE = "test-registry";
export const TOKEN_ISSUER = "test-issuer";

export interface TokenServer {
  readonly realm: string;
  /** PEM for the registry's rootcertbundle. */
  readonly certificatePem: string;
  /** Requests answered so far, for token-reuse assertions. */
  readonly requests: string[];
  /** Seconds a token lives; tests lower it to see renewal. */
  expiresIn: number;
  /** Mint a token directly (fixture pushes skip the HTTP round trip). */
  mint(scope: string, user: string | undefined): string;
  close(): Promise<void>;
}

const b64url = (value: object | Buffer): string =>
  (Buffer.isBuffer(value) ? value : Buffer.from(JSON.stringify(value))).toString("base64url");

function grantedActions(repository: string, wanted: string[], user: string | undefined): string[] {
  if (user !== undefined) return wanted;
  return repository.startsWith("public/") ? wanted.filter((a) => a === "pull") : [];
}

export async function startTokenServer(users: Readonly<Record<string, string>>): Promise<TokenServer> {
  const cert = selfSignedCertificate("test-token-issuer");
  const requests: string[] = [];

  function mint(scope: string, user: string | undefined): string {
    const [type = "", repository = "", actions = ""] = scope.split(":");
    const now = Math.floor(Date.now() / 1000);
    const header = { typ: "JWT", alg: "RS256", x5c: [cert.x5c] };
    const claims = {
      iss: TOKEN_ISSUER,
      sub: user ?? "",
      aud: TOKEN_SERVICE,
      exp: now + server.expiresIn + 60,
      nbf: now - 10,
      iat: now,
      jti: randomUUID(),
      access: [{ type, name: repository, actions: grantedActions(repository, actions.split(","), user) }],
    };
    const signingInput = `${b64url(header)}.${b64url(claims)}`;
    return `${signingInput}.${b64url(sign("sha256", Buffer.from(signingInput), cert.privateKey))}`;
  }

  const http: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://token");
    requests.push(url.search);
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    const [user, password] = basic === undefined ? [] : Buffer.from(basic, "base64").toString().split(":");
    if (basic !== undefined && (user === undefined || users[user] !== password)) {
      res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ details: "bad credentials" }));
      return;
    }
    const token = mint(url.searchParams.get("scope") ?? "", user);
    res.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        token,
        access_token: token,
        expires_in: server.expiresIn,
        issued_at: new Date().toISOString(),
      }),
    );
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;

  const server: TokenServer = {
    realm: `http://127.0.0.1:${port}/token`,
    certificatePem: cert.pem,
    requests,
    expiresIn: 300,
    mint,
    close: () => new Promise((resolve) => http.close(() => resolve())),
  };
  return server;
}

/** RS256 tokens signed here, and the JWKS that verifies them: an OIDC provider on loopback, with node:crypto only. */
import { generateKeyPairSync, sign, type KeyObject } from "node:crypto";

export interface Signer {
  /** The JWKS document (`{keys: [...]}`) the server fetches from `jwks.uri`. */
  readonly jwks: { readonly keys: readonly object[] };
  /** A compact JWS of `claims`, signed RS256 with this signer's key. */
  readonly mint: (claims: { readonly [claim: string]: unknown }) => string;
}

const b64url = (data: Buffer | string): string => Buffer.from(data).toString("base64url");

function compact(kid: string, key: KeyObject, claims: object): string {
  const head = b64url(JSON.stringify({ alg: "RS256", typ: "JWT", kid }));
  const body = b64url(JSON.stringify(claims));
  const signature = sign("sha256", Buffer.from(`${head}.${body}`), key); // RSASSA-PKCS1-v1_5, as RS256 is
  return `${head}.${body}.${b64url(signature)}`;
}

/** A fresh RSA key named `kid`. Two signers with the same kid and different keys make a wrongly signed token. */
export function newSigner(kid: string): Signer {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const jwk = { ...publicKey.export({ format: "jwk" }), kid, alg: "RS256", use: "sig" };
  return { jwks: { keys: [jwk] }, mint: (claims) => compact(kid, privateKey, claims) };
}

/** Standard time claims: issued now, valid for ten minutes. */
export function timeClaims(now = Math.floor(Date.now() / 1000)): { iat: number; nbf: number; exp: number } {
  return { iat: now, nbf: now - 5, exp: now + 600 };
}

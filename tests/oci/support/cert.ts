/**
 * A self-signed RSA certificate made with node:crypto alone (node can sign but not build
 * X.509), so the token-auth tests need no openssl on CI. Minimal DER: v3, CN subject = issuer,
 * basicConstraints CA:true (the registry trusts it as the root of the token's x5c chain).
 */
import { generateKeyPairSync, randomBytes, sign, X509Certificate, type KeyObject } from "node:crypto";

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v >>= 8) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function der(tag: number, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
}

const seq = (...parts: Buffer[]): Buffer => der(0x30, ...parts);
const oid = (hex: string): Buffer => der(0x06, Buffer.from(hex, "hex"));
const SHA256_RSA = seq(oid("2a864886f70d01010b"), der(0x05));

function utcTime(date: Date): Buffer {
  const iso = date.toISOString(); // 2026-01-02T03:04:05.000Z → 260102030405Z
  return der(
    0x17,
    Buffer.from(
      `${iso.slice(2, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`,
    ),
  );
}

function name(commonName: string): Buffer {
  return seq(der(0x31, seq(oid("550403"), der(0x0c, Buffer.from(commonName)))));
}

export interface TestCertificate {
  readonly privateKey: KeyObject;
  /** PEM for the registry's `rootcertbundle`. */
  readonly pem: string;
  /** base64 DER for the JWT `x5c` header. */
  readonly x5c: string;
}

export function selfSignedCertificate(commonName: string): TestCertificate {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const serial = randomBytes(8);
  serial[0] = (serial[0] ?? 0) & 0x7f; // positive INTEGER
  const now = Date.now();
  const basicConstraints = seq(
    oid("551d13"),
    der(0x01, Buffer.from([0xff])),
    der(0x04, seq(der(0x01, Buffer.from([0xff])))),
  );
  const tbs = seq(
    der(0xa0, der(0x02, Buffer.from([2]))),
    der(0x02, serial),
    SHA256_RSA,
    name(commonName),
    seq(utcTime(new Date(now - 3600_000)), utcTime(new Date(now + 24 * 3600_000))),
    name(commonName),
    publicKey.export({ type: "spki", format: "der" }),
    der(0xa3, seq(basicConstraints)),
  );
  const signature = sign("sha256", tbs, privateKey);
  const certificate = seq(tbs, SHA256_RSA, der(0x03, Buffer.from([0]), signature));
  const x5c = certificate.toString("base64");
  const pem = `-----BEGIN CERTIFICATE-----\n${x5c.replace(/.{64}/g, "$&\n").replace(/\n?$/, "\n")}-----END CERTIFICATE-----\n`;
  if (!new X509Certificate(pem).verify(publicKey)) throw new Error("the generated test certificate does not verify");
  return { privateKey, pem, x5c };
}

/**
 * Certificates made at test time with the `openssl` CLI (node:crypto cannot issue X.509
 * certificates). A self-signed one is valid for `localhost` and `127.0.0.1`, so a client that
 * trusts it as its CA verifies the server for real. `makeCa` + `issueCertificate` do what
 * cert-manager's CA Issuer does: a CA, and leaf certificates it signs for the names given.
 */
import { execFileSync } from "node:child_process";
import { X509Certificate } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface TestCertificate {
  readonly cert: Buffer;
  readonly key: Buffer;
  /** As `getPeerCertificate().fingerprint256` reports it. */
  readonly fingerprint256: string;
}

function openssl(args: readonly string[]): void {
  execFileSync("openssl", args, { stdio: ["ignore", "ignore", "pipe"] });
}

const EC_KEY = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];

/** A fresh EC P-256 certificate and key, CN = `commonName`. */
export function makeCertificate(commonName: string): TestCertificate {
  const dir = mkdtempSync(join(tmpdir(), "llsd-cert-"));
  try {
    const certFile = join(dir, "tls.crt");
    const keyFile = join(dir, "tls.key");
    openssl([
      "req",
      "-x509",
      ...EC_KEY,
      "-keyout",
      keyFile,
      "-out",
      certFile,
      "-days",
      "1",
      "-subj",
      `/CN=${commonName}`,
      "-addext",
      "subjectAltName=DNS:localhost,IP:127.0.0.1",
    ]);
    const cert = readFileSync(certFile);
    return { cert, key: readFileSync(keyFile), fingerprint256: new X509Certificate(cert).fingerprint256 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface TestCa extends TestCertificate {
  /** Signs a leaf: the names go into subjectAltName (`DNS:` each), the usage into extendedKeyUsage. */
  issue(
    commonName: string,
    options: { dnsNames?: readonly string[]; usage: "serverAuth" | "clientAuth" },
  ): TestCertificate;
}

/** A fresh EC P-256 CA (basicConstraints CA:TRUE, keyCertSign) that issues leaf certificates. */
export function makeCa(commonName: string): TestCa {
  const dir = mkdtempSync(join(tmpdir(), "llsd-ca-"));
  try {
    const certFile = join(dir, "ca.crt");
    const keyFile = join(dir, "ca.key");
    openssl([
      "req",
      "-x509",
      ...EC_KEY,
      "-keyout",
      keyFile,
      "-out",
      certFile,
      "-days",
      "1",
      "-subj",
      `/CN=${commonName}`,
      "-addext",
      "basicConstraints=critical,CA:TRUE",
      "-addext",
      "keyUsage=critical,keyCertSign,cRLSign",
    ]);
    const ca = { cert: readFileSync(certFile), key: readFileSync(keyFile) };
    return {
      ...ca,
      fingerprint256: new X509Certificate(ca.cert).fingerprint256,
      issue: (cn, options) => issue(ca, cn, options),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function issue(
  ca: { cert: Buffer; key: Buffer },
  commonName: string,
  { dnsNames = [], usage }: { dnsNames?: readonly string[]; usage: "serverAuth" | "clientAuth" },
): TestCertificate {
  const dir = mkdtempSync(join(tmpdir(), "llsd-leaf-"));
  try {
    const [caCert, caKey, csr, key, cert, ext] = ["ca.crt", "ca.key", "leaf.csr", "tls.key", "tls.crt", "leaf.ext"].map(
      (f) => join(dir, f),
    ) as [string, string, string, string, string, string];
    writeFileSync(caCert, ca.cert);
    writeFileSync(caKey, ca.key);
    const san = dnsNames.length > 0 ? [`subjectAltName=${dnsNames.map((n) => `DNS:${n}`).join(",")}`] : [];
    writeFileSync(
      ext,
      [...san, "basicConstraints=CA:FALSE", "keyUsage=critical,digitalSignature", `extendedKeyUsage=${usage}`].join(
        "\n",
      ),
    );
    openssl(["req", "-new", ...EC_KEY, "-keyout", key, "-out", csr, "-subj", `/CN=${commonName}`]);
    openssl([
      "x509",
      "-req",
      "-in",
      csr,
      "-CA",
      caCert,
      "-CAkey",
      caKey,
      "-CAcreateserial",
      "-out",
      cert,
      "-days",
      "1",
      "-extfile",
      ext,
    ]);
    const pem = readFileSync(cert);
    return { cert: pem, key: readFileSync(key), fingerprint256: new X509Certificate(pem).fingerprint256 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

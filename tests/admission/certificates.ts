/**
 * Self-signed certificates made at test time with the `openssl` CLI (node:crypto cannot issue
 * X.509 certificates). Each is valid for `localhost` and `127.0.0.1`, so a client that trusts
 * it as its CA verifies the server for real.
 */
import { execFileSync } from "node:child_process";
import { X509Certificate } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface TestCertificate {
  readonly cert: Buffer;
  readonly key: Buffer;
  /** As `getPeerCertificate().fingerprint256` reports it. */
  readonly fingerprint256: string;
}

/** A fresh EC P-256 certificate and key, CN = `commonName`. */
export function makeCertificate(commonName: string): TestCertificate {
  const dir = mkdtempSync(join(tmpdir(), "llsd-cert-"));
  try {
    const certFile = join(dir, "tls.crt");
    const keyFile = join(dir, "tls.key");
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
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
      ],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    const cert = readFileSync(certFile);
    return { cert, key: readFileSync(keyFile), fingerprint256: new X509Certificate(cert).fingerprint256 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

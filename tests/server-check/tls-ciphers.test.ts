/**
 * HTTPS on every line as the docs promise it: with `networking.tls` the server serves the
 * certificate with its FIPS-approved cipher suites. The 1.x entrypoint always runs
 * `ogx stack run --insecure`, and `--insecure` skips the server's own cipher defaults
 * (`validate_fips_tls` in server_tls.py returns the config's `tls_config` untouched); uvicorn
 * then gets `ssl_ciphers` only from `server.tls_config.ciphers` (run.py). So the generated 1.x
 * config names them itself. 0.7 and 0.8 have no `tls_config` and no FIPS defaults to lose.
 */
import { join } from "node:path";
import { parse } from "yaml";
import { TLS_MOUNT_DIR } from "../../lib/defaults";
import { RELEASES, type Release } from "../../lib/distributions/table";
import { sync } from "../../lib/sync/sync";
import { fixtureFound } from "../external-fixtures";
import { deps, sampleRequest } from "../sync-builders";
import { checkServerConfig } from "./check";
import { serverCheckOf, tableFor } from "./from-sync";
import { schemaTagOf } from "../../lib/distributions/releases";

/** server_tls.py at v1.3.0: FIPS_APPROVED_CIPHERS, copied here so the hooks' list is checked against upstream's. */
const UPSTREAM_FIPS = [
  "ECDHE-ECDSA-AES128-GCM-SHA256",
  "ECDHE-RSA-AES128-GCM-SHA256",
  "ECDHE-ECDSA-AES256-GCM-SHA384",
  "ECDHE-RSA-AES256-GCM-SHA384",
  "DHE-RSA-AES128-GCM-SHA256",
  "DHE-RSA-AES256-GCM-SHA384",
];

type Server = { tls_certfile?: string; tls_keyfile?: string; insecure?: boolean; tls_config?: { ciphers?: string[] } };

/**
 * What the 1.x launcher hands uvicorn: the entrypoint's `--insecure` sets `server.insecure`,
 * `validate_fips_tls` fills in the FIPS defaults only when not insecure, and `ssl_ciphers` is
 * set from `tls_config.ciphers` (else OpenSSL's defaults).
 */
function servedCiphers(server: Server, entrypointInsecure: boolean): string[] | "openssl-defaults" | "no-tls" {
  if (!server.tls_certfile || !server.tls_keyfile) return "no-tls";
  const insecure = entrypointInsecure || server.insecure === true;
  const ciphers = server.tls_config?.ciphers ?? (insecure ? undefined : UPSTREAM_FIPS);
  return ciphers ?? "openssl-defaults";
}

function tlsConfigOn(release: Release): { server: Server; problems: string[] } {
  const request = sampleRequest(join(__dirname, "..", "..", "samples", "networking-tls.yaml"));
  const answer = sync(request, { ...deps(), distributions: tableFor(release) }, fixtureFound(request.parent.spec));
  const check = serverCheckOf(answer, request.related, release);
  if (!check) throw new Error("networking-tls.yaml mounts no config");
  const doc = parse(check.configYaml) as { server: Server };
  return { server: doc.server, problems: checkServerConfig(check.configYaml, check.env, schemaTagOf(release)) };
}

describe("networking.tls: the ciphers the server really serves", () => {
  // server_tls.py and run.py are the same at v1.2.2 and v1.3.0.
  it.each(RELEASES.filter((r) => r.startsWith("1.")))(
    "on %s, through the entrypoint's --insecure, the FIPS-approved suites (the config names them)",
    (release) => {
      const { server, problems } = tlsConfigOn(release);
      expect(problems).toEqual([]);
      expect(servedCiphers(server, true)).toEqual(UPSTREAM_FIPS);
    },
  );

  it.each(RELEASES.filter((r) => !r.startsWith("1.")))(
    "on %s, HTTPS with the certificate, and no tls_config the line lacks",
    (release) => {
      const { server, problems } = tlsConfigOn(release);
      expect(problems).toEqual([]);
      // These lines have no cipher setting and no FIPS defaults: uvicorn's (OpenSSL's) suites.
      expect(server.tls_config).toBeUndefined();
      expect([server.tls_certfile, server.tls_keyfile]).toEqual([
        `${TLS_MOUNT_DIR}/tls.crt`,
        `${TLS_MOUNT_DIR}/tls.key`,
      ]);
    },
  );

  it("without the generated tls_config, 1.x would serve OpenSSL's defaults: the case the config closes", () => {
    const { server } = tlsConfigOn("1.3");
    const { tls_config: _dropped, ...without } = server;
    expect(servedCiphers(without, true)).toBe("openssl-defaults");
  });
});

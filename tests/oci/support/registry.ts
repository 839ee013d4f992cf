/**
 * A real registry per test file: Debian's `docker-registry` (distribution 2.8) on 127.0.0.1:0,
 * its port read from the `listening on` log line, storage in a temp dir, stopped with SIGKILL
 * (SIGTERM drains for ~1.5 s). Missing binary = failed suite, not a skip.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export type RegistryAuth =
  | { readonly kind: "none" }
  | { readonly kind: "htpasswd"; readonly htpasswdFile: string }
  | {
      readonly kind: "token";
      readonly realm: string;
      readonly service: string;
      readonly issuer: string;
      readonly certificatePem: string;
    };

export interface Registry {
  /** host:port, e.g. 127.0.0.1:40123. */
  readonly host: string;
  readonly url: string;
  stop(): Promise<void>;
}

export const INSTALL_HINT =
  "The OCI e2e tests need Debian's docker-registry: run `apt-get install -y docker-registry`.";

export function requireDockerRegistry(): void {
  const probe = spawnSync("docker-registry", ["--version"], { encoding: "utf8" });
  if (probe.error !== undefined) throw new Error(`${INSTALL_HINT} (${probe.error.message})`);
}

function authSection(auth: RegistryAuth, dir: string): string {
  switch (auth.kind) {
    case "none":
      return "";
    case "htpasswd":
      return `auth:\n  htpasswd:\n    realm: basic-realm\n    path: ${auth.htpasswdFile}\n`;
    case "token": {
      const bundle = join(dir, "token.crt");
      writeFileSync(bundle, auth.certificatePem);
      return `auth:\n  token:\n    realm: ${auth.realm}\n    service: ${auth.service}\n    issuer: ${auth.issuer}\n    rootcertbundle: ${bundle}\n`;
    }
  }
}

export async function startRegistry(auth: RegistryAuth = { kind: "none" }): Promise<Registry> {
  requireDockerRegistry();
  const dir = mkdtempSync(join(tmpdir(), "llsd-oci-registry-"));
  const config = join(dir, "config.yml");
  writeFileSync(
    config,
    [
      "version: 0.1",
      "log:\n  level: info\n  accesslog: {disabled: true}",
      `storage:\n  filesystem: {rootdirectory: ${join(dir, "data")}}\n  delete: {enabled: true}`,
      "http:\n  addr: 127.0.0.1:0\n  secret: not-a-secret-test-only",
      authSection(auth, dir),
    ].join("\n"),
  );
  const child: ChildProcess = spawn("docker-registry", ["serve", config], { stdio: ["ignore", "pipe", "pipe"] });
  const log: string[] = [];
  const cleanup = (): void => rmSync(dir, { recursive: true, force: true });
  try {
    const port = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`docker-registry did not start within 10 s:\n${log.join("")}`)),
        10_000,
      );
      const onData = (chunk: Buffer): void => {
        log.push(chunk.toString());
        if (log.length > 200) log.shift(); // the registry keeps logging; keep reading so its pipe never fills
        const match = /listening on 127\.0\.0\.1:(\d+)/.exec(log.join(""));
        if (match?.[1] !== undefined) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      };
      child.stdout?.on("data", onData);
      child.stderr?.on("data", onData);
      child.once("exit", (code) => reject(new Error(`docker-registry exited (${String(code)}):\n${log.join("")}`)));
      child.once("error", (err) => reject(new Error(`${INSTALL_HINT} (${err.message})`)));
    });
    const host = `127.0.0.1:${port}`;
    return {
      host,
      url: `http://${host}`,
      stop: async () => {
        if (child.exitCode === null && child.signalCode === null) {
          const exited = new Promise((resolve) => child.once("exit", resolve));
          child.kill("SIGKILL");
          await exited;
        }
        cleanup();
      },
    };
  } catch (err) {
    child.kill("SIGKILL");
    cleanup();
    throw err;
  }
}

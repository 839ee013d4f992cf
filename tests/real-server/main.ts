/**
 * `npm run test:server`: the real OGX server as a test tier (docs/development.md, "The real server
 * as a test tier"). Not part of `npm test` or CI: it needs a Python with the server
 * (OGX_SERVER_PYTHON) and takes about a minute per case. One line per case, PASS, FAIL or SKIP
 * with the reason; the exit code is 1 when any case fails. Arguments filter cases by label.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { casesOf, type Case } from "./cases";
import { docInputs, sampleInputs } from "./inputs";
import { runCase, type Tier, type Verdict } from "./run-case";
import { POSTGRES_PARTS, startPostgres, startRedis, type Store } from "./stores";
import { startUpstream } from "./upstream";
import { resetStore, storeHolds } from "./reset";
import { killAll } from "./server";

const python = process.env.OGX_SERVER_PYTHON;
if (!python) {
  console.log(
    "SKIP test:server: set OGX_SERVER_PYTHON to a Python where `python -m ogx.cli.ogx run` works (docs/development.md)",
  );
  process.exit(0);
}

const BASE = Number(process.env.OGX_TEST_PORT_BASE ?? 18800);
const PORTS = { server: BASE + 1, upstream: BASE + 2, redis: BASE + 3, postgres: BASE + 4 };
const BOOT_TIMEOUT_MS = Number(process.env.OGX_BOOT_TIMEOUT ?? 300) * 1000;

/** A certificate and key for 127.0.0.1 (openssl), served by TLS cases and used as every mounted CA file. */
function makeCert(dir: string): { cert: string; key: string } {
  const cert = join(dir, "tls.crt");
  const key = join(dir, "tls.key");
  const args = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1"];
  const made = spawnSync("openssl", [...args, "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", cert]);
  if (made.status !== 0) throw new Error(`openssl could not make a test certificate: ${String(made.stderr)}`);
  return { cert, key };
}

const stores = new Map<"redis" | "postgres", Store | string>();

async function store(root: string, kind: "redis" | "postgres"): Promise<string | undefined> {
  let s = stores.get(kind);
  if (s === undefined) {
    s = kind === "redis" ? await startRedis(PORTS.redis, join(root, "redis")) : startPostgres(PORTS.postgres);
    stores.set(kind, s);
  }
  if (typeof s === "string") return s;
  return resetStore(kind, kind === "redis" ? PORTS.redis : PORTS.postgres);
}

function print(label: string, v: Verdict): void {
  console.log(`${v.result} ${label}: ${v.reason}`);
}

function onInterrupt(): void {
  for (const signal of ["SIGINT", "SIGTERM"] as const)
    process.once(signal, () => {
      killAll();
      for (const s of stores.values()) if (typeof s !== "string") s.stop();
      process.exit(130);
    });
}

async function main(): Promise<number> {
  onInterrupt();
  const root = mkdtempSync(join(tmpdir(), "llsd-server-tier-"));
  const upstream = await startUpstream(PORTS.upstream);
  const parts: { [k: string]: string } = { ...POSTGRES_PARTS, port: String(PORTS.postgres) };
  const tier: Tier = {
    python: python!,
    serverPort: PORTS.server,
    upstream,
    local: { upstream: upstream.url, redisPort: PORTS.redis, postgresPort: PORTS.postgres, tls: makeCert(root) },
    bootTimeoutMs: BOOT_TIMEOUT_MS,
    store: (kind) => store(root, kind),
    // A KV store on a DSN of its own reads `kv-host`…: the same local Postgres.
    postgresParts: (key) => parts[key.replace(/^kv-/, "")] ?? "",
    storeHolds: (kind) => storeHolds(kind, kind === "redis" ? PORTS.redis : PORTS.postgres),
  };
  const filters = process.argv.slice(2);
  const cases: Case[] = [...sampleInputs(), ...docInputs()]
    .flatMap(casesOf)
    .filter((c) => filters.length === 0 || filters.some((f) => c.label.includes(f)));
  const tally = { PASS: 0, FAIL: 0, SKIP: 0 };
  try {
    for (const [i, c] of cases.entries()) {
      const v: Verdict =
        "skip" in c
          ? { result: "SKIP", reason: c.skip }
          : "fail" in c
            ? { result: "FAIL", reason: c.fail }
            : await runCase(c, tier, join(root, `case-${i}`));
      tally[v.result]++;
      print(c.label, v);
    }
  } finally {
    for (const s of stores.values()) if (typeof s !== "string") s.stop();
    await upstream.close();
    if (tally.FAIL === 0) rmSync(root, { recursive: true, force: true });
  }
  console.log(
    `test:server: ${tally.PASS} passed, ${tally.FAIL} failed, ${tally.SKIP} skipped${tally.FAIL > 0 ? ` (state and logs kept in ${root})` : ""}`,
  );
  return tally.FAIL > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);

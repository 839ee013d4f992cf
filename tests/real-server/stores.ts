/**
 * A real Redis and a real Postgres on loopback, started when a case's config needs them (Debian's
 * `redis-server` and `postgresql` packages), or the reason they cannot be.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { connect } from "node:net";
import { join } from "node:path";

/** The DSN parts the hooks split into their own Secret, for the local Postgres (trust auth). */
export const POSTGRES_PARTS = { host: "127.0.0.1", db: "llsd", user: "llsd", password: "llsd-test" } as const;

export interface Store {
  readonly stop: () => void;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function answers(port: number, say: string, expect: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(say));
    socket.setTimeout(1000, () => (socket.destroy(), resolve(false)));
    socket.on("data", (d: Buffer) => (socket.destroy(), resolve(d.toString().startsWith(expect))));
    socket.on("error", () => resolve(false));
  });
}

export async function startRedis(port: number, dir: string): Promise<Store | string> {
  if (spawnSync("redis-server", ["--version"]).status !== 0) return "redis-server is not installed";
  mkdirSync(dir, { recursive: true });
  const args = ["--bind", "127.0.0.1", "--port", String(port), "--save", "", "--appendonly", "no", "--dir", dir];
  const child: ChildProcess = spawn("redis-server", args, { detached: true, stdio: "ignore" });
  for (let i = 0; i < 50; i++) {
    if (await answers(port, "PING\r\n", "+PONG")) return { stop: () => void child.kill("SIGTERM") };
    await sleep(100);
  }
  child.kill("SIGKILL");
  return `redis-server did not answer on 127.0.0.1:${port}`;
}

export function postgresBin(): string | undefined {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, "bin", "initdb"))) : [];
  const newest = versions.sort((a, b) => Number(a) - Number(b)).at(-1);
  return newest === undefined ? undefined : join(root, newest, "bin");
}

/** initdb and postgres refuse to run as root: as root, run them as the `postgres` user. */
function asOwner(bin: string, args: string[]): { status: number | null; stderr: string } {
  const root = process.getuid?.() === 0;
  const run = root ? spawnSync("runuser", ["-u", "postgres", "--", bin, ...args]) : spawnSync(bin, args);
  return { status: run.status, stderr: String(run.stderr ?? "").trim() };
}

/** Postgres keeps its files in a directory of its own under the system temp dir: run as `postgres`, it must reach them. */
export function startPostgres(port: number): Store | string {
  const bin = postgresBin();
  if (bin === undefined) return "Postgres is not installed (no /usr/lib/postgresql/*/bin/initdb)";
  const dir = mkdtempSync(join(tmpdir(), "llsd-server-pg-"));
  if (process.getuid?.() === 0) chownSync(dir, Number(spawnSync("id", ["-u", "postgres"]).stdout), 0);
  const data = join(dir, "data");
  const init = asOwner(join(bin, "initdb"), ["-D", data, "-U", "postgres", "-A", "trust"]);
  if (init.status !== 0)
    return (rmSync(dir, { recursive: true, force: true }), `initdb failed: ${init.stderr.split("\n").at(-1)}`);
  const options = `-h 127.0.0.1 -p ${port} -k ${dir}`;
  const start = asOwner(join(bin, "pg_ctl"), ["-D", data, "-o", options, "-l", join(dir, "log"), "-w", "start"]);
  if (start.status !== 0)
    return (
      rmSync(dir, { recursive: true, force: true }),
      `postgres did not start on 127.0.0.1:${port}: ${start.stderr}`
    );
  const { db, user, password } = POSTGRES_PARTS;
  const sql = [`CREATE USER ${user} PASSWORD '${password}'`, `CREATE DATABASE ${db} OWNER ${user}`];
  const psql = ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-q", ...sql.flatMap((c) => ["-c", c])];
  const made = asOwner(join(bin, "psql"), psql);
  const stop = (): void => {
    asOwner(join(bin, "pg_ctl"), ["-D", data, "-m", "fast", "-w", "stop"]);
    rmSync(dir, { recursive: true, force: true });
  };
  if (made.status !== 0) return (stop(), `could not create the database: ${made.stderr}`);
  return { stop };
}

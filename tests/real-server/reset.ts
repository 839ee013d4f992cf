/** Each case starts on empty stores: what one server registered must not be listed for the next. */
import { spawnSync } from "node:child_process";
import { connect } from "node:net";
import { join } from "node:path";
import { POSTGRES_PARTS, postgresBin } from "./stores";

function flushRedis(port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1", () => socket.write("FLUSHALL\r\n"));
    socket.setTimeout(5000, () => (socket.destroy(), resolve("Redis did not answer FLUSHALL")));
    socket.on(
      "data",
      (d: Buffer) => (socket.destroy(), resolve(d.toString().startsWith("+OK") ? undefined : d.toString())),
    );
    socket.on("error", (e) => resolve(`Redis: ${e.message}`));
  });
}

function recreateDatabase(port: number, psql: string): string | undefined {
  const { db, user } = POSTGRES_PARTS;
  const sql = [`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`, `CREATE DATABASE ${db} OWNER ${user}`];
  const args = ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-q", ...sql.flatMap((c) => ["-c", c])];
  const run = spawnSync(psql, args);
  return run.status === 0 ? undefined : `Postgres: ${String(run.stderr).trim()}`;
}

export async function resetStore(kind: "redis" | "postgres", port: number): Promise<string | undefined> {
  if (kind === "redis") return flushRedis(port);
  return recreateDatabase(port, join(postgresBin() ?? "/usr/bin", "psql"));
}

function redisKeys(port: number): Promise<number> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1", () => socket.write("DBSIZE\r\n"));
    socket.setTimeout(5000, () => (socket.destroy(), resolve(0)));
    socket.on("data", (d: Buffer) => (socket.destroy(), resolve(Number(/^:(\d+)/.exec(d.toString())?.[1] ?? 0))));
    socket.on("error", () => resolve(0));
  });
}

function postgresTables(port: number): number {
  const sql = "select count(*) from information_schema.tables where table_schema = 'public'";
  const args = ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-d", POSTGRES_PARTS.db, "-tAc", sql];
  return Number(String(spawnSync(join(postgresBin() ?? "/usr/bin", "psql"), args).stdout).trim()) || 0;
}

/** How much the server wrote to a store (Redis keys, Postgres tables): a backend it did not use holds nothing. */
export async function storeHolds(kind: "redis" | "postgres", port: number): Promise<string> {
  return kind === "redis"
    ? `Redis holds ${await redisKeys(port)} keys`
    : `Postgres holds ${postgresTables(port)} tables`;
}

/**
 * The real server: `python -m ogx.cli.ogx run CONFIG --port P --insecure` (the 1.x image's
 * entrypoint passes `--insecure`: no FIPS check without TLS files), in its own process group, with
 * HOME and the store and files directories in the case's state directory and Hugging Face offline.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { call, type Target } from "./http";

export interface Running {
  readonly log: string;
  readonly stop: () => Promise<void>;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export interface StartOptions {
  readonly python: string;
  readonly configPath: string;
  readonly port: number;
  readonly stateDir: string;
  readonly env: { readonly [name: string]: string };
}

/**
 * The developer's environment reaches the server only where it says how to run Python: the pod
 * has none of it, and a stray OPENAI_API_KEY or VLLM_URL would turn providers on.
 */
function passedThrough(): { [name: string]: string } {
  const keep = (name: string): boolean =>
    ["PATH", "LANG", "LC_ALL", "TMPDIR", "PYTHONPATH", "VIRTUAL_ENV", "OGX_SRC"].includes(name) ||
    name.startsWith("OGX_SERVER_");
  return Object.fromEntries(
    Object.entries(process.env).filter((e): e is [string, string] => keep(e[0]) && e[1] !== undefined),
  );
}

export function startServer(o: StartOptions): { child: ChildProcess; log: string } {
  const log = join(o.stateDir, "server.log");
  const out = openSync(log, "w");
  const env = {
    ...passedThrough(),
    HOME: o.stateDir,
    SQLITE_STORE_DIR: join(o.stateDir, "store"),
    FILES_STORAGE_DIR: join(o.stateDir, "files"),
    HF_HUB_OFFLINE: "1",
    TRANSFORMERS_OFFLINE: "1",
    COLUMNS: "400", // the server logs through rich: one line per message, so a FAIL line quotes all of it
    ...o.env,
  };
  const args = ["-m", "ogx.cli.ogx", "run", o.configPath, "--port", String(o.port), "--insecure"];
  const child = spawn("nice", ["-n", "10", o.python, ...args], { detached: true, env, stdio: ["ignore", out, out] });
  closeSync(out);
  live.add(child);
  child.once("exit", () => live.delete(child));
  return { child, log };
}

/** Servers still running: stopped on Ctrl-C too, since each runs in a process group of its own. */
const live = new Set<ChildProcess>();

export function killAll(): void {
  for (const child of live)
    try {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    } catch {
      // already gone
    }
}

/** Stops the whole process group (uvicorn workers too): TERM, then KILL after 15 s. */
export async function stopGroup(child: ChildProcess): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  const signal = (s: NodeJS.Signals | 0): boolean => {
    try {
      process.kill(-pid, s);
      return true;
    } catch {
      return false;
    }
  };
  if (!signal("SIGTERM")) return;
  for (let i = 0; i < 30 && signal(0); i++) await sleep(500);
  signal("SIGKILL");
}

/** Waits for `/v1/health` to answer 200; a reason when the process ends first or time runs out. */
export async function waitHealthy(child: ChildProcess, target: Target, timeoutMs: number): Promise<string | undefined> {
  const exited = new Promise<string>((resolve) => child.once("exit", (code) => resolve(`exited with ${code}`)));
  let gone: string | undefined;
  void exited.then((reason) => (gone = reason));
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (gone !== undefined) return gone;
    const health = await call(target, "GET", "/v1/health").catch(() => undefined);
    if (health?.status === 200) return undefined;
    await sleep(1000);
  }
  return `no answer from /v1/health in ${Math.round(timeoutMs / 1000)} s`;
}

/** The last line of the log that names an error: what a FAIL line quotes. */
export function lastError(log: string): string {
  const lines = readFileSync(log, "utf8").split("\n");
  const error = lines.filter((l) => /Error|error:|Exception/.test(l)).at(-1) ?? lines.filter((l) => l.trim()).at(-1);
  return (error ?? "").replace(/\s+/g, " ").trim().slice(0, 240);
}

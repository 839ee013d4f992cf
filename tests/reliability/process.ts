/**
 * The real service as a child process: `node --import tsx hooks/main.ts`, exactly what the
 * image runs (compiled there), on a free port, ready once `/healthz` answers (whatever the log
 * level). Its log lines are collected; `signal` sends a signal; `exited` resolves with the exit
 * code. A service that does not come up is killed, and the start rejects with its output.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { get } from "node:http";
import { createServer, type AddressInfo } from "node:net";
import { join } from "node:path";

const ROOT = join(__dirname, "..", "..");

export interface ServiceProcess {
  readonly port: number;
  readonly child: ChildProcess;
  /** Every stdout line so far, parsed when it is JSON. */
  lines(): { level: number; msg: string; [field: string]: unknown }[];
  /** Raw stdout + stderr so far. */
  output(): string;
  readonly exited: Promise<number | null>;
  signal(signal: NodeJS.Signals): void;
  /** SIGKILL unless already gone. */
  kill(): Promise<void>;
}

/** A port nothing listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

function healthy(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = get({ host: "127.0.0.1", port, path: "/healthz", timeout: 500 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on("error", () => resolve(false));
    req.on("timeout", () => req.destroy());
  });
}

export async function startServiceProcess(
  env: Record<string, string>,
  startTimeoutMs = 20_000,
): Promise<ServiceProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, "hooks", "main.ts")], {
    cwd: ROOT,
    // No registry, no running servers: the hooks answer from the request alone.
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/tmp",
      LLSD_READ_IMAGE_LABELS: "false",
      LLSD_LIVE_STATUS: "false",
      ...env,
      PORT: String(port),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString("utf8");
    stdout += chunk.toString("utf8");
  });
  child.stderr.on("data", (chunk: Buffer) => void (out += chunk.toString("utf8")));
  // "close", not "exit": the output is complete then.
  const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  const lines = () =>
    stdout
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as { level: number; msg: string; [field: string]: unknown });
  const kill = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await exited;
  };

  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      const code = await exited;
      throw new Error(`the service exited with ${code ?? child.signalCode} before listening:\n${out}`);
    }
    if (await healthy(port)) break;
    if (Date.now() - started > startTimeoutMs) {
      await kill();
      throw new Error(`the service did not answer /healthz within ${startTimeoutMs} ms:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }

  return {
    port,
    child,
    lines,
    output: () => out,
    exited,
    signal: (signal) => void child.kill(signal),
    kill,
  };
}

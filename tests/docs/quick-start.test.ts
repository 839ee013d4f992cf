/**
 * The README's local quick start fails fast: when the hooks cannot start (here: their port is
 * taken by a server that is not the hooks), the wait stops, prints the reason from the hooks'
 * fatal log line, and the request after it is not sent. And its stop step stops exactly what the
 * quick start started (npm, tsx and the service), so the port is free after it. Run as the
 * README writes it (bash, the real `npm start`); its other runs are in examples.test.ts.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(__dirname, "..", "..");

/** The first shell block of the README after `heading`. */
function blockAfter(heading: string): string {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf(heading));
  return /```sh\n([^]*?)\n```/.exec(section)?.[1] ?? "";
}

/** The shell block under "Quick start, on your machine", without `npm ci` (done before the tests). */
function quickStart(): string {
  return blockAfter("## Quick start, on your machine").replace(/^npm ci\b.*$/m, ":");
}

/** Runs `script` with bash as a reader would, the README's port and files moved to this test's. */
async function bash(script: string, port: number): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn("bash", ["-c", local(script, port)], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1" },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => void (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => void (stderr += d.toString()));
  const status = await new Promise<number | null>((resolve) => child.on("close", resolve));
  return { status, stdout, stderr };
}

function local(script: string, port: number): string {
  return script
    .replace(/localhost:8080/g, `localhost:${port}`)
    .replace(/\/tmp\/llsd-hooks\.log/g, join(scratch, "hooks.log"))
    .replace(/\/tmp\/llsd-hooks\.pid/g, join(scratch, "hooks.pid"));
}

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === "object" && address !== null ? address.port : 0;
}

/** True when a listener can take the port (nothing holds it any more). */
async function isFree(port: number): Promise<boolean> {
  const server = createServer();
  const free = await new Promise<boolean>((resolve) => {
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => resolve(true));
  });
  await new Promise((resolve) => server.close(resolve));
  return free;
}

let holder: Server | undefined;
/** The process group the quick start started, once it did. */
let startedGroup = 0;
let scratch = "";
afterAll(() => {
  holder?.close();
  // A failed stop step must not leave this test's hooks running.
  if (startedGroup > 1) spawnSync("kill", ["-KILL", "--", `-${startedGroup}`]);
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

it("stops with the reason when the hooks' port is taken", async () => {
  // Another HTTP server on the port: it answers every request 404, so the wait cannot succeed.
  holder = createServer((socket) => socket.end("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"));
  const port = await new Promise<number>((resolve) => {
    holder?.listen(0, "127.0.0.1", () => {
      const address = holder?.address();
      resolve(typeof address === "object" && address !== null ? address.port : 0);
    });
  });
  scratch = mkdtempSync(join(tmpdir(), "llsd-quick-start-"));
  const { status, stdout, stderr } = await bash(quickStart(), port);
  expect({ status, stdout, stderr }).toEqual({
    status: expect.any(Number),
    stdout: `"reason":"port ${port} is already in use by another process: stop it, or set PORT to a free port"\n`,
    // Job control reports the job that exited, as an interactive shell does; nothing else.
    stderr: expect.stringMatching(/^(\[1\]\+ +Exit 1 +LLSD_READ_IMAGE_LABELS=false npm start .*\n)?$/),
  });
}, 120_000);

it("the stop step stops npm, tsx and the service, and frees the port", async () => {
  scratch ||= mkdtempSync(join(tmpdir(), "llsd-quick-start-"));
  const port = await freePort();
  const started = await bash(quickStart(), port);
  expect(started.stdout).toMatch(/^Pending ConfigMap Deployment NetworkPolicy Service\n/);
  const group = readFileSync(join(scratch, "hooks.pid"), "utf8").trim();
  startedGroup = Number(group);
  const members = spawnSync("pgrep", ["-g", group], { encoding: "utf8" }).stdout.trim().split("\n");
  expect(members.length).toBeGreaterThanOrEqual(3); // npm, sh/tsx, node: killing npm alone would leave the service
  expect(await isFree(port)).toBe(false);
  const stopped = await bash(blockAfter("To stop the hooks"), port);
  expect({ status: stopped.status, stderr: stopped.stderr }).toEqual({ status: 0, stderr: "" });
  expect(spawnSync("pgrep", ["-g", group]).status).toBe(1); // no process of the group is left
  expect(await isFree(port)).toBe(true);
}, 120_000);

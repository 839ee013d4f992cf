/**
 * The README's local quick start fails fast: when the hooks cannot start (here: their port is
 * taken by a server that is not the hooks), the wait stops, prints the reason from the hooks'
 * fatal log line, and the request after it is not sent. Run as the README writes it (bash, the
 * real `npm start`), on a port this test holds; its other runs are in examples.test.ts.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(__dirname, "..", "..");

/** The shell block under "Quick start, on your machine", without `npm ci` (done before the tests). */
function quickStart(): string {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Quick start, on your machine"));
  const block = /```sh\n([^]*?)\n```/.exec(section)?.[1] ?? "";
  return block.replace(/^npm ci\b.*$/m, ":");
}

let holder: Server | undefined;
let scratch = "";
afterAll(() => {
  holder?.close();
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
  const script = quickStart()
    .replace(/localhost:8080/g, `localhost:${port}`)
    .replace(/\/tmp\/llsd-hooks\.log/g, join(scratch, "hooks.log"));
  const child = spawn("bash", ["-c", script], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1" },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => void (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => void (stderr += d.toString()));
  const status = await new Promise<number | null>((resolve) => child.on("close", resolve));
  expect({ status, stdout, stderr }).toEqual({
    status: expect.any(Number),
    stdout: `"reason":"port ${port} is already in use by another process: stop it, or set PORT to a free port"\n`,
    stderr: "",
  });
}, 120_000);

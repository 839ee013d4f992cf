/**
 * The compiled build (what the Dockerfile ships) behaves like the source: it finds its bundled
 * base configs and renders the same bytes as `npm run llsd`.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { llsd } from "./cli-helpers";

const ROOT = join(__dirname, "..");

describe("npm run build", () => {
  it("produces a CLI that renders a sample exactly like the source", () => {
    execFileSync("npm", ["run", "-s", "build"], { cwd: ROOT, stdio: "pipe" });
    const sample = join(ROOT, "samples", "complete.yaml");
    const compiled = execFileSync("node", [join(ROOT, "dist", "lib", "cli", "main.js"), "render", sample], { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    expect(compiled).toBe(llsd(["render", sample]).stdout);
    expect(compiled).toContain("distro_name: starter");
  }, 60_000);
});

describe("the compiled service (the image's CMD)", () => {
  it("listens on PORT, answers /readyz and a real /sync, and exits 0 on SIGTERM", async () => {
    const { spawn } = await import("node:child_process");
    // No registry here: with image labels read, a named distribution waits for its registry (Failed, nothing created).
    const child = spawn("node", [join(ROOT, "dist", "hooks", "main.js")], { env: { ...process.env, PORT: "0", LOG_LEVEL: "info", LLSD_READ_IMAGE_LABELS: "false" }, stdio: ["ignore", "pipe", "pipe"] });
    const port = await new Promise<number>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const match = /"port":(\d+),"msg":"Listening"/.exec(out);
        if (match) resolve(Number(match[1]));
      });
      child.once("exit", (code) => reject(new Error(`exited early with ${code}: ${out}`)));
    });
    const base = `http://127.0.0.1:${port}`;
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    const body = llsd(["request", "sync", join(ROOT, "samples", "vllm-api-key.yaml")]).stdout;
    const sync = await fetch(`${base}/sync`, { method: "POST", headers: { "content-type": "application/json" }, body });
    expect(sync.status).toBe(200);
    expect(((await sync.json()) as { children: unknown[] }).children.length).toBeGreaterThan(2);
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  }, 30_000);
});

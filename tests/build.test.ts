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

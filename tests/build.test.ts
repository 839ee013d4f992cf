/**
 * The compiled build (what the Dockerfile ships) behaves like the source: it finds its bundled
 * base configs and renders the same bytes as `npm run llsd`; the service starts from
 * `node dist/hooks/main.js` as the Deployment's command says; and it needs nothing the image
 * prunes away (`npm prune --omit=dev`: tsx, typescript and the other devDependencies).
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { join, relative } from "node:path";
import * as ts from "typescript";
import { parseAllDocuments } from "yaml";
import { build, deploymentArgs, deploymentMemoryLimitBytes, spawnReady } from "../bench/service";
import { llsd } from "./cli-helpers";
import { runHostile } from "./reliability/hostile-sizes";
import { tsFiles } from "./import-graph";

const ROOT = join(__dirname, "..");

/** `npm run build` once for this file (the suites below run what it built), whichever test runs first. */
let built: ReturnType<typeof build> | undefined;
function builtOnce(): void {
  built ??= build();
  if (!built.ok) throw new Error(built.error);
}

describe("npm run build", () => {
  it("produces a CLI that renders a sample exactly like the source", () => {
    builtOnce();
    const sample = join(ROOT, "samples", "complete.yaml");
    const compiled = execFileSync("node", [join(ROOT, "dist", "lib", "cli", "main.js"), "render", sample], {
      cwd: ROOT,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
    expect(compiled).toBe(llsd(["render", sample]).stdout);
    expect(compiled).toContain("distro_name: starter");
  }, 60_000);
});

/** Bare package names the compiled JavaScript requires at run time (type-only imports are gone). */
function runtimePackages(jsFiles: readonly string[]): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of jsFiles) {
    const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.ES2022, true);
    const visit = (node: ts.Node): void => {
      if (
        ts.isCallExpression(node) &&
        ts.isIdentifier(node.expression) &&
        node.expression.text === "require" &&
        node.arguments[0] &&
        ts.isStringLiteral(node.arguments[0])
      ) {
        const spec = node.arguments[0].text;
        if (!spec.startsWith(".") && !spec.startsWith("node:") && !builtinModules.includes(spec)) {
          const name = spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]!;
          if (!found.has(name)) found.set(name, relative(ROOT, file));
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

describe("the compiled output", () => {
  it("requires only production dependencies (what the image keeps)", () => {
    builtOnce();
    const jsFiles = [join(ROOT, "dist", "hooks"), join(ROOT, "dist", "lib")].flatMap((dir) => tsFiles(dir, ".js"));
    expect(jsFiles.length).toBeGreaterThan(50);
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    const used = runtimePackages(jsFiles);
    expect(used.get("express")).toBe("dist/hooks/app.js");
    const missing = [...used]
      .filter(([name]) => !(name in pkg.dependencies))
      .map(([name, file]) => `${name} (required by ${file})`);
    expect(missing).toEqual([]);
  });

  it("is what the hooks Deployment runs", () => {
    const docs = parseAllDocuments(readFileSync(join(ROOT, "metacontroller", "base", "deployment.yaml"), "utf8")).map(
      (d) =>
        d.toJS() as {
          kind?: string;
          spec?: { template?: { spec?: { containers?: { name: string; command?: string[] }[] } } };
        },
    );
    const command = docs
      .find((d) => d.kind === "Deployment")
      ?.spec?.template?.spec?.containers?.find((c) => c.name === "hooks")?.command;
    expect(command?.[0]).toBe("node");
    expect(command?.at(-1)).toBe("dist/hooks/main.js");
    expect(readFileSync(join(ROOT, "Dockerfile"), "utf8")).toMatch(/^CMD \["node", "dist\/hooks\/main\.js"\]$/m);
  });
});

describe("the compiled service (the image's CMD)", () => {
  it("listens on PORT, answers /healthz, /readyz and a real /sync, and exits 0 on SIGTERM", async () => {
    builtOnce();
    const { spawn } = await import("node:child_process");
    // No registry here: with image labels read, a named distribution waits for its registry (Failed, nothing created).
    const child = spawn("node", [join(ROOT, "dist", "hooks", "main.js")], {
      env: { ...process.env, PORT: "0", LOG_LEVEL: "info", LLSD_READ_IMAGE_LABELS: "false" },
      stdio: ["ignore", "pipe", "pipe"],
    });
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
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
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

describe("the compiled service under hostile sizes, as the Deployment runs it", () => {
  /**
   * One tenant's huge CRs must not take the hooks down for every namespace: thousands of syncs,
   * every fourth a CR near the size the apiserver accepts (a 1 MiB provider setting, a 0.9 MiB
   * overrideConfig or CA-bundle ConfigMap, each distinct), the rest normal, against
   * `node --max-old-space-size=160 dist/hooks/main.js`. Every answer must be right and the
   * process must stay under the Deployment's memory limit (docs/security.md).
   */
  it("answers every sync correctly, without dying, under the Deployment's memory limit", async () => {
    builtOnce();
    const service = await spawnReady(deploymentArgs(), { LLSD_READ_IMAGE_LABELS: "false", LLSD_LIVE_STATUS: "false" });
    try {
      const run = await runHostile(service, { requests: 2000, largeEvery: 4, concurrency: 4 });
      expect({ died: run.died, sent: run.sent, wrong: run.wrong }).toEqual({ died: undefined, sent: 2000, wrong: [] });
      expect(run.peakRssBytes).toBeLessThan(deploymentMemoryLimitBytes());
    } finally {
      await service.stop();
    }
  }, 600_000);
});

/**
 * One version everywhere a user reads it: package.json (the source: lib/package-version.ts reads
 * it), package-lock.json, `llsd --version`, the hooks' `GET /version`, the status'
 * `operatorVersion`, the image the manifests run, the Dockerfile's label and every image tag in
 * the docs, and a CHANGELOG.md section. `npm run set-version -- X.Y.Z` moves them all.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import request from "supertest";
import { syncSettingsFromEnv } from "../../hooks/sync-settings";
import { runCli } from "../../lib/cli/cli";
import { packageVersion } from "../../lib/package-version";
import { createSyncHook } from "../../lib/sync";
import { aTestApp } from "../hooks/helpers";
import { sampleRequest } from "../sync-builders";

const ROOT = join(__dirname, "../..");
const read = (file: string): string => readFileSync(join(ROOT, file), "utf8");
const VERSION = String((JSON.parse(read("package.json")) as { version: unknown }).version);
/** The commit of this checkout, which GET /version reports beside the version (lib/build-commit.ts). */
const HEAD = execFileSync("git", ["-C", ROOT, "rev-parse", "HEAD"], { encoding: "utf8" }).trim();

/** The files under `dir` a user copies an image tag from: Markdown and YAML. */
function walk(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return walk(path);
    return /\.(md|ya?ml)$/.test(e.name) ? [path] : [];
  });
}

/** `file: tag` for every `llsd-hooks:<tag>` image reference and kustomize `newTag:`. */
function imageTags(): string[] {
  const files = ["README.md", "Dockerfile", ...walk("docs"), ...walk("metacontroller")];
  return files.flatMap((file) =>
    [...read(file).matchAll(/llsd-hooks:(\d[^\s`'"]*)|newTag: *"?([^"\s]+)/g)].map(
      (m) => `${file}: ${m[1] ?? m[2] ?? ""}`,
    ),
  );
}

describe(`version ${VERSION}`, () => {
  it("is a release version, MAJOR.MINOR.PATCH", () => {
    expect(VERSION).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("is what lib/package-version.ts and package-lock.json say", () => {
    const lock = JSON.parse(read("package-lock.json")) as { version: unknown; packages: { "": { version: unknown } } };
    expect([packageVersion(), lock.version, lock.packages[""].version]).toEqual([VERSION, VERSION, VERSION]);
  });

  it("is the first line of llsd --version", () => {
    let out = "";
    const code = runCli(["--version"], { stdout: (t) => void (out += t), stderr: () => undefined, readFile: read });
    expect([code, out.split("\n")[0]]).toEqual([0, `llsd-hooks ${VERSION}`]);
  });

  it("is what GET /version answers", async () => {
    const res = await request(aTestApp().app).get("/version");
    expect([res.status, res.body]).toEqual([200, { name: "llsd-hooks", version: VERSION, commit: HEAD }]);
  });

  it("is the status' operatorVersion when OPERATOR_VERSION is not set", async () => {
    const settings = syncSettingsFromEnv({ LLSD_READ_IMAGE_LABELS: "false", LLSD_LIVE_STATUS: "false" });
    const answer = await createSyncHook(settings)(sampleRequest(join(ROOT, "samples/minimal.yaml")));
    const body: unknown = "body" in answer ? JSON.parse(answer.body.toString("utf8")) : answer;
    expect(body).toMatchObject({ status: { version: { operatorVersion: VERSION } } });
  });

  it("is the tag of every llsd-hooks image in the manifests, the Dockerfile and the docs", () => {
    const tags = imageTags();
    // The places that must have one: a scan that found nothing would agree with anything.
    for (const file of ["metacontroller/base/deployment.yaml", "metacontroller/base/kustomization.yaml", "Dockerfile"])
      expect(tags).toContain(`${file}: ${VERSION}`);
    expect(tags.filter((t) => !t.endsWith(`: ${VERSION}`))).toEqual([]);
  });

  it("is the Dockerfile's image version label", () => {
    const labels = read("Dockerfile")
      .split("\n")
      .filter((line) => line.startsWith("LABEL "));
    expect(labels.join("\n")).toContain(`org.opencontainers.image.version="${VERSION}"`);
  });

  it("has its section in CHANGELOG.md", () => {
    expect(read("CHANGELOG.md")).toMatch(new RegExp(`^## \\[${VERSION.replace(/\./g, "\\.")}\\] - `, "m"));
  });
});

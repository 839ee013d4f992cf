/**
 * The image is set once, in base/kustomization.yaml, and reaches every overlay: the hooks
 * Deployment of each build runs the image named there (checked by changing it in a copy of the
 * manifests and building each overlay with the real `kubectl kustomize`).
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { V1Deployment } from "@kubernetes/client-node";
import { parseAllDocuments } from "yaml";

const ROOT = join(__dirname, "..", "..");
const OVERLAYS = [".", "overlays/openshift", "overlays/cert-manager", "overlays/openshift-cert-manager"];

describe("the image in metacontroller/base/kustomization.yaml", () => {
  const copy = mkdtempSync(join(tmpdir(), "llsd-manifests-"));
  afterAll(() => rmSync(copy, { recursive: true, force: true }));
  cpSync(join(ROOT, "metacontroller"), copy, { recursive: true });
  const file = join(copy, "base", "kustomization.yaml");
  const original = readFileSync(file, "utf8");
  const edited = original.replace(
    /newName: llsd-hooks\n(\s*)newTag: \S+/,
    "newName: registry.example.com/team/llsd-hooks\n$1newTag: 9.9.9",
  );

  it.each(OVERLAYS)("is the one %s runs", (overlay) => {
    expect(edited).not.toBe(original);
    writeFileSync(file, edited);
    const text = execFileSync("kubectl", ["kustomize", join(copy, overlay)], {
      encoding: "utf8",
      env: { ...process.env, KUBECONFIG: join(copy, "none") },
    });
    const deployment = parseAllDocuments(text)
      .map((d) => d.toJS() as V1Deployment)
      .find((o) => o.kind === "Deployment" && o.metadata!.name === "llsd-hooks");
    expect(deployment!.spec!.template.spec!.containers.map((c) => c.image)).toEqual([
      "registry.example.com/team/llsd-hooks:9.9.9",
    ]);
  });
});

/**
 * A release's install manifests as `main` keeps them: `npm run release-manifests -- 0.3.0 <commit>`
 * writes releases/<version>/ from the tree of <commit> (git archive, then `kubectl kustomize`,
 * offline): `commit` (the full id), `crd.yaml`, and one rendered file per overlay. The repository
 * publishes `main` only, no tags: these files are how a user installs, or rolls back to, any
 * release from a clone of `main` (docs/releasing.md says why).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const ROOT = join(__dirname, "..");
export const RELEASES = join(ROOT, "releases");
export const CRD_PATH = "crds/llamastackdistributions.llamastack.io.yaml";

/** Each overlay a release ships, and the file it is rendered to (docs/install.md's table). */
export const OVERLAYS: readonly { readonly dir: string; readonly file: string }[] = [
  { dir: "metacontroller/overlays/cert-manager", file: "cert-manager.yaml" },
  { dir: "metacontroller/overlays/openshift-cert-manager", file: "openshift-cert-manager.yaml" },
  { dir: "metacontroller", file: "kubernetes.yaml" },
  { dir: "metacontroller/overlays/openshift", file: "openshift.yaml" },
];

const git = (args: readonly string[]): string => execFileSync("git", ["-C", ROOT, ...args], { encoding: "utf8" });

/** `kubectl kustomize` offline: no kubeconfig, so nothing can reach a cluster. */
export function kustomize(dir: string): string {
  return execFileSync("kubectl", ["kustomize", dir], {
    encoding: "utf8",
    env: { ...process.env, KUBECONFIG: join(dir, "no-kubeconfig") },
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** The files of releases/<version>/ for `commit`, rendered from that commit's own tree. */
export function renderRelease(commit: string): Map<string, string> {
  const full = git(["rev-parse", "--verify", `${commit}^{commit}`]).trim();
  const tree = mkdtempSync(join(tmpdir(), "llsd-release-"));
  try {
    execFileSync("sh", ["-c", `git -C "${ROOT}" archive "${full}" crds metacontroller | tar -x -C "${tree}"`]);
    return new Map([
      ["commit", `${full}\n`],
      ["crd.yaml", git(["show", `${full}:${CRD_PATH}`])],
      ...OVERLAYS.map(({ dir, file }) => [file, kustomize(join(tree, dir))] as const),
    ]);
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const [version, commit] = process.argv.slice(2);
  if (version === undefined || commit === undefined || !/^\d+\.\d+\.\d+$/.test(version)) {
    process.stderr.write("usage: npm run release-manifests -- X.Y.Z COMMIT\n");
    process.exit(2);
  }
  const dir = join(RELEASES, version);
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of renderRelease(commit)) writeFileSync(join(dir, file), text);
  process.stdout.write(`releases/${version}/ written from ${commit}\n`);
}

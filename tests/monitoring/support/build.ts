/** An overlay with the monitoring component (or others), built offline by a real `kubectl kustomize` from a directory outside the repository (as a user's own overlay would be). */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { parseAllDocuments } from "yaml";
import { ROOT } from "./promtool";

export type Doc = {
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  spec: { readonly [field: string]: unknown };
  data?: Record<string, string>;
  roleRef?: { name: string };
};

export function buildWithMonitoring(
  overlay: string,
  components: readonly string[] = ["metacontroller/components/monitoring"],
  /** More of the overlay's kustomization.yaml (its patches). */
  more = "",
): Doc[] {
  const dir = mkdtempSync(join(tmpdir(), "llsd-monitoring-"));
  const up = (path: string) => relative(dir, join(ROOT, path));
  writeFileSync(
    join(dir, "kustomization.yaml"),
    `resources:\n  - ${up(overlay)}\ncomponents:\n${components.map((c) => `  - ${up(c)}\n`).join("")}${more}`,
  );
  const text = execFileSync("kubectl", ["kustomize", dir], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, KUBECONFIG: join(ROOT, "no-such-kubeconfig") },
  });
  return parseAllDocuments(text).map((d) => d.toJS() as Doc);
}

/**
 * What a cluster command prints, computed offline, so output shown for it in the docs is checked
 * too: `kubectl get llsd` is the CRD's printer columns (tests/crd: the committed CRD) over the
 * status `/sync` answers for the sample, as the hooks service started by the examples test
 * answers it. Age is the cluster's clock: shown as `…`, which an output block matches with any
 * duration.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { isPlainObject, own } from "../../lib/json";
import { llsd } from "../cli-helpers";

const ROOT = join(__dirname, "..", "..");
const CRD = join(ROOT, "crds", "llamastackdistributions.llamastack.io.yaml");

interface Column {
  readonly name: string;
  readonly jsonPath: string;
  readonly priority: number;
}

/** The served storage version's printer columns, as `kubectl get` (not `-o wide`) shows them. */
function columns(): Column[] {
  const crd: unknown = parse(readFileSync(CRD, "utf8"));
  const versions = own(own(crd, "spec"), "versions");
  const stored = Array.isArray(versions) ? versions.find((v) => own(v, "storage") === true) : undefined;
  const raw = own(stored, "additionalPrinterColumns");
  return (Array.isArray(raw) ? raw : []).filter(isPlainObject).map((c) => ({
    name: String(c.name),
    jsonPath: String(c.jsonPath),
    priority: typeof c.priority === "number" ? c.priority : 0,
  }));
}

/** `.status.phase` read from an object; missing is `<none>`, as kubectl prints it. */
function valueAt(object: unknown, jsonPath: string): string {
  const value = jsonPath
    .split(".")
    .slice(1)
    .reduce<unknown>((o, key) => own(o, key), object);
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return String(value);
  return value === undefined || value === null ? "<none>" : JSON.stringify(value);
}

/** kubectl's table: upper-case headers, columns three spaces apart, the last one unpadded. */
function table(rows: readonly (readonly string[])[]): string {
  const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
  return rows
    .map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd((widths[i] ?? 0) + 3))).join(""))
    .join("\n");
}

/** `kubectl get llsd` for the LLSD of `sample`, after the hooks' first /sync. */
async function kubectlGetLlsd(sample: string, port: number): Promise<string> {
  const request = llsd(["request", "sync", join(ROOT, sample)]);
  if (request.code !== 0) throw new Error(`llsd request sync ${sample}: ${request.stderr}`);
  const parent: unknown = JSON.parse(request.stdout).parent;
  const answer: unknown = await fetch(`http://127.0.0.1:${port}/sync`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: request.stdout,
  }).then((r) => r.json());
  const object = { ...(isPlainObject(parent) ? parent : {}), status: own(answer, "status") };
  const shown = columns().filter((c) => c.priority === 0);
  const cells = shown.map((c) => (c.name === "Age" ? "…" : valueAt(object, c.jsonPath)));
  return table([
    ["NAME", ...shown.map((c) => c.name.toUpperCase())],
    [valueAt(object, ".metadata.name"), ...cells],
  ]);
}

/** The cluster commands whose output the docs may show, by the command as written. */
export const STAND_INS: { readonly [command: string]: (port: number) => Promise<string> } = {
  "kubectl -n demo get llsd": (port) => kubectlGetLlsd("samples/vllm-api-key.yaml", port),
};

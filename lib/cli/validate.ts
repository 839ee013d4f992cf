/**
 * `llsd validate FILE...`: what the apiserver and our admission webhook would say about each
 * LlamaStackDistribution, offline — the CRD's structural schema, its CEL rules, then the
 * semantic rules of `validate()` (v1alpha1 objects are checked after conversion, as stored).
 */
import { nameErrors } from "../names";
import { parseAllDocuments } from "yaml";
import { validate } from "../api/validate";
import { toHub } from "../conversion/v1alpha1";
import { celFailures, structuralErrors, versionSchema } from "../crd/check";
import { buildCrd } from "../crd/generate";
import type { CliIo } from "./io";

const VERSIONS: { readonly [apiVersion: string]: string } = { "llamastack.io/v1alpha1": "v1alpha1", "llamastack.io/v1alpha2": "v1alpha2" };

interface Verdict {
  readonly errors: string[];
  readonly warnings: string[];
}

function semantic(object: { apiVersion?: unknown; spec?: unknown }): Verdict {
  let spec = object.spec;
  if (object.apiVersion === "llamastack.io/v1alpha1") {
    const hub = toHub(object);
    if (!hub.ok) return { errors: hub.errors.map((e) => `${e.path}: ${e.message}`), warnings: [] };
    spec = hub.object.spec;
  }
  const result = validate(spec);
  const note = object.apiVersion === "llamastack.io/v1alpha1" ? " (as stored in v1alpha2)" : "";
  return {
    errors: result.errors.map((e) => `${e.path}: ${e.message}${note}`),
    warnings: result.warnings.map((w) => `${w.path}: ${w.message}`),
  };
}

let crd: ReturnType<typeof buildCrd> | undefined;

export function checkObject(object: { [k: string]: unknown }): Verdict {
  const version = VERSIONS[String(object.apiVersion)];
  if (version === undefined) return { errors: [`apiVersion: ${String(object.apiVersion)} is not served; use llamastack.io/v1alpha2 (or v1alpha1)`], warnings: [] };
  crd ??= buildCrd();
  const schema = versionSchema(crd, version);
  const structural = structuralErrors(schema, object);
  if (structural.length > 0) return { errors: structural, warnings: [] };
  const cel = celFailures(schema, object).failures.map((f) => `${f.path}: ${f.message}`);
  const deeper = semantic(object);
  const name = (object.metadata as { name?: unknown } | undefined)?.name;
  const names = typeof name === "string" && name !== "" ? nameErrors(name).map((e) => `${e.path}: ${e.message}`) : [];
  return { errors: [...cel, ...names, ...deeper.errors], warnings: deeper.warnings };
}

export function validateCommand(files: readonly string[], io: CliIo): number {
  if (files.length === 0) {
    io.stderr("error: validate takes one or more FILEs\n");
    return 2;
  }
  let failed = false;
  let checked = 0;
  for (const file of files) {
    const docs = parseAllDocuments(io.readFile(file));
    for (const [i, doc] of (Array.isArray(docs) ? docs : []).entries()) {
      if (doc.errors.length > 0) {
        io.stderr(`${file}: document ${i + 1}: invalid YAML: ${doc.errors[0]?.message.split("\n")[0]}\n`);
        failed = true;
        continue;
      }
      const object = doc.toJS() as { [k: string]: unknown } | null;
      if (object?.kind !== "LlamaStackDistribution") continue;
      checked += 1;
      const name = `${String(object.apiVersion)} ${String((object.metadata as { name?: unknown } | undefined)?.name ?? "(unnamed)")}`;
      const verdict = checkObject(object);
      for (const w of verdict.warnings) io.stderr(`${file}: ${name}: warning: ${w}\n`);
      if (verdict.errors.length === 0) io.stdout(`${file}: ${name}: valid\n`);
      else {
        failed = true;
        io.stdout(`${file}: ${name}: invalid\n${verdict.errors.map((e) => `  ${e}\n`).join("")}`);
      }
    }
  }
  if (checked === 0) io.stderr("warning: no LlamaStackDistribution found\n");
  return failed ? 1 : 0;
}

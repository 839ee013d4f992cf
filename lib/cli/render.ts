/** `llsd render FILE [--base-config F] [--release LINE]` (LINE checked by the caller): print config.yaml and env for each CR (v1alpha1 converted first). */
import { stringify } from "yaml";
import { formatErrors } from "../errors";
import { render, type Rendered } from "../config/render";
import type { Release } from "../distributions/table";
import type { Generated } from "../config/generate";
import { asStored, configMapsOf, llsdDocuments, type CrDocument } from "./documents";
import { readText, type CliIo } from "./io";
import { passes } from "./verdict";

export interface RenderArgs {
  readonly file: string;
  readonly baseConfig?: string;
  readonly release?: Release;
}

function containerEnv(g: Generated): unknown[] {
  return [
    ...g.secretEnv.map((e) => ({
      name: e.name,
      valueFrom: { secretKeyRef: { name: e.secretName, key: e.secretKey } },
    })),
    ...g.plainEnv,
  ];
}

function printRendered(doc: CrDocument, result: Rendered, io: CliIo): boolean {
  for (const w of result.warnings) io.stderr(`warning: ${doc.name}: ${w.path}: ${w.message}\n`);
  if (!result.ok) {
    for (const n of result.notes) io.stderr(`note: ${doc.name}: ${n}\n`);
    io.stderr(`error: ${doc.name}: ${result.errors.length} problem(s):\n${formatErrors(result.errors)}\n`);
    return false;
  }
  if (result.source !== "generated") {
    for (const n of result.notes) io.stderr(`note: ${doc.name}: ${n}\n`);
    if (result.source === "override" && result.configYaml !== undefined) {
      io.stdout(`# ${doc.name}: config.yaml from the override ConfigMap, used as is\n${result.configYaml}`);
    }
    return true;
  }
  const g = result.generated;
  for (const n of g.notes) io.stderr(`note: ${doc.name}: ${n}\n`);
  io.stdout(`# ${doc.name}: config.yaml for the ${result.release} server line, sha256 ${g.hash}\n`);
  io.stdout(`# ${g.providerCount} providers, ${g.resourceCount} resources\n${g.configYaml}`);
  io.stdout(`---\n# ${doc.name}: container env (Secret values are read by the pod, never written here)\n`);
  io.stdout(stringify({ env: containerEnv(g) }, { lineWidth: 0 }));
  return true;
}

export function renderCommand(args: RenderArgs, io: CliIo): number {
  const release = args.release;
  const baseConfig = args.baseConfig !== undefined ? readText(io, args.baseConfig) : undefined;
  const read = llsdDocuments(readText(io, args.file), args.file);
  if (!read.ok) {
    io.stderr(`error: ${formatErrors(read.errors)}\n`);
    return 1;
  }
  if (read.documents.length === 0) {
    io.stderr(`error: ${args.file} has no LlamaStackDistribution document\n`);
    return 1;
  }
  let ok = true;
  read.documents.forEach((written, i) => {
    if (i > 0) io.stdout("---\n");
    // What validate, /validate or /sync would refuse is refused here too, before anything is printed.
    const verdict = { release, baseConfig, ...configMapsOf(read.configMaps) };
    const doc = passes(written, verdict, io) ? asStored(written, args.file, io) : undefined;
    if (doc === undefined) {
      ok = false;
      return;
    }
    // ConfigMaps in the same file are what an overrideConfig can be checked against; none means unchecked.
    const configMaps = configMapsOf(read.configMaps);
    const input = {
      name: doc.name,
      ...configMaps,
      ...(baseConfig !== undefined ? { baseConfig } : {}),
      ...(release !== undefined ? { release } : {}),
    };
    ok = printRendered(doc, render(doc.object.spec, input), io) && ok;
  });
  return ok ? 0 : 1;
}

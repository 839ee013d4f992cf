/**
 * `llsd validate FILE...`: what the cluster would say about each LlamaStackDistribution, offline:
 * the same `checkObject` the admission webhook runs (lib/config/check-object.ts), so the same
 * problems with the same messages — and what `llsd render` and the sync hook would refuse.
 */
import { formatErrors } from "../errors";
import { configMapsOf, llsdDocuments } from "./documents";
import { readText, UsageError, type CliIo } from "./io";
import { verdictOf } from "./verdict";

const line = (e: { path: string; message: string }): string => `${e.path}: ${e.message}`;

/** One file: its verdict lines on stdout, warnings and notes on stderr; false when anything is invalid. */
function validateFile(file: string, io: CliIo): boolean {
  const read = llsdDocuments(readText(io, file), file);
  if (!read.ok) {
    io.stdout(`${file}: invalid\n${formatErrors(read.errors).replace(/^/gm, "  ")}\n`);
    return false;
  }
  if (read.documents.length === 0) {
    io.stdout(`${file}: invalid\n  ${file}: has no LlamaStackDistribution document\n`);
    return false;
  }
  let ok = true;
  for (const doc of read.documents) {
    const name = `${doc.apiVersion} ${doc.name}`;
    // The file's ConfigMaps are the related objects it was given: judged as /sync judges them.
    const verdict = verdictOf(doc, configMapsOf(read.configMaps));
    for (const w of verdict.warnings) io.stderr(`${file}: ${name}: warning: ${line(w)}\n`);
    for (const n of verdict.notes ?? []) io.stderr(`${file}: ${name}: note: ${n}\n`);
    if (verdict.errors.length === 0) {
      io.stdout(`${file}: ${name}: valid\n`);
      continue;
    }
    ok = false;
    io.stdout(`${file}: ${name}: invalid\n${verdict.errors.map((e) => `  ${line(e)}\n`).join("")}`);
  }
  return ok;
}

export function validateCommand(files: readonly string[], io: CliIo): number {
  if (files.length === 0) throw new UsageError("validate takes one or more FILEs");
  let ok = true;
  for (const file of files) ok = validateFile(file, io) && ok;
  return ok ? 0 : 1;
}

/**
 * `llsd convert --to v1alpha1|v1alpha2 FILE` (the webhook's code) and `llsd migrate FILE` (the
 * idiomatic upgrade the webhook cannot do). Other documents pass through unchanged.
 */
import { parseAllDocuments, stringify } from "yaml";
import { formatErrors } from "../errors";
import type { LlsdSpecV1alpha2 } from "../api/v1alpha2";
import { fromHub, toHub } from "../conversion/v1alpha1";
import { migrateSpec } from "../migrate/migrate";
import { readText, type CliIo } from "./io";

type Doc = { [k: string]: unknown };
type Transform = (object: Doc, io: CliIo) => Doc | undefined;

function eachDocument(file: string, io: CliIo, transform: Transform): number {
  const docs = parseAllDocuments(readText(io, file));
  const out: string[] = [];
  let failed = false;
  for (const doc of Array.isArray(docs) ? docs : []) {
    if (doc.errors.length > 0) {
      io.stderr(`error: ${file}: invalid YAML: ${doc.errors[0]?.message.split("\n")[0]}\n`);
      return 1;
    }
    const object = doc.toJS() as Doc | null;
    if (object === null) continue;
    const result = object.kind === "LlamaStackDistribution" ? transform(object, io) : object;
    if (result === undefined) failed = true;
    else out.push(stringify(result, { lineWidth: 0 }));
  }
  io.stdout(out.join("---\n"));
  return failed ? 1 : 0;
}

const nameOf = (o: Doc): string => String((o.metadata as { name?: unknown } | undefined)?.name ?? "(unnamed)");

export function convertCommand(to: string | undefined, file: string, io: CliIo): number {
  if (to !== "v1alpha1" && to !== "v1alpha2") {
    io.stderr("error: convert needs --to v1alpha1 or --to v1alpha2\n");
    return 2;
  }
  const target = `llamastack.io/${to}`;
  return eachDocument(file, io, (object) => {
    if (object.apiVersion === target) return object;
    const hub = object.apiVersion === "llamastack.io/v1alpha2" ? { ok: true as const, object } : toHub(object);
    const converted = hub.ok ? (to === "v1alpha2" ? hub : fromHub(hub.object)) : hub;
    if (converted.ok) return converted.object as unknown as Doc;
    io.stderr(`error: ${nameOf(object)}:\n${formatErrors(converted.errors)}\n`);
    return undefined;
  });
}

export function migrateCommand(file: string, io: CliIo): number {
  return eachDocument(file, io, (object) => {
    const hub = object.apiVersion === "llamastack.io/v1alpha2" ? { ok: true as const, object } : toHub(object);
    if (!hub.ok) {
      io.stderr(`error: ${nameOf(object)}:\n${formatErrors(hub.errors)}\n`);
      return undefined;
    }
    const hubObject = hub.object as unknown as Doc;
    const { spec, report } = migrateSpec(hubObject.spec as LlsdSpecV1alpha2);
    for (const line of report.changed) io.stderr(`changed: ${nameOf(object)}: ${line}\n`);
    for (const line of report.kept) io.stderr(`kept: ${nameOf(object)}: ${line}\n`);
    return { ...hubObject, spec };
  });
}

/**
 * `llsd convert --to v1alpha1|v1alpha2 FILE` (the webhook's code) and `llsd migrate FILE` (the
 * idiomatic upgrade the webhook cannot do). Other documents pass through unchanged.
 */
import { parseAllDocuments, stringify } from "yaml";
import { formatErrors } from "../errors";
import { V1ALPHA1 } from "../api/v1alpha1";
import { V1ALPHA2 } from "../api/v1alpha2";
import { compile, isV1alpha2Spec, schemaErrors, v1alpha2SpecSchemaErrors } from "../api/schema";
import { V1ALPHA1_BODY, V1ALPHA2_BODY } from "../conversion/schemas";
import { isPlainObject, own, type JsonMap } from "../conversion/paths";
import { fromHub, toHub, type Conversion } from "../conversion/v1alpha1";
import { migrateSpec } from "../migrate/migrate";
import { readText, type CliIo } from "./io";

type Doc = JsonMap;
type Transform = (object: Doc, io: CliIo) => object | undefined;

function eachDocument(file: string, io: CliIo, transform: Transform): number {
  const docs = parseAllDocuments(readText(io, file));
  const out: string[] = [];
  let failed = false;
  for (const doc of Array.isArray(docs) ? docs : []) {
    if (doc.errors.length > 0) {
      io.stderr(`error: ${file}: invalid YAML: ${doc.errors[0]?.message.split("\n")[0]}\n`);
      return 1;
    }
    const object: unknown = doc.toJS();
    if (object === null) continue;
    const result = isPlainObject(object) && object.kind === "LlamaStackDistribution" ? transform(object, io) : object;
    if (result === undefined) failed = true;
    else out.push(stringify(result, { lineWidth: 0 }));
  }
  io.stdout(out.join("---\n"));
  return failed ? 1 : 0;
}

/** `metadata.name` for messages; a missing or non-scalar one reads "(unnamed)". */
const nameOf = (o: Doc): string => {
  const name = own(o.metadata, "name");
  return typeof name === "string" || typeof name === "number" || typeof name === "boolean" ? String(name) : "(unnamed)";
};

/** The document in v1alpha2, converted when it is not; refused where its version's schema refuses it (never validated). */
function hubOf(object: Doc): Conversion<object> {
  const { apiVersion } = object;
  const schema = apiVersion === V1ALPHA1 ? V1ALPHA1_BODY : apiVersion === V1ALPHA2 ? V1ALPHA2_BODY : undefined;
  const errors = schema ? schemaErrors(compile(schema), object) : [];
  if (errors.length > 0) return { ok: false, errors };
  return object.apiVersion === V1ALPHA2 ? { ok: true, object } : toHub(object);
}

export function convertCommand(to: "v1alpha1" | "v1alpha2", file: string, io: CliIo): number {
  const target = `llamastack.io/${to}`;
  return eachDocument(file, io, (object) => {
    if (object.apiVersion === target) return object;
    const hub = hubOf(object);
    const converted = hub.ok ? (to === "v1alpha2" ? hub : fromHub(hub.object)) : hub;
    if (converted.ok) return converted.object;
    io.stderr(`error: ${nameOf(object)}:\n${formatErrors(converted.errors)}\n`);
    return undefined;
  });
}

export function migrateCommand(file: string, io: CliIo): number {
  return eachDocument(file, io, (object) => {
    const hub = hubOf(object);
    const spec = hub.ok ? own(hub.object, "spec") : undefined;
    if (!hub.ok || !isV1alpha2Spec(spec)) {
      const errors = hub.ok ? v1alpha2SpecSchemaErrors(spec) : hub.errors;
      io.stderr(`error: ${nameOf(object)}:\n${formatErrors(errors)}\n`);
      return undefined;
    }
    const migrated = migrateSpec(spec);
    for (const line of migrated.report.changed) io.stderr(`changed: ${nameOf(object)}: ${line}\n`);
    for (const line of migrated.report.kept) io.stderr(`kept: ${nameOf(object)}: ${line}\n`);
    return { ...hub.object, spec: migrated.spec };
  });
}

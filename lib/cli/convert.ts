/**
 * `llsd convert --to v1alpha1|v1alpha2 FILE` (the webhook's code) and `llsd migrate FILE` (the
 * idiomatic upgrade the webhook cannot do). Other documents pass through unchanged.
 */
import { formatErrors } from "../errors";
import { V1ALPHA1 } from "../api/v1alpha1";
import { V1ALPHA2 } from "../api/v1alpha2";
import { compile, isV1alpha2Spec, schemaErrors, v1alpha2SpecSchemaErrors } from "../api/schema";
import { V1ALPHA1_BODY, V1ALPHA2_BODY } from "../conversion/schemas";
import { own, type JsonMap } from "../conversion/paths";
import { fromHub, toHub, type Conversion } from "../conversion/v1alpha1";
import type { CliIo } from "./io";
import { eachDocument } from "./each-document";
import { migratedObject, type MigrateOptions } from "./migrate";

type Doc = JsonMap;

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

export function migrateCommand(file: string, options: MigrateOptions, io: CliIo): number {
  return eachDocument(file, io, (object) => {
    const hub = hubOf(object);
    const spec = hub.ok ? own(hub.object, "spec") : undefined;
    if (!hub.ok || !isV1alpha2Spec(spec)) {
      const errors = hub.ok ? v1alpha2SpecSchemaErrors(spec) : hub.errors;
      io.stderr(`error: ${nameOf(object)}:\n${formatErrors(errors)}\n`);
      return undefined;
    }
    return migratedObject({ ...hub.object }, spec, options, io);
  });
}

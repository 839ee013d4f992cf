/**
 * `llsd convert --to v1alpha1|v1alpha2 FILE` (the webhook's code), `llsd convert --to
 * ogx.io/v1beta1 [--adopt [--name NAME]] FILE` (to and from the peer operator's OGXServer,
 * lib/ogx/) and `llsd migrate FILE` (the idiomatic upgrade the webhook cannot do). Other
 * documents pass through unchanged.
 */
import { formatErrors } from "../errors";
import { V1ALPHA1 } from "../api/v1alpha1";
import { V1ALPHA2 } from "../api/v1alpha2";
import { compile, isV1alpha2Spec, schemaErrors, v1alpha2SpecSchemaErrors } from "../api/schema";
import { V1ALPHA1_BODY, V1ALPHA2_BODY } from "../conversion/schemas";
import { own, type JsonMap } from "../conversion/paths";
import { fromHub, toHub, type Conversion } from "../conversion/v1alpha1";
import type { FieldError } from "../errors";
import { adoptionOf, type AdoptOptions } from "../ogx/adopt";
import { fromOgxServer, ogxServerErrors, toOgxServer, type OgxConversion } from "../ogx/convert";
import { OGX_KIND } from "../ogx/schema";
import { LLSD_KIND } from "../config/check-object";
import type { CliIo } from "./io";
import { eachDocument } from "./each-document";
import { migratedObject, type MigrateOptions } from "./migrate";

type Doc = JsonMap;

/** `metadata.name` for messages; a missing or non-scalar one reads "(unnamed)". */
export const nameOf = (o: Doc): string => {
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

const warn = (io: CliIo, name: string, warnings: readonly FieldError[]): void => {
  for (const w of warnings) io.stderr(`warning: ${name}: ${w.path}: ${w.message}\n`);
};

/** An OGXServer in v1alpha2, its warnings on stderr. */
export function fromOgx(object: Doc, io: CliIo): Conversion<object> {
  const refused = ogxServerErrors(object);
  if (refused.length > 0) return { ok: false, errors: refused };
  const converted = fromOgxServer(object);
  if (converted.ok) warn(io, nameOf(object), converted.warnings);
  return converted;
}

export function convertCommand(to: "v1alpha1" | "v1alpha2", file: string, io: CliIo): number {
  const target = `llamastack.io/${to}`;
  const each = (object: Doc): object | undefined => {
    if (object.apiVersion === target) return object;
    const hub = object.kind === OGX_KIND ? fromOgx(object, io) : hubOf(object);
    const converted = hub.ok ? (to === "v1alpha2" ? hub : fromHub(hub.object)) : hub;
    if (converted.ok) return converted.object;
    io.stderr(`error: ${nameOf(object)}:\n${formatErrors(converted.errors)}\n`);
    return undefined;
  };
  return eachDocument(file, io, each, [LLSD_KIND, OGX_KIND]);
}

export interface ToOgxOptions {
  /** Give the OGXServer a new name and the peer's adoption annotations; print the steps. */
  readonly adopt?: AdoptOptions;
}

/** One LLSD as an OGXServer (adopting when asked), or undefined after printing why not. */
function toOgx(object: Doc, options: ToOgxOptions, io: CliIo): object | undefined {
  const name = nameOf(object);
  const hub = hubOf(object);
  const converted: OgxConversion = hub.ok ? toOgxServer(hub.object) : hub;
  const refused = converted.ok ? ogxServerErrors(converted.object) : [];
  if (refused.length > 0) {
    io.stderr(`error: ${name}: the peer's API would refuse the OGXServer:\n${formatErrors(refused)}\n`);
    return undefined;
  }
  const adopted = converted.ok && options.adopt ? adoptionOf(converted.object, options.adopt) : converted;
  if (!adopted.ok) {
    io.stderr(`error: ${name}:\n${formatErrors(adopted.errors)}\n`);
    return undefined;
  }
  if (converted.ok) warn(io, name, converted.warnings);
  if ("steps" in adopted) adopted.steps.forEach((step, i) => io.stderr(`step ${i + 1}: ${name}: ${step}\n`));
  return adopted.object;
}

export function convertToOgxCommand(file: string, options: ToOgxOptions, io: CliIo): number {
  return eachDocument(file, io, (object) => (object.kind === OGX_KIND ? object : toOgx(object, options, io)), [
    LLSD_KIND,
    OGX_KIND,
  ]);
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

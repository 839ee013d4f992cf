/**
 * The OGXServer side of `llsd convert` and `llsd migrate --from ogxserver`: an OGXServer into
 * v1alpha2 (`fromOgx`) and an LLSD into an OGXServer (`convertToOgxCommand`, `--adopt`), each
 * checked against the peer's API (lib/ogx/schema.ts), its warnings on stderr, and refused when the
 * result would enforce less than the source (lib/ogx/weaker.ts) unless `--allow-weaker`.
 */
import { formatErrors } from "../errors";
import { LLSD_KIND } from "../config/check-object";
import { isPlainObject, type JsonMap, own } from "../json";
import type { Conversion } from "../conversion/v1alpha1";
import type { FieldError } from "../errors";
import { adoptionOf, type AdoptOptions } from "../ogx/adopt";
import { fromOgxServer, ogxServerErrors, toOgxServer } from "../ogx/convert";
import { OGX_KIND } from "../ogx/schema";
import { ogxDistributionErrors } from "../ogx/schema-errors";
import { lossesFromOgx, lossesToOgx } from "../ogx/weaker";
import { hubOf, nameOf, refusedUnnamed } from "./hub";
import { eachDocument } from "./each-document";
import type { CliIo } from "./io";
import { warningsBeside, weakerAllowed, type WeakerOptions } from "./weaker";

const specOf = (object: JsonMap): JsonMap => {
  const spec = own(object, "spec");
  return isPlainObject(spec) ? spec : {};
};

const warn = (io: CliIo, name: string, warnings: readonly FieldError[]): void => {
  for (const w of warnings) io.stderr(`warning: ${name}: ${w.path}: ${w.message}\n`);
};

/**
 * An OGXServer in v1alpha2, its warnings on stderr; a refusal of the peer's API as errors; or
 * undefined once a weaker result has been refused (stderr says why).
 */
export function fromOgx(object: JsonMap, io: CliIo, options: WeakerOptions): Conversion<object> | undefined {
  const refused = ogxServerErrors(object);
  const unknown = refused.length > 0 ? [] : ogxDistributionErrors(object);
  if (refused.length + unknown.length > 0) return { ok: false, errors: [...refused, ...unknown] };
  const converted = fromOgxServer(object);
  if (!converted.ok) return converted;
  const name = nameOf(object);
  const lost = lossesFromOgx(specOf(object), specOf(converted.object));
  warn(io, name, warningsBeside(converted.warnings, lost));
  return weakerAllowed(io, { name, lost, target: LLSD_KIND }, options) ? converted : undefined;
}

export interface ToOgxOptions extends WeakerOptions {
  /** Give the OGXServer a new name and the peer's adoption annotations; print the steps. */
  readonly adopt?: AdoptOptions;
}

/** The LLSD as an OGXServer, checked against the peer's API; undefined after printing why not. */
function convertedToOgx(
  object: JsonMap,
  io: CliIo,
): { hub: JsonMap; converted: JsonMap; warnings: readonly FieldError[] } | undefined {
  const name = nameOf(object);
  const hub = hubOf(object);
  const converted = hub.ok ? toOgxServer(hub.object) : hub;
  if (!converted.ok) {
    io.stderr(`error: ${name}:\n${formatErrors(converted.errors)}\n`);
    return undefined;
  }
  const refused = ogxServerErrors(converted.object);
  if (refused.length > 0) {
    io.stderr(`error: ${name}: the peer's API would refuse the OGXServer:\n${formatErrors(refused)}\n`);
    return undefined;
  }
  return { hub: hub.ok ? { ...hub.object } : {}, converted: converted.object, warnings: converted.warnings };
}

/** One LLSD as an OGXServer (adopting when asked), or undefined after printing why not. */
function toOgx(object: JsonMap, options: ToOgxOptions, io: CliIo): object | undefined {
  const name = nameOf(object);
  const done = convertedToOgx(object, io);
  if (done === undefined) return undefined;
  const adopted = options.adopt ? adoptionOf(done.converted, options.adopt) : undefined;
  if (adopted?.ok === false) {
    io.stderr(`error: ${name}:\n${formatErrors(adopted.errors)}\n`);
    return undefined;
  }
  const lost = lossesToOgx(specOf(done.hub), specOf(done.converted));
  warn(io, name, warningsBeside(done.warnings, lost));
  if (!weakerAllowed(io, { name, lost, target: OGX_KIND }, options)) return undefined;
  if (adopted === undefined) return done.converted;
  printSteps(io, name, adopted);
  return adopted.object;
}

function printSteps(
  io: CliIo,
  name: string,
  adopted: { readonly steps: readonly string[]; readonly note?: string },
): void {
  if (adopted.note !== undefined) io.stderr(`note: ${name}: ${adopted.note}\n`);
  adopted.steps.forEach((step, i) => io.stderr(`step ${i + 1}: ${name}: ${step}\n`));
}

export function convertToOgxCommand(file: string, options: ToOgxOptions, io: CliIo): number {
  const each = (object: JsonMap): object | undefined => {
    if (object.kind === OGX_KIND) return object;
    return refusedUnnamed(object, OGX_KIND, io) ? undefined : toOgx(object, options, io);
  };
  return eachDocument(file, io, each, { kinds: [LLSD_KIND, OGX_KIND] });
}

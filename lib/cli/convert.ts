/**
 * `llsd convert --to v1alpha1|v1alpha2 FILE` (the webhook's code; OGXServer objects too, through
 * convert-ogx.ts) and `llsd migrate FILE` (the idiomatic upgrade the webhook cannot do). Other
 * documents pass through unchanged; an object without a name is refused (the apiserver would).
 */
import { formatErrors } from "../errors";
import { isV1alpha2Spec, v1alpha2SpecSchemaErrors } from "../api/schema";
import { own, type JsonMap } from "../json";
import { fromHub } from "../conversion/v1alpha1";
import { OGX_KIND } from "../ogx/schema";
import { LLSD_KIND } from "../config/check-object";
import type { CliIo } from "./io";
import { fromOgx } from "./convert-ogx";
import { hubOf, nameOf, refusedUnnamed } from "./hub";
import { eachDocument } from "./each-document";
import { migratedObject, type MigrateOptions } from "./migrate";
import type { WeakerOptions } from "./weaker";

type Doc = JsonMap;

export function convertCommand(to: "v1alpha1" | "v1alpha2", file: string, options: WeakerOptions, io: CliIo): number {
  const target = `llamastack.io/${to}`;
  const each = (object: Doc): object | undefined => {
    if (refusedUnnamed(object, LLSD_KIND, io)) return undefined;
    if (object.apiVersion === target) return object;
    const hub = object.kind === OGX_KIND ? fromOgx(object, io, options) : hubOf(object);
    if (hub === undefined) return undefined;
    const converted = hub.ok ? (to === "v1alpha2" ? hub : fromHub(hub.object)) : hub;
    if (converted.ok) return converted.object;
    io.stderr(`error: ${nameOf(object)}:\n${formatErrors(converted.errors)}\n`);
    return undefined;
  };
  return eachDocument(file, io, each, { kinds: [LLSD_KIND, OGX_KIND] });
}

/** `llsd migrate` without `--from` reads LLSDs only: an OGXServer gets the command that reads it. */
function refusedOgx(object: Doc, io: CliIo): undefined {
  io.stderr(
    `error: ${nameOf(object)}: kind: ${OGX_KIND} is the peer operator's; migrate it with llsd migrate --from ogxserver FILE (or convert it with llsd convert --to v1alpha2 FILE)\n`,
  );
  return undefined;
}

export function migrateCommand(file: string, options: MigrateOptions, io: CliIo): number {
  const each = (object: Doc): object | undefined => {
    if (object.kind === OGX_KIND) return refusedOgx(object, io);
    if (refusedUnnamed(object, LLSD_KIND, io)) return undefined;
    const hub = hubOf(object);
    const spec = hub.ok ? own(hub.object, "spec") : undefined;
    if (!hub.ok || !isV1alpha2Spec(spec)) {
      const errors = hub.ok ? v1alpha2SpecSchemaErrors(spec) : hub.errors;
      io.stderr(`error: ${nameOf(object)}:\n${formatErrors(errors)}\n`);
      return undefined;
    }
    return migratedObject({ ...hub.object }, spec, options, io);
  };
  return eachDocument(file, io, each, { kinds: [LLSD_KIND, OGX_KIND] });
}

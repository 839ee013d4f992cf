/**
 * `llsd migrate --from ogxserver FILE`: the road in from the OGX operator. Each OGXServer
 * becomes an LLSD of the same name (lib/ogx/, its warnings on stderr; refused when it would
 * enforce less, unless `--allow-weaker`), checked as `llsd validate` checks it, and stderr gets
 * the steps that hand the running server's children to it, with its data kept
 * (lib/migrate/ogxserver-steps.ts, docs/migrating-from-ogxserver.md). Other documents pass
 * through unchanged; a file with no OGXServer is an error.
 */
import { formatErrors } from "../errors";
import { LLSD_KIND } from "../config/check-object";
import type { JsonMap } from "../json";
import { factsOfOgxServer } from "../migrate/ogxserver-facts";
import { ogxServerSteps, renderOgxTakeover } from "../migrate/ogxserver-steps";
import { OGX_API_VERSION, OGX_KIND } from "../ogx/schema";
import { isKubeObject } from "../wire/metacontroller";
import { fromOgx } from "./convert-ogx";
import { nameOf, refusedUnnamed } from "./hub";
import { eachDocument } from "./each-document";
import type { CliIo } from "./io";
import { verdictOf } from "./verdict";
import type { WeakerOptions } from "./weaker";

/** One OGXServer as the LLSD that takes over its children, or undefined after printing why not. */
function takeoverLlsd(ogx: JsonMap, options: WeakerOptions, io: CliIo): object | undefined {
  const name = nameOf(ogx);
  if (refusedUnnamed(ogx, OGX_KIND, io)) return undefined;
  const converted = fromOgx(ogx, io, options);
  if (converted === undefined) return undefined;
  if (!converted.ok || !isKubeObject(converted.object)) {
    io.stderr(`error: ${name}:\n${formatErrors(converted.ok ? [] : converted.errors)}\n`);
    return undefined;
  }
  const llsd = converted.object;
  const doc = { where: "", apiVersion: String(llsd.apiVersion), name, object: llsd, problems: [] };
  const { errors } = verdictOf(doc);
  if (errors.length > 0) {
    io.stderr(
      `error: ${name}: the LLSD it converts to is refused; change these fields in the OGXServer, or in the LLSD that llsd convert --to v1alpha2 prints, then migrate again:\n${formatErrors(errors)}\n`,
    );
    return undefined;
  }
  const plan = ogxServerSteps(llsd, factsOfOgxServer(ogx));
  io.stderr(`${name}: the LLSD takes over the running OGXServer, its data kept\n${renderOgxTakeover(plan)}`);
  return llsd;
}

const NO_OGXSERVER = {
  kind: OGX_KIND,
  missing: `the file holds no ${OGX_KIND} (kind: ${OGX_KIND}, apiVersion: ${OGX_API_VERSION}): migrate --from ogxserver reads those; for a LlamaStackDistribution run llsd migrate FILE without --from`,
};

export function migrateFromOgxCommand(file: string, options: WeakerOptions, io: CliIo): number {
  const each = (object: JsonMap): object | undefined =>
    object.kind === OGX_KIND ? takeoverLlsd(object, options, io) : object;
  return eachDocument(file, io, each, { kinds: [LLSD_KIND, OGX_KIND], required: NO_OGXSERVER });
}

/**
 * `llsd migrate --from ogxserver FILE`: the road in from the OGX operator. Each OGXServer
 * becomes an LLSD of the same name (lib/ogx/, its warnings on stderr), checked as `llsd validate`
 * checks it, and stderr gets the steps that hand the running server's children to it, with its
 * data kept (lib/migrate/ogxserver-steps.ts, docs/migrating-from-ogxserver.md). Other
 * documents pass through unchanged.
 */
import { formatErrors } from "../errors";
import { LLSD_KIND } from "../config/check-object";
import type { JsonMap } from "../conversion/paths";
import { factsOfOgxServer } from "../migrate/ogxserver-facts";
import { ogxServerSteps, renderOgxTakeover } from "../migrate/ogxserver-steps";
import { OGX_KIND } from "../ogx/schema";
import { isKubeObject } from "../wire/metacontroller";
import { fromOgx, nameOf } from "./convert";
import { eachDocument } from "./each-document";
import type { CliIo } from "./io";
import { verdictOf } from "./verdict";

/** One OGXServer as the LLSD that takes over its children, or undefined after printing why not. */
function takeoverLlsd(ogx: JsonMap, io: CliIo): object | undefined {
  const name = nameOf(ogx);
  const converted = fromOgx(ogx, io);
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

export function migrateFromOgxCommand(file: string, io: CliIo): number {
  return eachDocument(file, io, (object) => (object.kind === OGX_KIND ? takeoverLlsd(object, io) : object), [
    LLSD_KIND,
    OGX_KIND,
  ]);
}

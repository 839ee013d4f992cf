/**
 * The OGXServer operator's CRD and every OGXServer of its samples, config-generator cases and docs
 * (tests/fixtures/ogxserver/README.md says where each comes from).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse, parseAllDocuments } from "yaml";
import { isPlainObject, type JsonMap } from "../../lib/conversion/paths";
import type { Crd } from "../../lib/crd/generate";

export const PEER_DIR = join(__dirname, "../fixtures/ogxserver");

export function peerCrd(): Crd {
  return parse(readFileSync(join(PEER_DIR, "ogx.io_ogxservers.yaml"), "utf8")) as Crd;
}

export interface PeerObject {
  /** `samples/<file>#<n>`, `configgen/<case>.yaml#<n>` or `docs/<file>#<block>.<n>`. */
  readonly id: string;
  readonly object: JsonMap;
}

function ogxServers(text: string, id: string): PeerObject[] {
  return parseAllDocuments(text).flatMap((doc, n) => {
    const object: unknown = doc.toJS();
    return isPlainObject(object) && object.kind === "OGXServer" ? [{ id: `${id}#${n + 1}`, object }] : [];
  });
}

const filesOf = (dir: string): string[] => readdirSync(join(PEER_DIR, dir)).sort();

export function peerObjects(): PeerObject[] {
  const fromYaml = ["samples", "configgen"].flatMap((dir) =>
    filesOf(dir).flatMap((f) => ogxServers(readFileSync(join(PEER_DIR, dir, f), "utf8"), `${dir}/${f}`)),
  );
  const fromDocs = filesOf("docs").flatMap((f) => {
    const blocks = [...readFileSync(join(PEER_DIR, "docs", f), "utf8").matchAll(/```ya?ml\n([\s\S]*?)```/g)];
    return blocks.flatMap((m, i) => ogxServers(m[1] ?? "", `docs/${f}#${i + 1}`));
  });
  return [...fromYaml, ...fromDocs];
}

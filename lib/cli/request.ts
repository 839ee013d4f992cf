/**
 * `llsd request sync|customize FILE`: the hook request Metacontroller would send for the first
 * LlamaStackDistribution in FILE, with the Secrets and ConfigMaps of the same file as `related`
 * (hook version v2 keys). Pipe it to `curl --data-binary @-` to try a running service.
 */
import { parseAllDocuments } from "yaml";
import type { KubeObject } from "../wire/metacontroller";
import type { CliIo } from "./io";

const RELATED_KINDS = new Set(["Secret", "ConfigMap"]);

function objectsIn(text: string): KubeObject[] {
  const docs = parseAllDocuments(text);
  return (Array.isArray(docs) ? docs : []).map((d) => d.toJS() as KubeObject).filter((o) => o && typeof o === "object");
}

export function requestCommand(hook: string | undefined, file: string, io: CliIo): number {
  if (hook !== "sync" && hook !== "customize") {
    io.stderr("error: request takes sync or customize, then FILE\n");
    return 2;
  }
  const objects = objectsIn(io.readFile(file));
  const parent = objects.find((o) => o.kind === "LlamaStackDistribution");
  if (!parent) {
    io.stderr(`error: ${file} has no LlamaStackDistribution document\n`);
    return 1;
  }
  const namespace = parent.metadata.namespace ?? "default";
  const withNamespace = { ...parent, metadata: { ...parent.metadata, namespace, generation: 1, uid: "00000000-0000-0000-0000-000000000001" } };
  if (hook === "customize") {
    io.stdout(`${JSON.stringify({ parent: withNamespace }, null, 2)}\n`);
    return 0;
  }
  const related: { [key: string]: { [name: string]: KubeObject } } = { "Secret.v1": {}, "ConfigMap.v1": {} };
  for (const o of objects.filter((x) => RELATED_KINDS.has(x.kind))) {
    const ns = o.metadata.namespace ?? namespace;
    const encoded = o.kind === "Secret" && o.stringData ? toData(o) : o;
    related[`${o.kind}.v1`]![`${ns}/${o.metadata.name}`] = { ...encoded, metadata: { ...o.metadata, namespace: ns } };
  }
  io.stdout(`${JSON.stringify({ parent: withNamespace, children: {}, related }, null, 2)}\n`);
  return 0;
}

/** The apiserver stores `stringData` as base64 `data`; Metacontroller sends what is stored. */
function toData(secret: KubeObject): KubeObject {
  const { stringData, ...rest } = secret as KubeObject & { stringData: { [k: string]: string } };
  const data = { ...(secret.data as object | undefined) } as { [k: string]: string };
  for (const [k, v] of Object.entries(stringData)) data[k] = Buffer.from(v, "utf8").toString("base64");
  return { ...rest, data } as KubeObject;
}

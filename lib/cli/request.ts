/**
 * `llsd request sync|customize FILE`: the hook request Metacontroller would send for the first
 * LlamaStackDistribution in FILE, with the Secrets and ConfigMaps of the same file as `related`
 * (hook version v2 keys). Pipe it to `curl --data-binary @-` to try a running service. A v1alpha1
 * parent is sent as the cluster stores it, converted to v1alpha2.
 */
import { formatErrors } from "../errors";
import type { KubeObject } from "../wire/metacontroller";
import { asStored, llsdDocuments } from "./documents";
import { readText, UsageError, type CliIo } from "./io";

const RELATED_KINDS = new Set(["Secret", "ConfigMap"]);

export function requestCommand(hook: string | undefined, file: string | undefined, io: CliIo): number {
  if (hook !== "sync" && hook !== "customize") throw new UsageError("request takes sync or customize, then FILE");
  if (file === undefined) throw new UsageError(`request ${hook} takes a FILE`);
  const read = llsdDocuments(readText(io, file), file);
  if (!read.ok) {
    io.stderr(`error: ${formatErrors(read.errors)}\n`);
    return 1;
  }
  const first = read.documents[0];
  if (!first) {
    io.stderr(`error: ${file} has no LlamaStackDistribution document\n`);
    return 1;
  }
  const stored = asStored(first, file, io);
  if (stored === undefined) return 1;
  const parent = stored.object as unknown as KubeObject;
  const namespace = parent.metadata?.namespace ?? "default";
  const withNamespace = {
    ...parent,
    metadata: { ...parent.metadata, namespace, generation: 1, uid: "00000000-0000-0000-0000-000000000001" },
  };
  if (hook === "customize") {
    io.stdout(`${JSON.stringify({ parent: withNamespace }, null, 2)}\n`);
    return 0;
  }
  const related: { [key: string]: { [name: string]: KubeObject } } = { "Secret.v1": {}, "ConfigMap.v1": {} };
  const objects = read.others
    .map((o) => o as unknown as KubeObject)
    .filter((o) => RELATED_KINDS.has(o.kind) && typeof o.metadata?.name === "string");
  for (const o of objects) {
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

/**
 * `llsd request sync|customize FILE`: the hook request Metacontroller would send for the first
 * LlamaStackDistribution in FILE, with the Secrets and ConfigMaps of the same file as `related`
 * (hook version v2 keys). Pipe it to `curl --data-binary @-` to try a running service. A v1alpha1
 * parent is sent as the cluster stores it, converted to v1alpha2.
 */
import { formatErrors } from "../errors";
import { isPlainObject, type JsonMap } from "../json";
import { asStored, configMapsOf, llsdDocuments } from "./documents";
import { oneOf } from "./args";
import { readText, UsageError, type CliIo } from "./io";
import { passes } from "./verdict";

const RELATED_KINDS = new Set(["Secret", "ConfigMap"]);

const HOOKS = ["sync", "customize"] as const;

export function requestCommand(written: string | undefined, file: string | undefined, io: CliIo): number {
  if (written === undefined) throw new UsageError("request takes sync or customize, then FILE");
  const hook = oneOf("the hook", written, HOOKS);
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
  // Metacontroller never sends a CR the apiserver's admission refused: neither does this.
  const stored = passes(first, configMapsOf(read.configMaps), io) ? asStored(first, file, io) : undefined;
  if (stored === undefined) return 1;
  const { parent, namespace } = asParent(stored.object);
  const body = hook === "customize" ? { parent } : { parent, children: {}, related: relatedOf(read.others, namespace) };
  io.stdout(`${JSON.stringify(body, null, 2)}\n`);
  return 0;
}

/** The CR as the apiserver would hand it over: in a namespace (`default` when none), generation 1, a uid. */
function asParent(object: { readonly [k: string]: unknown }): { parent: JsonMap; namespace: string } {
  const metadata = isPlainObject(object.metadata) ? object.metadata : {};
  const namespace = typeof metadata.namespace === "string" ? metadata.namespace : "default";
  const parent = {
    ...object,
    metadata: { ...metadata, namespace, generation: 1, uid: "00000000-0000-0000-0000-000000000001" },
  };
  return { parent, namespace };
}

/** The file's Secrets and ConfigMaps, keyed the way Metacontroller's `related` map keys them. */
function relatedOf(others: readonly JsonMap[], namespace: string): { [key: string]: { [name: string]: JsonMap } } {
  const related: { [key: string]: { [name: string]: JsonMap } } = { "Secret.v1": {}, "ConfigMap.v1": {} };
  for (const o of others) {
    const { kind, metadata } = o;
    if (typeof kind !== "string" || !RELATED_KINDS.has(kind) || !isPlainObject(metadata)) continue;
    if (typeof metadata.name !== "string") continue;
    const ns = typeof metadata.namespace === "string" ? metadata.namespace : namespace;
    const encoded = kind === "Secret" && isPlainObject(o.stringData) ? toData(o, o.stringData) : o;
    const group = related[`${kind}.v1`] ?? {};
    group[`${ns}/${metadata.name}`] = { ...encoded, metadata: { ...metadata, namespace: ns } };
  }
  return related;
}

/** The apiserver stores `stringData` as base64 `data`; Metacontroller sends what is stored. */
function toData(secret: JsonMap, stringData: JsonMap): JsonMap {
  const { stringData: _stringData, ...rest } = secret;
  const data: { [k: string]: unknown } = isPlainObject(secret.data) ? { ...secret.data } : {};
  for (const [k, v] of Object.entries(stringData)) {
    if (typeof v === "string") data[k] = Buffer.from(v, "utf8").toString("base64");
  }
  return { ...rest, data };
}

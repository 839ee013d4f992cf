/** Read the LlamaStackDistribution documents of a (multi-document) YAML file, `kind: List` included. */
import { fieldError, formatErrors, type FieldError } from "../errors";
import { LLSD_KIND, meantAsLlsd, V1ALPHA1_API } from "../config/check-object";
import { isPlainObject, own, type JsonMap } from "../json";
import { toHub } from "../conversion/v1alpha1";
import type { CliIo } from "./io";
import { secretReferenceProblems, type InputSecret } from "./secret-refs";
import { yamlObjects, type YamlObject } from "./yaml-input";

export interface CrDocument {
  /** How messages name it in its file: `document 2`, `document 1, items[0]`. */
  readonly where: string;
  readonly apiVersion: string;
  readonly name: string;
  readonly object: { readonly [k: string]: unknown };
  /** What is wrong with it beside the spec: no name, a reference to a Secret of the input that does not hold. */
  readonly problems: readonly FieldError[];
}

/** ConfigMaps found beside the CRs (by name → data), so an overrideConfig can be checked offline. */
export type ConfigMaps = { [name: string]: { [key: string]: string } };

/** The file's ConfigMaps as the related objects it gives; none: the CR's references are not given (unchecked, with a warning). */
export const configMapsOf = (found: ConfigMaps): { configMaps?: ConfigMaps } =>
  Object.keys(found).length > 0 ? { configMaps: found } : {};

export type ReadDocuments =
  | { ok: true; documents: CrDocument[]; configMaps: ConfigMaps; others: { [k: string]: unknown }[] }
  | { ok: false; errors: FieldError[] };

type Found = { documents: CrDocument[]; configMaps: ConfigMaps; others: JsonMap[]; secrets: InputSecret[] };

/**
 * Every object of the file: LLSDs, ConfigMaps (by name) and the rest. Invalid YAML, or an object
 * meant as an LLSD whose kind is misspelled, fails the whole file.
 */
export function llsdDocuments(text: string, file: string): ReadDocuments {
  const read = yamlObjects(text, file);
  if (!read.ok) return read;
  const errors: FieldError[] = [];
  const found: Found = { documents: [], configMaps: {}, others: [], secrets: [] };
  for (const item of read.values) {
    const problem = sortObject(item, found);
    if (problem !== undefined) errors.push(fieldError(`${file}: ${item.where}: kind`, problem));
  }
  if (errors.length > 0) return { ok: false, errors };
  const documents = found.documents.map((doc) => ({
    ...doc,
    problems: [...doc.problems, ...secretReferenceProblems(doc.object, found.secrets)],
  }));
  return { ok: true, documents, configMaps: found.configMaps, others: found.others };
}

/** Files one object where it belongs; a misspelled LLSD kind is a problem (returned). */
function sortObject({ where, value }: YamlObject, found: Found): string | undefined {
  if (!isPlainObject(value)) return undefined;
  if (value.kind === "ConfigMap" && value.apiVersion === "v1") addConfigMap(value, found.configMaps);
  if (value.kind === "Secret" && value.apiVersion === "v1") found.secrets.push(value);
  if (value.kind !== LLSD_KIND && meantAsLlsd(value))
    return `${JSON.stringify(value.kind ?? null)} is not a kind this project serves; did you mean "${LLSD_KIND}"?`;
  if (value.kind !== LLSD_KIND) found.others.push(value);
  else found.documents.push(crDocument(where, value));
  return undefined;
}

function crDocument(where: string, object: JsonMap): CrDocument {
  const name = scalarText(own(object.metadata, "name"), "");
  const generated = scalarText(own(object.metadata, "generateName"), "");
  const named = isNamed(object);
  return {
    where,
    apiVersion: scalarText(object.apiVersion, ""),
    name: name || (generated ? `${generated}…` : `(unnamed, ${where})`),
    object,
    problems: named ? [] : [UNNAMED],
  };
}

/** The apiserver refuses an object without a name; so does every command that reads or writes one. */
export const unnamed = (kind = LLSD_KIND): FieldError =>
  fieldError(
    "metadata.name",
    `required: every ${kind} needs a name; add metadata: {name: ${kind === LLSD_KIND ? "my-llsd" : "my-server"}} (lower-case letters, digits and '-')`,
  );
const UNNAMED = unnamed();

/** Whether the object has a name, or a `generateName` the apiserver makes one of. */
export function isNamed(object: JsonMap): boolean {
  return (
    scalarText(own(object.metadata, "name"), "") !== "" || scalarText(own(object.metadata, "generateName"), "") !== ""
  );
}

function addConfigMap(object: JsonMap, configMaps: ConfigMaps): void {
  const name = own(object.metadata, "name");
  if (typeof name === "string") configMaps[name] = stringData(object.data);
}

/** A ConfigMap's `data`: string values only (the apiserver allows nothing else there). */
function stringData(data: unknown): { [key: string]: string } {
  if (!isPlainObject(data)) return {};
  return Object.fromEntries(Object.entries(data).filter((e): e is [string, string] => typeof e[1] === "string"));
}

/** A scalar as text; anything else (missing, a map, a list) reads `fallback`. */
function scalarText(value: unknown, fallback: string): string {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean"
    ? String(value)
    : fallback;
}

/**
 * A v1alpha1 document in the stored v1alpha2 form (the conversion webhook's code), with a note on
 * stderr; v1alpha2 as is; undefined (and the reason on stderr) when it cannot be converted.
 */
export function asStored(doc: CrDocument, file: string, io: CliIo): CrDocument | undefined {
  if (doc.apiVersion !== V1ALPHA1_API) return doc;
  const hub = toHub(doc.object);
  if (!hub.ok) {
    io.stderr(
      `error: ${doc.name}: cannot convert ${V1ALPHA1_API} to v1alpha2 (llsd convert --to v1alpha2 ${file} says the same):\n${formatErrors(hub.errors)}\n`,
    );
    return undefined;
  }
  io.stderr(
    `note: ${doc.name}: ${V1ALPHA1_API} converted to llamastack.io/v1alpha2, as the cluster stores it (llsd convert --to v1alpha2 ${file} prints it; llsd migrate ${file} also moves env vars into providers)\n`,
  );
  return { ...doc, apiVersion: hub.object.apiVersion, object: { ...hub.object } };
}

/** Read the LlamaStackDistribution documents of a (multi-document) YAML file. */
import { parseAllDocuments, type YAMLError } from "yaml";
import { fieldError, formatErrors, type FieldError } from "../errors";
import { LLSD_KIND, meantAsLlsd, V1ALPHA1_API } from "../config/check-object";
import { isPlainObject, own, type JsonMap } from "../conversion/paths";
import { toHub } from "../conversion/v1alpha1";
import type { CliIo } from "./io";

export interface CrDocument {
  readonly index: number;
  readonly apiVersion: string;
  readonly name: string;
  readonly object: { readonly [k: string]: unknown };
}

/** ConfigMaps found beside the CRs (by name → data), so an overrideConfig can be checked offline. */
export type ConfigMaps = { [name: string]: { [key: string]: string } };

export type ReadDocuments =
  | { ok: true; documents: CrDocument[]; configMaps: ConfigMaps; others: { [k: string]: unknown }[] }
  | { ok: false; errors: FieldError[] };

type Found = { documents: CrDocument[]; configMaps: ConfigMaps; others: { [k: string]: unknown }[] };

/**
 * Every document of the file: LLSDs, ConfigMaps (by name) and the rest. A YAML syntax error, or
 * a document meant as an LLSD whose kind is misspelled, fails the whole file.
 */
export function llsdDocuments(text: string, file: string): ReadDocuments {
  const docs = parseAllDocuments(text, { uniqueKeys: true });
  if (!Array.isArray(docs)) return { ok: true, documents: [], configMaps: {}, others: [] };
  const errors: FieldError[] = [];
  const found: Found = { documents: [], configMaps: {}, others: [] };
  docs.forEach((doc, index) => {
    const first = doc.errors[0];
    if (first) errors.push(yamlError(first, file));
    else {
      const problem = sortDocument(doc.toJS(), index, found);
      if (problem !== undefined) errors.push(fieldError(`${file}: document ${index + 1}: kind`, problem));
    }
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, ...found };
}

function yamlError(error: YAMLError, file: string): FieldError {
  const line = error.linePos?.[0]?.line;
  return fieldError(
    `${file}${line !== undefined ? `:${line}` : ""}`,
    `invalid YAML (${error.code}): ${(error.message.split("\n")[0] ?? "").replace(/ at line \d+, column \d+:?$/, "")}`,
  );
}

/** Files one parsed document where it belongs; a misspelled LLSD kind is a problem (returned). */
function sortDocument(object: unknown, index: number, found: Found): string | undefined {
  if (!isPlainObject(object)) return undefined;
  if (object.kind === "ConfigMap" && object.apiVersion === "v1") addConfigMap(object, found.configMaps);
  if (object.kind !== LLSD_KIND && meantAsLlsd(object))
    return `${JSON.stringify(object.kind ?? null)} is not a kind this project serves; did you mean "${LLSD_KIND}"?`;
  if (object.kind !== LLSD_KIND) found.others.push(object);
  else
    found.documents.push({
      index,
      apiVersion: scalarText(object.apiVersion, ""),
      name: scalarText(own(object.metadata, "name"), "llsd"),
      object,
    });
  return undefined;
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

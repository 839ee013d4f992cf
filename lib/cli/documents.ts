/** Read the LlamaStackDistribution documents of a (multi-document) YAML file. */
import { parseAllDocuments } from "yaml";
import { fieldError, formatErrors, type FieldError } from "../errors";
import { LLSD_KIND, meantAsLlsd, V1ALPHA1_API } from "../config/check-object";
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

/**
 * Every document of the file: LLSDs, ConfigMaps (by name) and the rest. A YAML syntax error, or
 * a document meant as an LLSD whose kind is misspelled, fails the whole file.
 */
export function llsdDocuments(text: string, file: string): ReadDocuments {
  const docs = parseAllDocuments(text, { uniqueKeys: true });
  if (!Array.isArray(docs)) return { ok: true, documents: [], configMaps: {}, others: [] };
  const errors: FieldError[] = [];
  const documents: CrDocument[] = [];
  const configMaps: ConfigMaps = {};
  const others: { [k: string]: unknown }[] = [];
  docs.forEach((doc, index) => {
    const first = doc.errors[0];
    if (first) {
      const line = first.linePos?.[0]?.line;
      errors.push(
        fieldError(
          `${file}${line !== undefined ? `:${line}` : ""}`,
          `invalid YAML (${first.code}): ${(first.message.split("\n")[0] ?? "").replace(/ at line \d+, column \d+:?$/, "")}`,
        ),
      );
      return;
    }
    const object = doc.toJS() as { [k: string]: unknown } | null;
    if (object === null || typeof object !== "object") return;
    if (object.kind === "ConfigMap" && object.apiVersion === "v1") {
      const name = (object.metadata as { name?: unknown } | undefined)?.name;
      if (typeof name === "string") configMaps[name] = (object.data ?? {}) as { [key: string]: string };
    }
    if (object.kind !== LLSD_KIND && meantAsLlsd(object)) {
      errors.push(
        fieldError(
          `${file}: document ${index + 1}: kind`,
          `${JSON.stringify(object.kind ?? null)} is not a kind this project serves; did you mean "${LLSD_KIND}"?`,
        ),
      );
      return;
    }
    if (object.kind !== LLSD_KIND) {
      others.push(object);
      return;
    }
    const metadata = (object.metadata ?? {}) as { name?: unknown };
    documents.push({
      index,
      apiVersion: String(object.apiVersion ?? ""),
      name: String(metadata.name ?? "llsd"),
      object,
    });
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, documents, configMaps, others };
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
  const object = hub.object as unknown as { [k: string]: unknown };
  return { ...doc, apiVersion: String(object.apiVersion), object };
}

/** Read the LlamaStackDistribution documents of a (multi-document) YAML file. */
import { parseAllDocuments } from "yaml";
import { fieldError, type FieldError } from "../errors";

export interface CrDocument {
  readonly index: number;
  readonly apiVersion: string;
  readonly name: string;
  readonly object: { readonly [k: string]: unknown };
}

/** ConfigMaps found beside the CRs (by name → data), so an overrideConfig can be checked offline. */
export type ConfigMaps = { [name: string]: { [key: string]: string } };

export type ReadDocuments = { ok: true; documents: CrDocument[]; configMaps: ConfigMaps } | { ok: false; errors: FieldError[] };

export function llsdDocuments(text: string, file: string): ReadDocuments {
  const docs = parseAllDocuments(text, { uniqueKeys: true });
  if (!Array.isArray(docs)) return { ok: true, documents: [], configMaps: {} };
  const errors: FieldError[] = [];
  const documents: CrDocument[] = [];
  const configMaps: ConfigMaps = {};
  docs.forEach((doc, index) => {
    const first = doc.errors[0];
    if (first) {
      const line = first.linePos?.[0]?.line;
      errors.push(fieldError(`${file}${line !== undefined ? `:${line}` : ""}`, `invalid YAML (${first.code}): ${(first.message.split("\n")[0] ?? "").replace(/ at line \d+, column \d+:?$/, "")}`));
      return;
    }
    const object = doc.toJS() as { [k: string]: unknown } | null;
    if (object?.kind === "ConfigMap" && object.apiVersion === "v1") {
      const name = (object.metadata as { name?: unknown } | undefined)?.name;
      if (typeof name === "string") configMaps[name] = (object.data ?? {}) as { [key: string]: string };
    }
    if (object === null || typeof object !== "object" || object.kind !== "LlamaStackDistribution") return;
    const metadata = (object.metadata ?? {}) as { name?: unknown };
    documents.push({ index, apiVersion: String(object.apiVersion ?? ""), name: String(metadata.name ?? "llsd"), object });
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, documents, configMaps };
}

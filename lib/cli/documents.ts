/** Read the LlamaStackDistribution documents of a (multi-document) YAML file. */
import { parseAllDocuments } from "yaml";
import { fieldError, type FieldError } from "../errors";

export interface CrDocument {
  readonly index: number;
  readonly apiVersion: string;
  readonly name: string;
  readonly object: { readonly [k: string]: unknown };
}

export type ReadDocuments = { ok: true; documents: CrDocument[] } | { ok: false; errors: FieldError[] };

export function llsdDocuments(text: string, file: string): ReadDocuments {
  const docs = parseAllDocuments(text, { uniqueKeys: true });
  if (!Array.isArray(docs)) return { ok: true, documents: [] };
  const errors: FieldError[] = [];
  const documents: CrDocument[] = [];
  docs.forEach((doc, index) => {
    const first = doc.errors[0];
    if (first) {
      const line = first.linePos?.[0]?.line;
      errors.push(fieldError(`${file}${line !== undefined ? `:${line}` : ""}`, `invalid YAML (${first.code}): ${(first.message.split("\n")[0] ?? "").replace(/ at line \d+, column \d+:?$/, "")}`));
      return;
    }
    const object = doc.toJS() as { [k: string]: unknown } | null;
    if (object === null || typeof object !== "object" || object.kind !== "LlamaStackDistribution") return;
    const metadata = (object.metadata ?? {}) as { name?: unknown };
    documents.push({ index, apiVersion: String(object.apiVersion ?? ""), name: String(metadata.name ?? "llsd"), object });
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, documents };
}

/**
 * The objects of a (multi-document) YAML file given to `llsd`: a syntax error, an unresolved
 * alias or an alias bomb is "invalid YAML" with the file, where, and the parser's reason; a
 * `kind: List` (what `kubectl get … -o yaml` prints) stands for its items.
 */
import { parseAllDocuments, type Document, type YAMLError } from "yaml";
import { fieldError, thrownMessage, type FieldError } from "../errors";
import { isPlainObject, type JsonMap } from "../json";

/** A document's value, or an item of a List document, and how messages name it (`document 1, items[3]`). */
export interface YamlObject {
  readonly where: string;
  readonly value: unknown;
}

export type Read<T> =
  { readonly ok: true; readonly values: T[] } | { readonly ok: false; readonly errors: FieldError[] };

/** `kubectl get -o yaml` prints `v1 List`; the API's own list kind is `LlamaStackDistributionList`. */
const LIST_KINDS = new Set(["List", "LlamaStackDistributionList"]);

/** A list of objects (`kind: List` with `items`), whose items are what the file holds. */
export function isList(value: unknown): value is JsonMap & { readonly items: readonly unknown[] } {
  return (
    isPlainObject(value) && typeof value.kind === "string" && LIST_KINDS.has(value.kind) && Array.isArray(value.items)
  );
}

/** Every document of the text, or every reason it is not YAML (all documents, each named). */
export function yamlDocuments(text: string, file: string): Read<YamlObject> {
  const docs = parseAllDocuments(text, { uniqueKeys: true });
  const values: YamlObject[] = [];
  const errors: FieldError[] = [];
  (Array.isArray(docs) ? docs : []).forEach((doc, index) => {
    const where = `document ${index + 1}`;
    const read = valueOf(doc, file, where);
    if ("error" in read) errors.push(read.error);
    else values.push({ where, value: read.value });
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, values };
}

/** The objects of the text, a List's items in its place. */
export function yamlObjects(text: string, file: string): Read<YamlObject> {
  const read = yamlDocuments(text, file);
  if (!read.ok) return read;
  return { ok: true, values: read.values.flatMap(itemsOf) };
}

function itemsOf(doc: YamlObject): YamlObject[] {
  if (!isList(doc.value)) return [doc];
  return doc.value.items.map((value, i) => ({ where: `${doc.where}, items[${i}]`, value }));
}

/**
 * The document's value. `toJS` resolves aliases, and refuses an unresolved one or one expanded
 * past the parser's limit (a "billion laughs" file): that is the file's fault, never llsd's.
 */
function valueOf(doc: Document.Parsed, file: string, where: string): { value: unknown } | { error: FieldError } {
  const first = doc.errors[0];
  if (first) return { error: syntaxError(first, file) };
  try {
    return { value: doc.toJS() };
  } catch (error) {
    return {
      error: fieldError(`${file}: ${where}`, `invalid YAML: ${thrownMessage(error) ?? "the parser refused it"}`),
    };
  }
}

/** A syntax error is named by its line, as editors show it. */
function syntaxError(error: YAMLError, file: string): FieldError {
  const line = error.linePos?.[0]?.line;
  return fieldError(
    `${file}${line !== undefined ? `:${line}` : ""}`,
    `invalid YAML (${error.code}): ${(error.message.split("\n")[0] ?? "").replace(/ at line \d+, column \d+:?$/, "")}`,
  );
}

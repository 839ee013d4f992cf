/**
 * `llsd convert` and `llsd migrate` rewrite each LlamaStackDistribution of a file and pass every
 * other object through: a `kind: List` comes out a List of its items rewritten, so
 * `kubectl get llsd -o yaml | llsd convert … -` can be applied back.
 */
import { stringify } from "yaml";
import { formatErrors } from "../errors";
import { LLSD_KIND } from "../config/check-object";
import { isPlainObject, type JsonMap } from "../json";
import { readText, type CliIo } from "./io";
import { isList, yamlDocuments } from "./yaml-input";

export type Transform = (object: JsonMap, io: CliIo) => object | undefined;

/** A kind the file must hold, and what to say (the fix) when it holds none: the command has nothing to do. */
export interface Required {
  readonly kind: string;
  readonly missing: string;
}

/** Which documents go through the transform, and a kind the file must hold. */
export interface Selection {
  readonly kinds: readonly string[];
  readonly required?: Required;
}

/** Whether any document (or List item) is of `kind`. */
const holds = (values: readonly unknown[], kind: string): boolean =>
  values.some((v) => (isList(v) ? holds(v.items, kind) : isPlainObject(v) && v.kind === kind));

/**
 * Every document of FILE, each of `kinds` through `transform`; 1 when the file is not YAML, a
 * transform failed, or it holds no `required` kind (then nothing is printed on stdout).
 */
export function eachDocument(
  file: string,
  io: CliIo,
  transform: Transform,
  { kinds, required }: Selection = { kinds: [LLSD_KIND] },
): number {
  const read = yamlDocuments(readText(io, file), file);
  if (!read.ok) {
    io.stderr(`error: ${formatErrors(read.errors)}\n`);
    return 1;
  }
  if (
    required &&
    !holds(
      read.values.map((v) => v.value),
      required.kind,
    )
  ) {
    io.stderr(`error: ${required.missing}\n`);
    return 1;
  }
  const out: string[] = [];
  let failed = false;
  const each = (value: unknown): unknown => {
    const result = isPlainObject(value) && kinds.some((k) => k === value.kind) ? transform(value, io) : value;
    if (result === undefined) failed = true;
    return result;
  };
  for (const { value } of read.values) {
    if (value === null) continue;
    const result = isList(value)
      ? { ...value, items: value.items.map(each).filter((i) => i !== undefined) }
      : each(value);
    if (result !== undefined) out.push(stringify(result, { lineWidth: 0 }));
  }
  io.stdout(out.join("---\n"));
  return failed ? 1 : 0;
}

/**
 * Walks a TypeScript type (read with the compiler API) against a JSON Schema and lists every
 * place they disagree, with its field path. Used to keep the hand-written API types
 * (lib/api/v1alpha*.ts) and the ajv schemas the apiserver enforces saying the same thing.
 *
 * What counts as agreeing:
 * - objects: the same property names; optional in the type ⇔ not in `required`; an index
 *   signature ⇔ `additionalProperties` (a schema), no index signature ⇔ a closed object.
 * - kinds: string, number (integer or number), boolean, array, object; a union ⇔ oneOf/anyOf
 *   with the same kinds; a string-literal union ⇔ an `enum` with the same values.
 * - `unknown` in the type accepts any schema: the hooks do not read inside it (`any` does not).
 * - an object the schema keeps untouched (`x-preserve-unknown`, no properties: Kubernetes
 *   pass-through objects, provider config) accepts any object type: the type may name the
 *   fields the code reads, the apiserver keeps whatever is written.
 */
import * as ts from "typescript";
import { PRESERVE_UNKNOWN_MARK, type Schema } from "../../../lib/api/schema-parts";

type Kind = "string" | "number" | "boolean" | "array" | "object" | "any";

/** Declared types by name, from real files and (for the walker's own tests) in-memory sources. */
export function loadTypes(files: readonly string[], sources: { readonly [file: string]: string } = {}) {
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const read = host.readFile.bind(host);
  host.readFile = (file) => sources[file] ?? read(file);
  const exists = host.fileExists.bind(host);
  host.fileExists = (file) => file in sources || exists(file);
  const program = ts.createProgram([...files, ...Object.keys(sources)], options, host);
  const diagnostics = ts.getPreEmitDiagnostics(program);
  if (diagnostics.length > 0) throw new Error(ts.formatDiagnostics(diagnostics, host)); // else types read as `any`
  const checker = program.getTypeChecker();
  const byName = new Map<string, ts.Type>();
  for (const file of program.getRootFileNames()) {
    const module = checker.getSymbolAtLocation(program.getSourceFile(file)!);
    for (const symbol of module ? checker.getExportsOfModule(module) : []) {
      if (symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias))
        byName.set(symbol.name, checker.getDeclaredTypeOfSymbol(symbol));
    }
  }
  return {
    /** Every disagreement between the named type and the schema, one line each. */
    compare(typeName: string, schema: Schema, path: string): string[] {
      const type = byName.get(typeName);
      if (!type) throw new Error(`no exported type ${typeName} in ${files.join(", ")}`);
      const problems: string[] = [];
      new Walk(checker, problems).compare(type, schema, path);
      return problems;
    },
  };
}

class Walk {
  constructor(
    private readonly checker: ts.TypeChecker,
    private readonly problems: string[],
  ) {}

  compare(type: ts.Type, schema: Schema, path: string): void {
    if (type.flags & ts.TypeFlags.Unknown) return;
    const types = this.typeKinds(type);
    const schemas = schemaKinds(schema);
    const typeSide = [...types.keys()].sort().join(" | ");
    const schemaSide = [...schemas.keys()].sort().join(" | ");
    if (typeSide !== schemaSide) {
      this.problems.push(`${path}: the type is ${typeSide}, the schema is ${schemaSide}`);
      return;
    }
    for (const [kind, parts] of types) this.compareKind(kind, parts, schemas.get(kind)!, path);
  }

  private compareKind(kind: Kind, types: ts.Type[], schemas: Schema[], path: string): void {
    if (kind === "string") this.compareStrings(types, schemas, path);
    else if (kind === "array") this.compareArrays(types, schemas, path);
    else if (kind === "object") this.compareObjects(types, schemas, path);
  }

  private compareStrings(types: ts.Type[], schemas: Schema[], path: string): void {
    const values = types.flatMap((t) => (t.isStringLiteral() ? [t.value] : []));
    const literals = values.length === types.length ? values : []; // `string` among them: any string
    const enums = schemas.every((s) => Array.isArray(s.enum)) ? schemas.flatMap((s) => s.enum as string[]) : [];
    const inTypeOnly = literals.filter((v) => enums.length > 0 && !enums.includes(v));
    const inSchemaOnly = enums.filter((v) => literals.length > 0 && !literals.includes(v));
    if (literals.length > 0 && enums.length === 0)
      this.problems.push(`${path}: the type lists ${literals.join(", ")}; the schema accepts any string`);
    if (enums.length > 0 && literals.length === 0)
      this.problems.push(`${path}: the schema's enum is ${enums.join(", ")}; the type accepts any string`);
    if (inTypeOnly.length > 0)
      this.problems.push(`${path}: ${inTypeOnly.join(", ")} in the type, not the schema's enum`);
    if (inSchemaOnly.length > 0)
      this.problems.push(`${path}: ${inSchemaOnly.join(", ")} in the schema's enum, not the type`);
  }

  private compareArrays(types: ts.Type[], schemas: Schema[], path: string): void {
    if (types.length > 1 || schemas.length > 1) {
      this.problems.push(`${path}: several array forms (the walker compares one)`);
      return;
    }
    const element = this.checker.getTypeArguments(types[0] as ts.TypeReference)[0]!;
    this.compare(element, schemas[0]!.items as Schema, `${path}[]`);
  }

  /** Several object forms (a oneOf of objects) pair up by their property names. */
  private compareObjects(types: ts.Type[], schemas: Schema[], path: string): void {
    if (types.length === 1 && schemas.length === 1) return this.compareObject(types[0]!, schemas[0]!, path);
    const keyOf = (names: string[]) => names.sort().join(",");
    const bySchemaKeys = new Map(schemas.map((s) => [keyOf(Object.keys(properties(s))), s]));
    for (const type of types) {
      const key = keyOf(this.checker.getPropertiesOfType(type).map((p) => p.name));
      const schema = bySchemaKeys.get(key);
      if (schema) this.compareObject(type, schema, path);
      else this.problems.push(`${path}: the object form {${key}} of the type has no object form in the schema`);
      bySchemaKeys.delete(key);
    }
    for (const key of bySchemaKeys.keys())
      this.problems.push(`${path}: the object form {${key}} of the schema has no object form in the type`);
  }

  private compareObject(type: ts.Type, schema: Schema, path: string): void {
    if (schema[PRESERVE_UNKNOWN_MARK] === true && schema.properties === undefined) return;
    const declared = new Map(this.checker.getPropertiesOfType(type).map((p) => [p.name, p]));
    const listed = properties(schema);
    const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
    for (const name of declared.keys())
      if (!(name in listed)) this.problems.push(`${path}.${name}: in the type, not in the schema`);
    for (const name of Object.keys(listed))
      if (!declared.has(name)) this.problems.push(`${path}.${name}: in the schema, not in the type`);
    for (const [name, symbol] of declared) {
      const field = listed[name];
      if (field === undefined) continue;
      const optional = (symbol.flags & ts.SymbolFlags.Optional) !== 0;
      if (optional === required.includes(name))
        this.problems.push(
          `${path}.${name}: ${optional ? "optional in the type, required" : "required in the type, optional"} in the schema`,
        );
      this.compare(this.checker.getNonNullableType(this.checker.getTypeOfSymbol(symbol)), field, `${path}.${name}`);
    }
    this.compareExtraKeys(type, schema, path);
  }

  /** An index signature ⇔ `additionalProperties` with a schema. */
  private compareExtraKeys(type: ts.Type, schema: Schema, path: string): void {
    const index = this.checker.getIndexInfoOfType(type, ts.IndexKind.String)?.type;
    const extra = schema.additionalProperties;
    const open = typeof extra === "object" && extra !== null;
    if (index && !open) this.problems.push(`${path}: the type has an index signature, the schema takes no other keys`);
    if (!index && open)
      this.problems.push(`${path}: the schema takes other keys (additionalProperties), the type does not`);
    if (index && open) this.compare(index, extra as Schema, `${path}.*`);
  }

  /** The type's union members grouped by kind; `undefined` (an optional field) is left out. */
  private typeKinds(type: ts.Type): Map<Kind, ts.Type[]> {
    const kinds = new Map<Kind, ts.Type[]>();
    for (const part of type.isUnion() ? type.types : [type]) {
      const kind = this.kindOf(part);
      if (kind) kinds.set(kind, [...(kinds.get(kind) ?? []), part]);
    }
    return kinds;
  }

  private kindOf(type: ts.Type): Kind | undefined {
    const f = type.flags;
    if (f & (ts.TypeFlags.Undefined | ts.TypeFlags.Null | ts.TypeFlags.Void)) return undefined;
    if (f & ts.TypeFlags.StringLike) return "string";
    if (f & ts.TypeFlags.NumberLike) return "number";
    if (f & ts.TypeFlags.BooleanLike) return "boolean";
    if (f & (ts.TypeFlags.Unknown | ts.TypeFlags.Any)) return "any";
    return this.checker.isArrayType(type) ? "array" : "object";
  }
}

function properties(schema: Schema): { readonly [name: string]: Schema } {
  return (schema.properties ?? {}) as { readonly [name: string]: Schema };
}

/** The schema's alternatives (oneOf/anyOf, or itself) grouped by kind. */
function schemaKinds(schema: Schema): Map<Kind, Schema[]> {
  const kinds = new Map<Kind, Schema[]>();
  const alternatives = (schema.oneOf ?? schema.anyOf ?? [schema]) as Schema[];
  for (const alternative of alternatives) {
    const kind = schemaKind(alternative.type);
    kinds.set(kind, [...(kinds.get(kind) ?? []), alternative]);
  }
  return kinds;
}

function schemaKind(type: unknown): Kind {
  if (type === "integer" || type === "number") return "number";
  if (type === "string" || type === "boolean" || type === "array" || type === "object") return type;
  return "any";
}

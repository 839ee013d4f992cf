/**
 * What the apiserver does with a CRD's schema, done in tests: walk the openAPIV3Schema, apply
 * defaults, evaluate every `x-kubernetes-validations` rule with @bufbuild/cel (`self` = the value
 * at that node, schema integers as bigint like the apiserver's CEL `int`), check that a rule
 * names only fields CEL can see, and validate objects with ajv after mapping the x-kubernetes
 * markers (strict: a field the apiserver would prune is an error).
 */
import { parse } from "@bufbuild/cel";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import type { Crd } from "../../lib/crd/generate";
import { INT_OR_STRING, type JsonSchemaProps } from "../../lib/crd/structural";

export const ROOT = join(__dirname, "..", "..");
export const CRD_PATH = join(ROOT, "crds", "llamastackdistributions.llamastack.io.yaml");

/** The committed CRD file, parsed. */
export function committedCrd(): Crd {
  return parseYaml(readFileSync(CRD_PATH, "utf8")) as Crd;
}

type Props = { readonly [k: string]: JsonSchemaProps };
const propsOf = (node: JsonSchemaProps): Props => (node.properties ?? {}) as Props;
const isObject = (v: unknown): v is { [k: string]: unknown } =>
  typeof v === "object" && v !== null && !Array.isArray(v);

export {
  versionSchema,
  ruleSites,
  applyDefaults,
  toCel,
  evaluate,
  celFailures,
  toAjvSchema,
  structuralErrors,
  type RuleSite,
  type RuleFailure,
} from "../../lib/crd/check";

// ---------------------------------------------------------------------------------------------
// What the apiserver's CEL compiler checks: every `self.a.b` names a field with a CEL type.

interface AstNode {
  readonly exprKind: { readonly case?: string; readonly value?: unknown };
}

function children(expr: AstNode): AstNode[] {
  const v = expr.exprKind.value as { [k: string]: unknown } | undefined;
  switch (expr.exprKind.case) {
    case "selectExpr":
      return [v?.operand as AstNode];
    case "callExpr":
      return [...(v?.target ? [v.target as AstNode] : []), ...((v?.args ?? []) as AstNode[])];
    case "listExpr":
      return (v?.elements ?? []) as AstNode[];
    case "structExpr":
      return ((v?.entries ?? []) as { mapKey?: AstNode; value: AstNode }[]).flatMap((e) => [
        ...(e.mapKey ? [e.mapKey] : []),
        e.value,
      ]);
    case "comprehensionExpr":
      return ["iterRange", "accuInit", "loopCondition", "loopStep", "result"]
        .map((k) => v?.[k] as AstNode)
        .filter(Boolean);
    default:
      return [];
  }
}

/** `self.a.b` → ["a", "b"]; undefined when the select does not start at `self`. */
function selfPath(expr: AstNode): string[] | undefined {
  if (expr.exprKind.case === "identExpr")
    return (expr.exprKind.value as { name: string }).name === "self" ? [] : undefined;
  if (expr.exprKind.case !== "selectExpr") return undefined;
  const select = expr.exprKind.value as { operand: AstNode; field: string };
  const base = selfPath(select.operand);
  return base && [...base, select.field];
}

function celTyped(node: JsonSchemaProps | undefined): boolean {
  return node !== undefined && (typeof node.type === "string" || node[INT_OR_STRING] === true);
}

/** Fields a rule names that the apiserver's compiler would not know (undefined or untyped). */
export function unknownFields(rule: string, node: JsonSchemaProps): string[] {
  const problems: string[] = [];
  const walk = (expr: AstNode): void => {
    const path = selfPath(expr);
    if (path && path.length > 0) {
      let at: JsonSchemaProps | undefined = node;
      for (const [i, field] of path.entries()) {
        const viaMap: JsonSchemaProps | undefined = isObject(at?.additionalProperties)
          ? at.additionalProperties
          : undefined;
        at = at ? (propsOf(at)[field] ?? viaMap) : undefined;
        if (!celTyped(at)) {
          problems.push(`self.${path.slice(0, i + 1).join(".")}`);
          break;
        }
      }
      return;
    }
    for (const child of children(expr)) walk(child);
  };
  walk(parse(rule).expr);
  return [...new Set(problems)];
}

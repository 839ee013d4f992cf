/**
 * A value checked against a config class shape (provider-shapes.generated.ts) as the server's
 * pydantic models read it: unknown keys of a model (which the server ignores silently, so a
 * typo has no effect), values of the wrong kind (which stop the server at start-up), enums,
 * bounds and URLs, at every depth the class types. `dict[str, Any]` fields and `extra="allow"`
 * models stay open. A string with `${env.…}` is checked as the substitution leaves it, when
 * that can be known (`substitute`); otherwise it is not checked.
 */
import { closestNames, didYouMean } from "../suggest";
import { listOf } from "../errors";
import { isPlainObject } from "../json";
import type { Shape } from "./provider-shapes-types";
import { laxValue, TYPE_WORDS } from "./lax-values";

export type Step = string | number;

export interface ShapeProblem {
  /** From the checked value to the problem. */
  readonly steps: readonly Step[];
  readonly message: string;
}

export interface ShapeContext {
  /** The tag's shared classes, by name. */
  readonly defs: { readonly [name: string]: Shape };
  /** The class as messages name it: `remote::vllm on the 1.3 line`. */
  readonly owner: string;
  /**
   * Deep-merged over a config the check cannot see (a spec's settings): keys a model requires
   * may come from underneath, so they are only required inside lists, which replace.
   */
  readonly partial: boolean;
  /** A string with `${env.…}` as the server reads it after substitution; undefined when unknown. */
  readonly substitute: (text: string) => { readonly value: unknown } | undefined;
}

interface At {
  readonly steps: readonly Step[];
  readonly partial: boolean;
  readonly written?: string;
}

export function shapeProblems(shape: Shape, value: unknown, ctx: ShapeContext): ShapeProblem[] {
  return check(shape, value, ctx, { steps: [], partial: ctx.partial });
}

function deref(shape: Shape, ctx: ShapeContext): Shape {
  let s = shape;
  for (let hops = 0; s.$ref !== undefined && hops < 50; hops++) s = ctx.defs[s.$ref] ?? {};
  return s;
}

/** Substitution happens once, on the string as written, before the class reads it. */
function check(shape: Shape, value: unknown, ctx: ShapeContext, at: At): ShapeProblem[] {
  if (typeof value !== "string" || !value.includes("${env.")) return resolved(shape, value, ctx, at);
  const substituted = ctx.substitute(value);
  if (substituted === undefined) return [];
  return resolved(shape, substituted.value, ctx, { ...at, written: value });
}

function resolved(shape: Shape, value: unknown, ctx: ShapeContext, at: At): ShapeProblem[] {
  const s = deref(shape, ctx);
  if (s.anyOf) return union(s, value, ctx, at);
  const v = s.type === undefined ? value : laxValue(s.type, value);
  if (v === undefined || !allowed(s, v)) return [wrongKind(s, value, ctx, at)];
  if (s.type === "object" && isPlainObject(v)) return objectProblems(s, v, ctx, at);
  const items = s.items;
  if (s.type === "array" && items && Array.isArray(v))
    return v.flatMap((item: unknown, i) => check(items, item, ctx, { steps: [...at.steps, i], partial: false }));
  return [];
}

/** Enum, const, bounds, lengths and URLs, on the value the field ends up with. */
function allowed(s: Shape, v: unknown): boolean {
  if (s.enum && !s.enum.some((e) => e === v)) return false;
  if ("const" in s && s.const !== v) return false;
  if (typeof v === "number") return numberAllowed(s, v);
  return typeof v === "string" ? textAllowed(s, v) : true;
}

function numberAllowed(s: Shape, v: number): boolean {
  return (
    (s.minimum === undefined || v >= s.minimum) &&
    (s.maximum === undefined || v <= s.maximum) &&
    (s.exclusiveMinimum === undefined || v > s.exclusiveMinimum) &&
    (s.exclusiveMaximum === undefined || v < s.exclusiveMaximum)
  );
}

function textAllowed(s: Shape, v: string): boolean {
  const length = [...v].length; // Python counts code points
  return (
    (s.minLength === undefined || length >= s.minLength) &&
    (s.maxLength === undefined || length <= s.maxLength) &&
    (s.format !== "uri" || URL.canParse(v))
  );
}

/** `X | Y`: accepted by one branch; else the branch the value's kind (or discriminator) picks says why. */
function union(s: Shape, value: unknown, ctx: ShapeContext, at: At): ShapeProblem[] {
  const branches = s.anyOf ?? [];
  // Before any branch is tried: pydantic refuses `{}` even where every branch has a default tag.
  const untagged = s.discriminator === undefined ? undefined : missingTag(s.discriminator, branches, value, ctx);
  if (untagged !== undefined) return [{ steps: at.steps, message: `${where(ctx, at)} ${untagged}` }];
  const results = branches.map((b) => resolved(b, value, ctx, at));
  if (results.some((r) => r.length === 0)) return [];
  const picked = branches.flatMap((b, i) => (picks(deref(b, ctx), value, s.discriminator, ctx) ? [i] : []));
  if (picked.length === 1) return results[picked[0]!]!;
  return [wrongKind(s, value, ctx, at)];
}

/** A discriminated union picks its class by one key: an object without a known value there fits none. */
function missingTag(key: string, branches: readonly Shape[], value: unknown, ctx: ShapeContext): string | undefined {
  if (!isPlainObject(value)) return undefined;
  const tags = branches.map((b) => deref(b, ctx).properties?.[key]?.const);
  if (tags.some((t) => t !== undefined && t === value[key])) return undefined;
  const known = tags.filter((t) => t !== undefined).map((t) => JSON.stringify(t));
  return `needs "${key}" here, one of ${known.join(", ")}: the server picks the class by it`;
}

/** Does this branch take values of this kind (and this discriminator value)? */
function picks(branch: Shape, value: unknown, discriminator: string | undefined, ctx: ShapeContext): boolean {
  if (branch.anyOf) return branch.anyOf.some((b) => picks(deref(b, ctx), value, discriminator, ctx));
  if (branch.type !== "object" && branch.type !== "array") return false;
  if (laxValue(branch.type, value) === undefined) return false;
  if (discriminator === undefined || !isPlainObject(value)) return true;
  return branch.properties?.[discriminator]?.const === value[discriminator];
}

function objectProblems(s: Shape, value: { [k: string]: unknown }, ctx: ShapeContext, at: At): ShapeProblem[] {
  const problems: ShapeProblem[] = [];
  const props = s.properties ?? {};
  for (const key of Object.keys(value)) {
    const steps = [...at.steps, key];
    const known = Object.hasOwn(props, key) ? props[key] : undefined;
    const field = known ?? (typeof s.additionalProperties === "object" ? s.additionalProperties : undefined);
    if (field !== undefined) problems.push(...check(field, value[key], ctx, { steps, partial: at.partial }));
    else if (s.additionalProperties === false) problems.push({ steps, message: unknownKey(key, props, ctx, at) });
  }
  return at.partial ? problems : problems.concat(missingKeys(s, value, ctx, at));
}

function missingKeys(s: Shape, value: { [k: string]: unknown }, ctx: ShapeContext, at: At): ShapeProblem[] {
  return (s.required ?? [])
    .filter((key) => !Object.hasOwn(value, key))
    .map((key) => ({ steps: at.steps, message: `${where(ctx, at)} requires "${key}" here; add it` }));
}

function where(ctx: ShapeContext, at: At): string {
  const inside = at.steps.filter((s) => typeof s === "string").join(".");
  return inside === "" ? ctx.owner : `${ctx.owner} (${inside})`;
}

function unknownKey(key: string, props: { readonly [k: string]: Shape }, ctx: ShapeContext, at: At): string {
  const names = Object.keys(props);
  const head = `unknown key "${key}" for ${where(ctx, at)}: the server ignores it, so it has no effect;`;
  const near = didYouMean(key, names);
  if (near !== "") return `${head}${near}`;
  return `${head} the nearest keys: ${listOf(closestNames(key, names))}`;
}

function expected(s: Shape, ctx: ShapeContext): string[] {
  const d = deref(s, ctx);
  if (d.anyOf) return [...new Set(d.anyOf.flatMap((b) => expected(b, ctx)))];
  if (d.enum) return [`one of ${d.enum.map((e) => JSON.stringify(e)).join(", ")}`];
  if ("const" in d) return [JSON.stringify(d.const)];
  const word = d.type === undefined ? "any value" : (TYPE_WORDS[d.type] ?? d.type);
  return [`${d.format === "uri" ? "a URL" : word}${bounds(d)}`];
}

function bounds(s: Shape): string {
  const parts: string[] = [];
  if (s.minimum !== undefined) parts.push(`at least ${s.minimum}`);
  if (s.exclusiveMinimum !== undefined) parts.push(`above ${s.exclusiveMinimum}`);
  if (s.maximum !== undefined) parts.push(`at most ${s.maximum}`);
  if (s.exclusiveMaximum !== undefined) parts.push(`below ${s.exclusiveMaximum}`);
  if (s.minLength !== undefined && s.format !== "uri") parts.push(`of at least ${s.minLength} characters`);
  if (s.maxLength !== undefined && s.format !== "uri") parts.push(`of at most ${s.maxLength} characters`);
  return parts.length === 0 ? "" : ` (${parts.join(", ")})`;
}

/** Short, so a long value does not drown the message (settings are never Secret values). */
function shown(value: unknown): string {
  const text = value === undefined ? "nothing" : JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function wrongKind(s: Shape, value: unknown, ctx: ShapeContext, at: At): ShapeProblem {
  const got = at.written === undefined ? shown(value) : `${shown(at.written)} (${shown(value)} once substituted)`;
  return { steps: at.steps, message: `${ctx.owner} takes ${expected(s, ctx).join(" or ")} here, not ${got}` };
}

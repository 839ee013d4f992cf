/**
 * The bare `${env.X}` references (no `:=` or `:+`) inside a config value, each with the steps
 * from the value to its string. Base configs are parsed once and frozen (lib/config/base.ts),
 * so most of a generated config is the same objects sync after sync: the references of a frozen
 * subtree are found once and kept with it (a WeakMap, dropped with the subtree).
 */
import { perFrozen } from "../remembered";
import { isPlainObject } from "../json";

export type Step = string | number;

export interface BareRef {
  readonly name: string;
  readonly steps: readonly Step[];
}

/** `${env.X}`, `${env.X:=default}`, `${env.X:+value}`: groups name, operator (absent when bare), expression. */
export const ENV_REF = /\$\{env\.([A-Z0-9_]+)(?::([=+])([^}]*))?\}/g;
const NONE: readonly BareRef[] = [];

function refsInString(text: string): readonly BareRef[] {
  if (!text.includes("${env.")) return NONE;
  const refs: BareRef[] = [];
  for (const [, name, operator] of text.matchAll(ENV_REF)) if (name && !operator) refs.push({ name, steps: [] });
  return refs;
}

function childrenOf(node: object): readonly (readonly [Step, unknown])[] {
  if (Array.isArray(node)) return node.map((value: unknown, i) => [i, value] as const);
  return isPlainObject(node) ? Object.entries(node) : [];
}

/** Every bare reference in `node`, in document order. */
export function bareRefs(node: unknown): readonly BareRef[] {
  if (typeof node === "string") return refsInString(node);
  if (typeof node !== "object" || node === null) return NONE;
  return refsInObject(node);
}

const refsInObject = perFrozen((node: object): readonly BareRef[] => {
  const refs: BareRef[] = [];
  for (const [step, value] of childrenOf(node))
    for (const ref of bareRefs(value)) refs.push({ name: ref.name, steps: [step, ...ref.steps] });
  return refs;
});

/** `providers.inference[2].config.url` from a root path and steps. */
export function pathOf(root: string, steps: readonly Step[]): string {
  let at = root;
  for (const step of steps) at = typeof step === "number" ? `${at}[${step}]` : at ? `${at}.${step}` : step;
  return at;
}

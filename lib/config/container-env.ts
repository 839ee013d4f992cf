/**
 * The server container's environment as far as the hooks know it, and `${env.…}` evaluated
 * against it as the server does at start-up: `${env.X:=d}` is X's value when X is set and not
 * empty, else `d`; `${env.X:+v}` is `v` when X is set and not empty, else nothing; a bare
 * `${env.X}` is X's value (unset, the server stops). A value read from a Secret is set but
 * unknown here: whatever depends on it is undecided.
 */
import type { CanonicalSpec } from "../api/canonical";
import { ENV_REF } from "./env-refs";

/** Variable → its value; `null` when it is set from a Secret (not known here). Absent: unset. */
export type EnvValues = ReadonlyMap<string, string | null>;

/** One variable the hooks set: a plain value, or none (a Secret reference). */
export interface SetVariable {
  readonly name: string;
  readonly value?: string;
}

/** Ours, then the user's `workload.overrides.env` (a user entry with the same name wins, as in the Deployment). */
export function containerEnv(spec: CanonicalSpec, ours: readonly SetVariable[]): Map<string, string | null> {
  const env = new Map<string, string | null>();
  for (const v of ours) env.set(v.name, v.value ?? null);
  for (const { name, value, valueFrom } of spec.workload.overrides?.env ?? []) {
    if (typeof name !== "string") continue;
    if (valueFrom !== undefined) env.set(name, null);
    else if (typeof value === "string" && value !== "") env.set(name, value);
    // The server reads an empty value as unset.
    else env.delete(name);
  }
  return env;
}

/** One reference's text, or undefined when a value not known here decides it. */
function substituted(got: string | null | undefined, op: string | undefined, expr: string | undefined) {
  const set = got !== undefined && got !== "";
  if (op === "+") return set ? (expr ?? "") : "";
  if (op === "=" && !set) return expr ?? "";
  // A bare reference to an unset variable stops the server instead of resolving; a Secret's value is unknown.
  return typeof got === "string" && set ? got : undefined;
}

/** `value` after the server's substitution; undefined when it is not a string or a value not known here decides it. */
export function resolvedWith(value: unknown, env: EnvValues): string | undefined {
  if (typeof value !== "string") return undefined;
  if (!value.includes("${env.")) return value;
  let decided = true;
  const text = value.replace(ENV_REF, (_m, name: string, op: string | undefined, expr: string | undefined) => {
    const got = substituted(env.get(name), op, expr);
    if (got === undefined) decided = false;
    return got ?? "";
  });
  return decided ? text : undefined;
}

/** The names set (any value), for the rules that only ask whether a variable is set. */
export const setNames = (env: EnvValues): Set<string> => new Set(env.keys());

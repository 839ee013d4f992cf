/**
 * What a `${env.…}` in a setting becomes on the server, as far as the pod spec tells: the
 * server substitutes with the container's environment and converts the result
 * (env-substitution.ts). A variable the spec sets to a literal `value` is known; one read from
 * a Secret or ConfigMap (`valueFrom`), or one the hooks set (`LLSD_…`), is set but unknown, so a
 * string that reads it is not checked here (the sync hook checks Secret values against the
 * key they land on, lib/sync/secret-values.ts). A variable the pod does not set is unset: `:=d`
 * gives `d`, `:+v` gives nothing, and a bare reference stops the server (lib/config/env-check.ts
 * says so). The image's own ENV is not seen.
 */
import type { CanonicalSpec } from "../api/canonical";
import { SECRET_ENV_PREFIX } from "../defaults";
import { containerEnv } from "./container-env";
import { ENV_REF } from "./env-refs";
import { convertedKind } from "./env-substitution";

export interface ContainerEnv {
  /** Variables set to a literal, non-empty value. */
  readonly known: ReadonlyMap<string, string>;
  /** Variables set to a value not known here. */
  readonly unknown: ReadonlySet<string>;
}

export const NO_ENV: ContainerEnv = { known: new Map(), unknown: new Set() };

/** The variables `workload.overrides.env` sets (an empty value counts as unset, as on the server), split by what is known. */
export function settingsEnv(spec: CanonicalSpec): ContainerEnv {
  const env = containerEnv(spec, []);
  if (env.size === 0) return NO_ENV;
  const known = new Map<string, string>();
  const unknown = new Set<string>();
  for (const [name, value] of env) {
    if (value === null) unknown.add(name);
    else known.set(name, value);
  }
  return { known, unknown };
}

const isSetUnknown = (env: ContainerEnv, name: string): boolean =>
  env.unknown.has(name) || name.startsWith(`${SECRET_ENV_PREFIX}_`);

/** The value a string with references becomes, or undefined when a value the pod spec does not show decides it. */
export function substitution(env: ContainerEnv): (text: string) => { readonly value: unknown } | undefined {
  return (text) => {
    let decided = true;
    const out = text.replace(ENV_REF, (_m, name: string, op: string | undefined, expr: string | undefined) => {
      const value = env.known.get(name);
      if (value !== undefined) return op === "+" ? (expr ?? "") : value;
      // Set to something unknown, or a bare reference to an unset variable (the server stops on it).
      if (isSetUnknown(env, name) || op === undefined) decided = false;
      return op === "=" ? (expr ?? "") : "";
    });
    if (!decided) return undefined;
    return { value: out === text ? text : converted(out) };
  };
}

/** The server's conversion of a substituted string (env-substitution.ts: "" → null, booleans, Python int, then float). */
function converted(text: string): unknown {
  switch (convertedKind(text)) {
    case "null":
      return null;
    case "bool":
      return text.toLowerCase() === "true";
    case "int":
      return Number.parseInt(text.trim().replaceAll("_", ""), 10);
    case "float":
      return floatOf(text.trim());
    default:
      return text;
  }
}

function floatOf(text: string): number {
  const lower = text.toLowerCase().replace(/^[+-]/, "");
  if (lower.startsWith("inf")) return text.startsWith("-") ? -Infinity : Infinity;
  return lower === "nan" ? Number.NaN : Number(text.replaceAll("_", ""));
}

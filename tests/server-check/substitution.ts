/**
 * The server's `${env.…}` substitution (`replace_env_vars`), as each tag's env-substitution.md
 * in tests/fixtures/server-schemas describes it: the forms `${env.X}`, `${env.X:=d}`,
 * `${env.X:+v}`, an empty value counting as unset, `~` expansion, the conversion of a changed
 * string (""→null, true/false→bool, int, float), and the list rules (a `__disabled__`
 * provider and an entry whose id field resolves to nothing are dropped; `server.auth` with an
 * empty type loses its provider_config).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { SchemaTag } from "../../lib/distributions/releases";

export const SCHEMAS_DIR = join(__dirname, "..", "fixtures", "server-schemas");

export class EnvVarError extends Error {
  constructor(
    readonly varName: string,
    readonly path: string,
  ) {
    super(
      `environment variable ${varName} is not set (at ${path || "<root>"}): the server refuses to start (EnvVarError)`,
    );
  }
}

export type Env = { readonly [name: string]: string | undefined };

const PATTERN = /\$\{env\.([A-Z0-9_]+)(?::([=+])([^}]*))?\}/g;
const HOME = "/home/server";

/** The tag's RESOURCE_ID_FIELDS, read from its env-substitution.md (they differ per tag). */
const idFieldsByTag = new Map<SchemaTag, readonly string[]>();
export function resourceIdFields(tag: SchemaTag): readonly string[] {
  const known = idFieldsByTag.get(tag);
  if (known) return known;
  const text = readFileSync(join(SCHEMAS_DIR, tag, "env-substitution.md"), "utf8");
  const match = /`RESOURCE_ID_FIELDS`, `[^`]*`: ([a-z_, ]+)\)/.exec(text);
  if (!match?.[1]) throw new Error(`${tag}/env-substitution.md does not list RESOURCE_ID_FIELDS`);
  const fields = match[1]
    .split(",")
    .map((f) => f.trim())
    .filter((f) => f.length > 0);
  idFieldsByTag.set(tag, fields);
  return fields;
}

/**
 * `os.path.expanduser` for the forms a config can hold (`~` and `~/…`; `~user` is left alone
 * here), with the process's HOME: the container's when its environment sets one.
 */
export function expandUser(value: string, home: string): string {
  return value === "~" || value.startsWith("~/")
    ? home.replace(/(.)\/$/, "$1").replace(/^\/$/, "") + value.slice(1)
    : value;
}

const DIGITS = String.raw`\p{Nd}(?:_?\p{Nd})*`;
const PY_INT = new RegExp(String.raw`^[+-]?${DIGITS}$`, "u");
const PY_FLOAT = new RegExp(
  String.raw`^[+-]?(?:(?:${DIGITS}\.(?:${DIGITS})?|\.${DIGITS}|${DIGITS})(?:[eE][+-]?${DIGITS})?|inf|infinity|nan)$`,
  "iu",
);

/** `_convert_string_to_proper_type`: what a substituted string becomes. */
export function convertLikeServer(value: string): unknown {
  if (value === "") return null;
  const lowered = value.toLowerCase();
  if (lowered === "true") return true;
  if (lowered === "false") return false;
  const stripped = value.trim();
  // Only the type matters to the schemas; a value in non-ASCII digits becomes 0 here.
  const numeric = (s: string): number => (Number.isNaN(Number(s.replace(/_/g, ""))) ? 0 : Number(s.replace(/_/g, "")));
  if (PY_INT.test(stripped)) return numeric(stripped);
  if (PY_FLOAT.test(stripped)) {
    const lower = stripped.toLowerCase().replace(/^[+]/, "");
    if (/^-?inf(inity)?$/.test(lower)) return lower.startsWith("-") ? -Infinity : Infinity;
    if (/^-?nan$/.test(lower)) return Number.NaN;
    return numeric(stripped);
  }
  return value;
}

function substituteString(text: string, env: Env, path: string): unknown {
  const home = env.HOME ?? HOME;
  const result = text.replace(
    PATTERN,
    (_match, name: string, operator: string | undefined, expr: string | undefined) => {
      const value = env[name];
      const set = value !== undefined && value !== "";
      if (operator === "=") {
        if (set) return expandUser(value, home);
        return expr === "" || expr === undefined ? "" : expandUser(expr, home);
      }
      if (operator === "+") {
        if (!set) return expandUser("", home);
        return expr ? expandUser(expr, home) : "";
      }
      if (!set) throw new EnvVarError(name, path);
      return expandUser(value, home);
    },
  );
  return result !== text ? convertLikeServer(result) : result;
}

/** A YAML mapping as PyYAML loads it (a dict). */
export const isDict = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const at = (path: string, key: string): string => (path ? `${path}.${key}` : key);

/** Whether a list item survives substitution; `itemPath` is where it sits (`providers.inference[0]`). */
function keptInList(item: unknown, itemPath: string, env: Env, idFields: readonly string[]): boolean {
  if (!isDict(item)) return true;
  if ("provider_id" in item) {
    try {
      if (replaceEnvVars(item.provider_id, env, idFields, `${itemPath}.provider_id`) === "__disabled__") return false;
    } catch (error) {
      if (!(error instanceof EnvVarError)) throw error;
    }
  }
  for (const field of idFields.filter((f) => f in item)) {
    try {
      const id = replaceEnvVars(item[field], env, idFields, `${itemPath}.${field}`);
      if (id === null || id === "") return false;
    } catch (error) {
      if (!(error instanceof EnvVarError)) throw error;
    }
  }
  return true;
}

function replaceDict(
  config: Record<string, unknown>,
  env: Env,
  idFields: readonly string[],
  path: string,
): Record<string, unknown> {
  const providerConfig = config.provider_config;
  if (path === "server.auth" && isDict(providerConfig) && "type" in providerConfig) {
    try {
      const type = replaceEnvVars(providerConfig.type, env, idFields, `${path}.provider_config.type`);
      if (type === null || type === "") {
        const rest = Object.entries(config)
          .filter(([k]) => k !== "provider_config")
          .map(([k, v]): [string, unknown] => [k, replaceEnvVars(v, env, idFields, at(path, k))]);
        return { ...Object.fromEntries(rest), provider_config: null };
      }
    } catch (error) {
      if (!(error instanceof EnvVarError)) throw error;
    }
  }
  return Object.fromEntries(Object.entries(config).map(([k, v]) => [k, replaceEnvVars(v, env, idFields, at(path, k))]));
}

/** `replace_env_vars(config)`: throws EnvVarError where the server would. */
export function replaceEnvVars(config: unknown, env: Env, idFields: readonly string[], path = ""): unknown {
  if (isDict(config)) return replaceDict(config, env, idFields, path);
  if (Array.isArray(config)) {
    return config.flatMap((item, i) =>
      keptInList(item, `${path}[${i}]`, env, idFields) ? [replaceEnvVars(item, env, idFields, `${path}[${i}]`)] : [],
    );
  }
  if (typeof config === "string") return substituteString(config, env, path);
  return config;
}

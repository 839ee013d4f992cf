/**
 * Every server line stops at startup (`EnvVarError`) on a bare `${env.X}` (no `:=` or `:+`)
 * whose variable is unset or empty. Run on every config the hooks write — bundled and
 * image-label bases, a user's override with external providers merged in — against the
 * variables the container sets: a registered resource that needs a missing variable is dropped
 * (with a note), anything else is an error naming the variable and where to set it.
 */
import { fieldError, type FieldError } from "../errors";
import type { CanonicalSpec } from "../api/canonical";
import { isMap, type ConfigDoc, type JsonMap } from "./doc";

const REF = /\$\{env\.([A-Z0-9_]+)(?::([=+])([^}]*))?\}/g;
/** Where users add variables to the server container. */
export const USER_ENV_PATH = "spec.workload.overrides.env";
/** Ids whose empty value makes the server skip a registered resource (RESOURCE_ID_FIELDS, all lines). */
const RESOURCE_ID_FIELDS = ["model_id", "shield_id", "vector_store_id"];

/** The variables the container sets to something non-empty: ours, then the user's `workload.overrides.env`. */
export function providedEnv(spec: CanonicalSpec, ours: readonly { readonly name: string }[]): Set<string> {
  const names = new Set(ours.map((e) => e.name));
  for (const raw of spec.workload.overrides?.env ?? []) {
    const e = raw as { name?: unknown; value?: unknown; valueFrom?: unknown };
    if (typeof e.name !== "string") continue;
    // The server treats an empty value as unset; a reference's value cannot be seen here.
    if ((typeof e.value === "string" && e.value !== "") || e.valueFrom !== undefined) names.add(e.name);
    else names.delete(e.name);
  }
  return names;
}

/** Bare references to variables outside `provided`, anywhere in `value`, with their paths. */
export function missingBare(
  value: unknown,
  provided: ReadonlySet<string>,
  path: string,
): { name: string; path: string }[] {
  const found: { name: string; path: string }[] = [];
  // Every string of a config is walked on each sync: the path is built only for a reference found.
  const steps: (string | number)[] = [];
  const pathHere = (): string =>
    steps.reduce<string>(
      (at, step) => (typeof step === "number" ? `${at}[${step}]` : at ? `${at}.${step}` : step),
      path,
    );
  const walk = (node: unknown): void => {
    if (typeof node === "string") {
      if (!node.includes("${env.")) return;
      for (const m of node.matchAll(REF))
        if (m[2] === undefined && !provided.has(m[1]!)) found.push({ name: m[1]!, path: pathHere() });
      return;
    }
    if (Array.isArray(node)) {
      node.forEach((v, i) => {
        steps.push(i);
        walk(v);
        steps.pop();
      });
      return;
    }
    if (!isMap(node)) return;
    for (const k of Object.keys(node)) {
      steps.push(k);
      walk(node[k]);
      steps.pop();
    }
  };
  walk(value);
  return found;
}

/** What a string resolves to as far as this can tell (set or unset, not values); undefined when a value decides it. */
function resolvedWithout(value: unknown, provided: ReadonlySet<string>): string | undefined {
  if (typeof value !== "string") return undefined;
  let decided = true;
  const text = value.replace(REF, (_m, name: string, op: string | undefined, expr: string | undefined) => {
    if (provided.has(name) ? op !== "+" : op === undefined) {
      // A provided value is unknown here; a bare unset one stops the server rather than resolving.
      decided = false;
      return "";
    }
    if (provided.has(name)) return expr ?? "";
    return op === "=" ? (expr ?? "") : "";
  });
  return decided ? text : undefined;
}

/** The server drops a `__disabled__` provider unexpanded, and a resource whose id resolves to nothing. */
const skippedProvider = (entry: unknown, provided: ReadonlySet<string>): boolean =>
  isMap(entry) && resolvedWithout(entry.provider_id, provided) === "__disabled__";
const skippedResource = (entry: JsonMap, provided: ReadonlySet<string>): boolean =>
  RESOURCE_ID_FIELDS.some((f) => f in entry && resolvedWithout(entry[f], provided) === "");

function missingError(missing: readonly { name: string; path: string }[]): FieldError[] {
  const byName = new Map<string, string[]>();
  for (const m of missing) byName.set(m.name, [...(byName.get(m.name) ?? []), m.path]);
  return [...byName]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, paths]) =>
      fieldError(
        USER_ENV_PATH,
        `config.yaml needs \${env.${name}} (at ${paths.join(", ")}), which the container does not set: the server would stop at startup. Add {name: ${name}, value: …} (or valueFrom a Secret) to ${USER_ENV_PATH}`,
      ),
    );
}

export interface EnvCheck {
  readonly notes: string[];
  readonly errors: FieldError[];
}

/**
 * Drops the registered resources that need a missing variable (unless `keepResources`: a
 * config mounted as is is only reported on); reports every other bare reference as an error.
 */
export function requireProvidedEnv(doc: ConfigDoc, provided: ReadonlySet<string>, keepResources = false): EnvCheck {
  const out: EnvCheck = { notes: [], errors: [] };
  const missing: { name: string; path: string }[] = [];
  for (const [api, list] of Object.entries(doc.providers)) {
    (list ?? []).forEach((entry, i) => {
      if (!skippedProvider(entry, provided)) missing.push(...missingBare(entry, provided, `providers.${api}[${i}]`));
    });
  }
  const rr = doc.registered_resources ?? {};
  for (const kind of Object.keys(rr)) {
    rr[kind] = (rr[kind] ?? []).filter((entry, i) => {
      if (!isMap(entry) || skippedResource(entry, provided)) return true;
      if (keepResources) {
        missing.push(...missingBare(entry, provided, `registered_resources.${kind}[${i}]`));
        return true;
      }
      const needs = [...new Set(missingBare(entry, provided, "").map((m) => m.name))];
      if (needs.length === 0) return true;
      out.notes.push(
        `registered_resources.${kind}[${i}] of the distribution's config left out: it needs ${needs.join(", ")}, which the container does not set; add ${needs.length > 1 ? "them" : "it"} to ${USER_ENV_PATH} to register it`,
      );
      return false;
    });
  }
  for (const [key, value] of Object.entries(doc)) {
    if (key === "providers" || key === "registered_resources") continue;
    if (
      key === "server" &&
      isMap(value) &&
      isMap(value.auth) &&
      isMap(value.auth.provider_config) &&
      resolvedWithout(value.auth.provider_config.type, provided) === ""
    ) {
      const { provider_config: _off, ...auth } = value.auth;
      missing.push(...missingBare({ ...value, auth }, provided, "server"));
      continue;
    }
    missing.push(...missingBare(value, provided, key));
  }
  out.errors.push(...missingError(missing));
  return out;
}

/**
 * Every server line stops at startup (`EnvVarError`) on a bare `${env.X}` (no `:=` or `:+`)
 * whose variable is unset or empty. Run on every config the hooks write — bundled and
 * image-label bases, a user's override with external providers merged in — against the
 * variables the container sets: a registered resource that needs a missing variable is dropped
 * (with a note), anything else is an error naming the variable and where to set it.
 */
import { fieldError, type FieldError } from "../errors";
import type { CanonicalSpec } from "../api/canonical";
import { bareRefs, ENV_REF, pathOf, type BareRef } from "./env-refs";
import { type ConfigDoc } from "./doc";
import { isPlainObject, type JsonMap } from "../json";

/** Where users add variables to the server container. */
export const USER_ENV_PATH = "spec.workload.overrides.env";
/** Ids whose empty value makes the server skip a registered resource (RESOURCE_ID_FIELDS, all lines). */
const RESOURCE_ID_FIELDS = ["model_id", "shield_id", "vector_store_id"];

/** The variables the container sets to something non-empty: ours, then the user's `workload.overrides.env`. */
export function providedEnv(spec: CanonicalSpec, ours: readonly { readonly name: string }[]): Set<string> {
  const names = new Set(ours.map((e) => e.name));
  for (const { name, value, valueFrom } of spec.workload.overrides?.env ?? []) {
    if (typeof name !== "string") continue;
    // The server treats an empty value as unset; a reference's value cannot be seen here.
    if ((typeof value === "string" && value !== "") || valueFrom !== undefined) names.add(name);
    else names.delete(name);
  }
  return names;
}

/** Bare references to variables outside `provided`, anywhere in `value`, with their paths. */
export function missingBare(
  value: unknown,
  provided: ReadonlySet<string>,
  path: string,
): { name: string; path: string }[] {
  return missingOf(bareRefs(value), provided, path);
}

function missingOf(refs: readonly BareRef[], provided: ReadonlySet<string>, path: string): Missing {
  const missing: Missing = [];
  for (const ref of refs) if (!provided.has(ref.name)) missing.push({ name: ref.name, path: pathOf(path, ref.steps) });
  return missing;
}

/** What a string resolves to as far as this can tell (set or unset, not values); undefined when a value decides it. */
export function resolvedWithout(value: unknown, provided: ReadonlySet<string>): string | undefined {
  if (typeof value !== "string") return undefined;
  if (!value.includes("${env.")) return value; // most ids: no reference to resolve
  let decided = true;
  const text = value.replace(ENV_REF, (_m, name: string, op: string | undefined, expr: string | undefined) => {
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
  isPlainObject(entry) && resolvedWithout(entry.provider_id, provided) === "__disabled__";
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

type Missing = { name: string; path: string }[];

/** Bare references in the providers the server will start. */
function providerRefs(doc: ConfigDoc, provided: ReadonlySet<string>): Missing {
  const missing: Missing = [];
  for (const api of Object.keys(doc.providers)) {
    const list = doc.providers[api] ?? [];
    for (let i = 0; i < list.length; i++) {
      const entry = list[i];
      const refs = bareRefs(entry);
      // Most entries need nothing missing; only those that do are checked for being switched off.
      if (!refs.some((ref) => !provided.has(ref.name)) || skippedProvider(entry, provided)) continue;
      missing.push(...missingOf(refs, provided, `providers.${api}[${i}]`));
    }
  }
  return missing;
}

/** Registered resources needing a missing variable are dropped with a note, or (`keep`) reported as missing. */
function resourceRefs(doc: ConfigDoc, provided: ReadonlySet<string>, keep: boolean, out: EnvCheck): Missing {
  const missing: Missing = [];
  const rr = doc.registered_resources ?? {};
  for (const kind of Object.keys(rr)) {
    rr[kind] = (rr[kind] ?? []).filter((entry, i) => {
      const absent = isPlainObject(entry) ? missingBare(entry, provided, `registered_resources.${kind}[${i}]`) : [];
      // Most entries need nothing missing (their refs are cached): only the others are checked for being skipped.
      if (absent.length === 0 || skippedResource(entry, provided)) return true;
      if (keep) {
        missing.push(...absent);
        return true;
      }
      const needs = [...new Set(absent.map((m) => m.name))];
      out.notes.push(
        `registered_resources.${kind}[${i}] of the distribution's config left out: it needs ${needs.join(", ")}, which the container does not set; add ${needs.length > 1 ? "them" : "it"} to ${USER_ENV_PATH} to register it`,
      );
      return false;
    });
  }
  return missing;
}

/** `server` with an auth provider whose `type` resolves to nothing (switched off by env): its provider_config is left out of the check. */
function serverRefs(server: JsonMap, provided: ReadonlySet<string>): Missing | undefined {
  if (!isPlainObject(server.auth) || !isPlainObject(server.auth.provider_config)) return undefined;
  if (resolvedWithout(server.auth.provider_config.type, provided) !== "") return undefined;
  const { provider_config: _off, ...auth } = server.auth;
  return missingBare({ ...server, auth }, provided, "server");
}

/** Bare references in every other top-level key. */
function otherRefs(doc: ConfigDoc, provided: ReadonlySet<string>): Missing {
  return Object.entries(doc).flatMap(([key, value]) => {
    if (key === "providers" || key === "registered_resources") return [];
    const server = key === "server" && isPlainObject(value) ? serverRefs(value, provided) : undefined;
    return server ?? missingBare(value, provided, key);
  });
}

/**
 * Drops the registered resources that need a missing variable (unless `keepResources`: a
 * config mounted as is is only reported on); reports every other bare reference as an error.
 */
export function requireProvidedEnv(doc: ConfigDoc, provided: ReadonlySet<string>, keepResources = false): EnvCheck {
  const out: EnvCheck = { notes: [], errors: [] };
  const missing = [
    ...providerRefs(doc, provided),
    ...resourceRefs(doc, provided, keepResources, out),
    ...otherRefs(doc, provided),
  ];
  out.errors.push(...missingError(missing));
  return out;
}

/** Provider rules a structural schema cannot express (docs/spec-reference.md, "Checks"). */
import { child, fieldError, listOf, type FieldError } from "../errors";
import { providerSecretEnv, storageSecretEnv, POSTGRES_PARTS } from "../env-names";
import type { CanonicalSpec, Provider } from "./canonical";
import { PROVIDER_APIS } from "./apis";

/** Several providers for one API: every one needs an explicit, distinct `id`. */
export function missingIds(providers: readonly Provider[]): FieldError[] {
  const errors: FieldError[] = [];
  // Counted first, no list per API: this runs on every sync and almost always finds nothing.
  for (const api of PROVIDER_APIS) {
    let count = 0;
    let unnamed = false;
    for (const p of providers) {
      if (p.api !== api) continue;
      count++;
      if (!p.explicitId) unnamed = true;
    }
    if (count >= 2 && unnamed) unnamedIds(providers, api, count, errors);
  }
  return errors;
}

/** The error for each provider of `api` without an id; its example id numbers it in the API's list. */
function unnamedIds(providers: readonly Provider[], api: string, count: number, errors: FieldError[]): void {
  let position = 0;
  for (const p of providers) {
    if (p.api !== api) continue;
    position++;
    if (p.explicitId) continue;
    errors.push(
      fieldError(
        child(p.path, "id"),
        `required: spec.providers.${api} lists ${count} providers, so each needs a unique id (e.g. id: ${p.provider}-${position})`,
      ),
    );
  }
}

/** Provider ids are unique across every API; the message lists every place a duplicate is used. */
export function duplicateIds(providers: readonly Provider[]): FieldError[] {
  const ids = new Set<string>();
  for (const p of providers) ids.add(p.id);
  if (ids.size === providers.length) return []; // the usual case: no list per id
  const byId = new Map<string, Provider[]>();
  for (const p of providers) byId.set(p.id, [...(byId.get(p.id) ?? []), p]);
  const dups = [...byId.entries()].filter(([, list]) => list.length > 1);
  if (dups.length === 0) return [];
  const allDups = listOf(dups.map(([id]) => id));
  return dups.map(([id, list]) =>
    fieldError(
      child(list[1]!.path, "id"),
      `duplicate provider id "${id}" (used at ${list.map((p) => p.path).join(", ")}); provider ids must be unique across all APIs. Duplicate ids: ${allDups}`,
    ),
  );
}

function isUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

export function badEndpoints(providers: readonly Provider[]): FieldError[] {
  return providers
    .filter((p) => p.endpoint !== undefined && !isUrl(p.endpoint))
    .map((p) =>
      fieldError(
        child(p.path, "endpoint"),
        `"${p.endpoint}" is not an http(s) URL; write it as e.g. http://vllm.models.svc:8000`,
      ),
    );
}

/** Telemetry has no server provider: its one endpoint becomes OTEL_EXPORTER_OTLP_ENDPOINT. */
export function telemetryRules(providers: readonly Provider[]): FieldError[] {
  const telemetry = providers.filter((p) => p.api === "telemetry");
  const errors = telemetry
    .slice(1)
    .map((p) =>
      fieldError(
        p.path,
        "only one telemetry provider is supported: the server exports OpenTelemetry to one OTLP endpoint",
      ),
    );
  return errors.concat(
    telemetry
      .filter((p) => p.endpoint === undefined)
      .map((p) =>
        fieldError(
          child(p.path, "endpoint"),
          "required for telemetry: the OTLP collector URL, e.g. http://otel-collector:4318",
        ),
      ),
  );
}

/**
 * The env vars the postgres DSN's parts become: fixed names, built once (envCollisions runs on
 * every sync and admission).
 */
const SQL_PART_ENV: readonly string[] = POSTGRES_PARTS.map((part) => storageSecretEnv("sql", part));

/** Two secret fields that would land in one env var would silently shadow each other. */
export function envCollisions(spec: CanonicalSpec): FieldError[] {
  const seen: Seen = { firstPath: new Map(), errors: [] };
  // Providers' variables first, in spec order, then the storage ones: the first to claim a name keeps it.
  for (const p of spec.providers) for (const s of p.secrets) note(seen, providerSecretEnv(p.id, s.field), s.ref.path);
  storageEnv(seen, spec);
  return seen.errors;
}

/** The storage Secrets' env vars, after the providers': the redis password, the postgres DSN's parts. */
function storageEnv(seen: Seen, spec: CanonicalSpec): void {
  const kv = spec.storage?.kv;
  if (kv?.type === "redis" && kv.password) note(seen, storageSecretEnv("kv", "password"), kv.password.path);
  const sql = spec.storage?.sql;
  if (sql?.type === "postgres" && sql.connectionString) {
    for (const name of SQL_PART_ENV) note(seen, name, sql.connectionString.path);
  }
}

interface Seen {
  readonly firstPath: Map<string, string>;
  readonly errors: FieldError[];
}

/** `name` produced at `path`: an error when another field produced it first. */
function note(seen: Seen, name: string, path: string): void {
  const earlier = seen.firstPath.get(name);
  if (earlier === undefined) seen.firstPath.set(name, path);
  else if (earlier !== path) {
    seen.errors.push(
      fieldError(
        path,
        `its environment variable ${name} is also produced by ${earlier}; rename one provider id or secret field`,
      ),
    );
  }
}

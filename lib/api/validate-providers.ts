/** Provider rules a structural schema cannot express (docs/spec-reference.md, "Checks"). */
import { child, fieldError, listOf, type FieldError } from "../errors";
import { providerSecretEnvNames, storageSecretEnv, POSTGRES_PARTS } from "../config/env-names";
import type { CanonicalSpec, Provider } from "./canonical";
import { PROVIDER_APIS } from "./apis";

/** Several providers for one API: every one needs an explicit, distinct `id`. */
export function missingIds(providers: readonly Provider[]): FieldError[] {
  return PROVIDER_APIS.flatMap((api) => {
    const list = providers.filter((p) => p.api === api);
    if (list.length < 2) return [];
    return list
      .filter((p) => !p.explicitId)
      .map((p) =>
        fieldError(
          child(p.path, "id"),
          `required: spec.providers.${api} lists ${list.length} providers, so each needs a unique id (e.g. id: ${p.provider}-${list.indexOf(p) + 1})`,
        ),
      );
  });
}

/** Provider ids are unique across every API; the message lists every place a duplicate is used. */
export function duplicateIds(providers: readonly Provider[]): FieldError[] {
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

/** Endpoints repeat on every sync and `new URL` costs microseconds: answers are kept (bounded). */
const isUrlCache = new Map<string, boolean>();
const URL_CACHE_LIMIT = 1000;

function isUrl(text: string): boolean {
  const hit = isUrlCache.get(text);
  if (hit !== undefined) return hit;
  let answer: boolean;
  try {
    const url = new URL(text);
    answer = url.protocol === "http:" || url.protocol === "https:";
  } catch {
    answer = false;
  }
  if (isUrlCache.size >= URL_CACHE_LIMIT) isUrlCache.clear();
  isUrlCache.set(text, answer);
  return answer;
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

type EnvName = { readonly name: string; readonly path: string };

/** The env vars the storage Secrets become: the redis password, the postgres DSN's parts. */
function storageEnvNames(spec: CanonicalSpec): EnvName[] {
  const kv = spec.storage?.kv;
  const sql = spec.storage?.sql;
  const names: EnvName[] = [];
  if (kv?.type === "redis" && kv.password)
    names.push({ name: storageSecretEnv("kv", "password"), path: kv.password.path });
  if (sql?.type === "postgres" && sql.connectionString) {
    const path = sql.connectionString.path;
    for (const part of POSTGRES_PARTS) names.push({ name: storageSecretEnv("sql", part), path });
  }
  return names;
}

/** Two secret fields that would land in one env var would silently shadow each other. */
export function envCollisions(spec: CanonicalSpec): FieldError[] {
  const names: readonly EnvName[] = [...providerSecretEnvNames(spec.providers), ...storageEnvNames(spec)];
  const firstPath = new Map<string, string>();
  const errors: FieldError[] = [];
  for (const { name, path } of names) {
    const earlier = firstPath.get(name);
    if (earlier === undefined) firstPath.set(name, path);
    else if (earlier !== path) {
      errors.push(
        fieldError(
          path,
          `its environment variable ${name} is also produced by ${earlier}; rename one provider id or secret field`,
        ),
      );
    }
  }
  return errors;
}

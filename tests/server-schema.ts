/**
 * A config as the OGX 1.3.0 server reads it: `${env.…}` substituted as its `replace_env_vars`
 * does (values only; unset or empty counts as unset; the result converted to null/bool/int/
 * float; providers switched off by `__disabled__` and resources with an empty id dropped), then
 * checked against the server's own models exported as JSON Schema
 * (tests/fixtures/server-schemas/v1.3.0, copied unchanged from upstream's v1.3.0 models):
 * StackConfig, then each enabled provider's config class. Unknown keys are errors.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ValidateFunction } from "ajv/dist/2020";
import { pydanticAjv } from "./server-check/ajv";
import { shown } from "./shown";

const DIR = join(__dirname, "fixtures", "server-schemas", "v1.3.0");
const REF = /\$\{env\.([A-Z0-9_]+)(?::([=+])([^}]*))?\}/g;
const ID_FIELDS = ["vector_store_id", "model_id"];

export class EnvVarError extends Error {}

function convert(text: string): unknown {
  if (text === "") return null;
  if (/^(true|false)$/i.test(text)) return text.toLowerCase() === "true";
  if (/^\s*[-+]?\d+(_\d+)*\s*$/.test(text)) return Number(text.replace(/_/g, ""));
  if (text.trim() !== "" && !Number.isNaN(Number(text))) return Number(text);
  return text;
}

function substituteString(value: string, env: Readonly<Record<string, string>>, path: string): unknown {
  let matched = false;
  const out = value.replace(REF, (_m, name: string, op: string | undefined, arg: string | undefined) => {
    matched = true;
    const set = env[name] !== undefined && env[name] !== "";
    if (op === "=") return set ? env[name]! : (arg ?? "");
    if (op === "+") return set ? (arg ?? "") : "";
    if (!set) throw new EnvVarError(`${path}: environment variable ${name} is not set`);
    return env[name]!;
  });
  return matched ? convert(out) : value;
}

export function substitute(value: unknown, env: Readonly<Record<string, string>>, path = ""): unknown {
  if (typeof value === "string") return substituteString(value, env, path);
  if (Array.isArray(value)) {
    return value.flatMap((item, i) => {
      if (item && typeof item === "object" && !Array.isArray(item)) {
        const map = item as Record<string, unknown>;
        if ("provider_id" in map && substitute(map.provider_id, env, `${path}[${i}].provider_id`) === "__disabled__")
          return [];
        const done = substitute(item, env, `${path}[${i}]`) as Record<string, unknown>;
        if (ID_FIELDS.some((f) => f in map && (done[f] === null || done[f] === ""))) return [];
        return [done];
      }
      return [substitute(item, env, `${path}[${i}]`)];
    });
  }
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, env, `${path}.${k}`)]));
  }
  return value;
}

const ajv = pydanticAjv();
const read = (file: string): unknown => JSON.parse(readFileSync(join(DIR, file), "utf8"));
let stackValidator: ValidateFunction | undefined;
const providerValidators = new Map<string, ValidateFunction>();
const index = read("providers/index.json") as { api: string; provider_type: string; schema: string }[];

function errorsOf(validate: ValidateFunction, data: unknown, where: string): string[] {
  return validate(data)
    ? []
    : (validate.errors ?? []).map(
        (e) =>
          `${where}${e.instancePath} ${e.message}${e.params && "additionalProperty" in e.params ? ` (${String(e.params.additionalProperty)})` : ""}`,
      );
}

/** Every way the 1.3.0 server would refuse `config` (already substituted); [] when it accepts it. */
export function serverErrors(config: unknown): string[] {
  stackValidator ??= ajv.compile(read("stack-config.schema.json") as object);
  const errors = errorsOf(stackValidator, config, "config");
  const providers =
    (
      (config ?? {}) as {
        providers?: Record<string, { provider_id?: unknown; provider_type: string; config?: unknown }[]>;
      }
    ).providers ?? {};
  for (const [api, list] of Object.entries(providers)) {
    for (const p of list ?? []) {
      if (!p.provider_id) continue; // switched off: the server skips it
      const entry = index.find((e) => e.api === api && e.provider_type === p.provider_type);
      if (!entry) {
        errors.push(`providers.${api}: ${p.provider_type} is not a provider type of this server`);
        continue;
      }
      let validate = providerValidators.get(entry.schema);
      if (!validate)
        providerValidators.set(entry.schema, (validate = ajv.compile(read(`providers/${entry.schema}`) as object)));
      errors.push(...errorsOf(validate, p.config ?? {}, `providers.${api}.${shown(p.provider_id)}.config`));
    }
  }
  return errors;
}

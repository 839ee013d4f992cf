/**
 * Names of the environment variables that carry Secret values into the server
 * (docs/spec-reference.md). The ConfigMap only ever holds `${env.NAME}`; the Deployment gets a
 * secretKeyRef.
 */
import { SECRET_ENV_PREFIX } from "../defaults";

/** `vllm-primary` → `VLLM_PRIMARY`; `apiKey` → `API_KEY`; `api_key` → `API_KEY`. */
export function upperSnake(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .toUpperCase();
}

export function providerSecretEnv(providerId: string, field: string): string {
  return `${SECRET_ENV_PREFIX}_${upperSnake(providerId)}_${upperSnake(field)}`;
}

/** The parts of a Postgres DSN the server's `sql_postgres` backend takes as discrete fields. */
export const POSTGRES_PARTS = ["host", "port", "db", "user", "password"] as const;
export type PostgresPart = (typeof POSTGRES_PARTS)[number];

export function storageSecretEnv(store: "kv" | "sql", field: string): string {
  return `${SECRET_ENV_PREFIX}_STORAGE_${store.toUpperCase()}_${upperSnake(field)}`;
}

/** A `${env.NAME}` reference as the server's substitution expects it (upper-case names only). */
export function envRef(name: string): string {
  return `\${env.${name}}`;
}

/**
 * Names of the environment variables that carry Secret values into the server
 * (docs/spec-reference.md). The ConfigMap only ever holds `${env.NAME}`; the Deployment gets a
 * secretKeyRef.
 */
import { SECRET_ENV_PREFIX } from "./defaults";

/** Lower-case words joined by single `-` or `_`: upper-cased with `_` joins, nothing else to do. */
const PLAIN_WORDS = /^[a-z0-9]+(?:[-_][a-z0-9]+)*$/;

/** `vllm-primary` → `VLLM_PRIMARY`; `apiKey` → `API_KEY`; `api_key` → `API_KEY`. */
export function upperSnake(text: string): string {
  // Most names (provider ids, field names) take this path: one test instead of three rewrites.
  return PLAIN_WORDS.test(text) ? text.replaceAll("-", "_").toUpperCase() : snakeRewrite(text);
}

/** The whole rule: camelCase split, every run of other characters one `_`, none at the ends. */
export function snakeRewrite(text: string): string {
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

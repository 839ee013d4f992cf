/**
 * Only loopback is reached from a developer's machine: in-cluster URLs, hosts and IP addresses in
 * config.yaml and the env go to 127.0.0.1 (the fake upstream, or the local Redis and Postgres),
 * and files the pod would have mounted go to the state directory.
 */
import { join } from "node:path";
import { parse, stringify } from "yaml";
import { isPlainObject } from "../../lib/json";

export interface Local {
  readonly upstream: string;
  readonly redisPort: number;
  readonly postgresPort: number;
  readonly stateDir: string;
  /** A certificate and key made for 127.0.0.1; also the CA file wherever the pod would mount one. */
  readonly tls: { readonly cert: string; readonly key: string };
}

/** A host the pod reaches in the cluster (or a documentation domain): never the internet, never loopback. */
export function inCluster(host: string): boolean {
  if (/^\d+\.\d+\.\d+\.\d+$/.test(host)) return !host.startsWith("127.");
  if (host === "localhost") return false;
  // A Service in the same namespace (`vllm`) or another (`otel-collector.observability`).
  if (host.split(".").length <= 2 && !/\.(com|org|net|io|ai)$/.test(host)) return true;
  return (
    /(\.svc|\.svc\.cluster\.local|\.cluster\.local|\.local|\.internal)$/.test(host) ||
    /(^|\.)example\.(com|org|net)$/.test(host)
  );
}

const URL_RE = /\bhttps?:\/\/([A-Za-z0-9.-]+)(?::\d+)?/g;

function localText(text: string, local: Local): string {
  const urls = text.replace(URL_RE, (url, host: string) => (inCluster(host) ? local.upstream : url));
  if (urls !== text) return urls;
  if (/^[A-Za-z0-9.-]+$/.test(text) && text.includes(".") && inCluster(text)) return "127.0.0.1";
  return text;
}

function localPath(text: string, local: Local): string {
  if (text === "/.llama" || text.startsWith("/.llama/")) return join(local.stateDir, text);
  if (/^\/(etc|var\/run)\/\S+\.(crt|pem)$/.test(text)) return local.tls.cert;
  if (/^\/(etc|var\/run)\/\S+\.key$/.test(text)) return local.tls.key;
  return text;
}

function walk(value: unknown, local: Local): unknown {
  if (typeof value === "string") return localPath(localText(value, local), local);
  if (Array.isArray(value)) return value.map((v) => walk(v, local));
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, local)]));
}

const literal = (v: unknown): boolean => typeof v !== "string" || !v.includes("${env.");

/** Redis and Postgres backends point at the local ones; what the config needs started is returned. */
function localBackends(config: { [k: string]: unknown }, local: Local): { redis: boolean; postgres: boolean } {
  const backends =
    isPlainObject(config.storage) && isPlainObject(config.storage.backends) ? config.storage.backends : {};
  const needs = { redis: false, postgres: false };
  for (const b of Object.values(backends)) {
    if (!isPlainObject(b)) continue;
    const onPostgres = b.type === "sql_postgres" || b.type === "kv_postgres";
    const port = b.type === "kv_redis" ? local.redisPort : onPostgres ? local.postgresPort : undefined;
    if (port === undefined) continue;
    if (b.type === "kv_redis") needs.redis = true;
    else needs.postgres = true;
    if (literal(b.host)) b.host = "127.0.0.1";
    if (literal(b.port)) b.port = port;
  }
  return needs;
}

export interface Localized {
  readonly configYaml: string;
  readonly config: { readonly [k: string]: unknown };
  readonly needs: { readonly redis: boolean; readonly postgres: boolean };
  /** IP addresses other than loopback still named: such a config would reach out of this machine. */
  readonly leftover: readonly string[];
}

export function localize(configYaml: string, local: Local): Localized {
  const config = walk(parse(configYaml), local) as { [k: string]: unknown };
  const needs = localBackends(config, local);
  const out = stringify(config, { lineWidth: 0 });
  const leftover = [...out.matchAll(/\b(\d+\.\d+\.\d+\.\d+)\b/g)].map((m) => m[1]!).filter((ip) => inCluster(ip));
  return { configYaml: out, config, needs, leftover: [...new Set(leftover)] };
}

export const localValue = (value: string, local: Local): string => localPath(localText(value, local), local);

/**
 * Where a provider or a storage backend keeps its data, decided by what the server's code does
 * with its config, not by the type's prefix:
 * - `remote::milvus` hands its config to pymilvus's `MilvusClient`
 *   (src/ogx/providers/remote/vector_io/milvus/milvus.py); pymilvus runs Milvus Lite inside the
 *   process for a `uri` whose scheme is not unix, http, https, tcp or grpc (a local `.db` file).
 * - `remote::qdrant` hands its config's own keys to `AsyncQdrantClient`
 *   (src/ogx/providers/remote/vector_io/qdrant/qdrant.py): `location: ":memory:"` is an index in
 *   the process; `location` otherwise is the URL; no `url`, `host` or `location` connects to
 *   localhost. Its class has no `path` key: a `path` is dropped, the client connects to localhost.
 * - A server type reached at a loopback address (`localhost`, `127.0.0.1`, `::1`), given or by
 *   its class's default, is reached inside each pod: a sidecar of that pod, or nothing.
 * - A storage backend whose class stores at a `db_path` (kv_sqlite, sql_sqlite) is a file on the
 *   pod's disk; the server backends (redis, postgres, mongodb) default their `host` to localhost.
 * What a value read from a Secret decides is not known here: it is left to the server.
 */
import { resolvedWith, type EnvValues } from "./container-env";
import { isPlainObject, type JsonMap } from "../json";

/** Kept inside each pod, and why (said in the refusal); `undefined` from a reader: shared, or not known. */
export interface Place {
  readonly why: string;
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "::1"]);

/** Schemes pymilvus connects to a server with (pymilvus `connections.connect`); anything else is Milvus Lite. */
const MILVUS_SERVER_SCHEMES = new Set(["unix", "http", "https", "tcp", "grpc"]);

/** The host of `http://h:1/p`, `h:1`, `[::1]:1` or `h`; lower case. */
export function hostOf(address: string): string {
  const text = address.trim().toLowerCase();
  const rest = text.includes("://") ? text.slice(text.indexOf("://") + 3) : text;
  const authority = rest.split(/[/?#]/, 1)[0] ?? "";
  const host = authority.includes("@") ? authority.slice(authority.lastIndexOf("@") + 1) : authority;
  if (host.startsWith("[")) return host.slice(1, host.indexOf("]") >= 0 ? host.indexOf("]") : undefined);
  // A bare IPv6 address has several colons and no port.
  return (host.match(/:/g) ?? []).length > 1 ? host : (host.split(":", 1)[0] ?? "");
}

export const isLoopback = (host: string): boolean => LOOPBACK.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);

const atLoopback = (address: string): Place | undefined =>
  isLoopback(hostOf(address)) ? { why: `reached at ${address}, the pod's own loopback` } : undefined;

/** Python's urlparse scheme: letters, digits, + - . before the first colon, starting with a letter. */
function schemeOf(uri: string): string {
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(uri);
  return m?.[1]?.toLowerCase() ?? "";
}

function milvus(config: JsonMap, env: EnvValues): Place | undefined {
  const uri = resolvedWith(config.uri, env);
  if (uri === undefined) return undefined;
  if (!MILVUS_SERVER_SCHEMES.has(schemeOf(uri)))
    return { why: `Milvus Lite inside the process: uri ${uri} is a local file, not a server URL` };
  return atLoopback(uri);
}

function qdrant(config: JsonMap, env: EnvValues): Place | undefined {
  const read = (key: string): string | undefined | null =>
    typeof config[key] === "string" ? resolvedWith(config[key], env) : null;
  const location = read("location");
  if (location === ":memory:") return { why: "an index in the process's memory (location :memory:)" };
  const [url, host] = [read("url"), read("host")];
  // A value not known here (from a Secret) decides where it connects.
  if (location === undefined || url === undefined || host === undefined) return undefined;
  const given = url || location || host;
  if (given) return atLoopback(given);
  const dropped = "path" in config ? " (path is not a key of remote::qdrant's config: it is dropped)" : "";
  return { why: `reached at localhost:6333, the pod's own loopback: no url, host or location${dropped}` };
}

/** Remote types whose endpoint key has a default in the class (src/ogx/providers/remote/vector_io/*\/config.py at v1.3.0). */
const ENDPOINT_DEFAULTS: { readonly [type: string]: { readonly key: string; readonly default: string } } = {
  "remote::pgvector": { key: "host", default: "localhost" },
  "remote::weaviate": { key: "weaviate_cluster_url", default: "localhost:8080" },
  "remote::elasticsearch": { key: "elasticsearch_url", default: "localhost:9200" },
  "remote::infinispan": { key: "url", default: "http://localhost:11222" },
  "remote::neo4j": { key: "uri", default: "bolt://localhost:7687" },
};

/** The key a type's endpoint is in: the class default's key, else the line's url key (pgvector's spread is `host`). */
function endpointKey(type: string, urlKey: string | undefined): string | undefined {
  const known = ENDPOINT_DEFAULTS[type];
  if (known) return known.key;
  return urlKey !== undefined && urlKey !== "split-postgres" ? urlKey : undefined;
}

/**
 * A running `remote::` provider of a data API: where its data is. `urlKey` is the key the line's
 * class takes an endpoint in (provider-fields.generated.ts), when it has one.
 */
export function remotePlace(
  type: string,
  config: unknown,
  urlKey: string | undefined,
  env: EnvValues,
): Place | undefined {
  const c = isPlainObject(config) ? config : {};
  if (type === "remote::milvus") return milvus(c, env);
  if (type === "remote::qdrant") return qdrant(c, env);
  const key = endpointKey(type, urlKey);
  if (key === undefined) return undefined;
  const given = typeof c[key] === "string" ? resolvedWith(c[key], env) : ENDPOINT_DEFAULTS[type]?.default;
  return given ? atLoopback(given) : undefined;
}

/** A storage backend (resolved `type`): a file on the pod's disk, a server on the pod's loopback, or shared. */
export function backendPlace(
  backend: JsonMap,
  classKeys: { readonly [k: string]: unknown },
  env: EnvValues,
): Place | undefined {
  if ("db_path" in classKeys) return { why: "a file on the pod's disk" };
  if (!("host" in classKeys)) return undefined;
  // Every server backend's class defaults host to localhost (src/ogx/core/storage/datatypes.py).
  const host = typeof backend.host === "string" ? resolvedWith(backend.host, env) : "localhost";
  return host ? atLoopback(host) : undefined;
}

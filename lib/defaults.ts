/** Every default, named once. Where the CRD also declares a default, a test checks they agree. */

/** The server's port when `networking.port` is absent (Go operator DefaultServerPort). */
export const DEFAULT_PORT = 8321;
/** The lowest port every server line listens on (`server.port`: `ge=1024`); lower ones need root anyway. */
export const MIN_SERVER_PORT = 1024;

/**
 * The port the server listens on in the pod. `networking.port` is the Service's port; one
 * below 1024 (80, 443) is served by the Service while the server listens on DEFAULT_PORT.
 */
export function listenPort(servicePort: number): number {
  return servicePort >= MIN_SERVER_PORT ? servicePort : DEFAULT_PORT;
}
/** Storage mount when `workload.storage.mountPath` is absent (Go operator DefaultMountPath). */
export const DEFAULT_MOUNT_PATH = "/.llama";
/** PVC size when `workload.storage.size` is absent. */
export const DEFAULT_STORAGE_SIZE = "10Gi";
/** Replicas when `workload.replicas` is absent. */
export const DEFAULT_REPLICAS = 1;
/** Where the generated (or override) config.yaml is mounted in the server container. */
export const CONFIG_MOUNT_DIR = "/etc/llama-stack";
export const CONFIG_FILE_NAME = "config.yaml";
/** The key a CA bundle ConfigMap is read from when `configMapKeys` is unset (as the Go operator reads it). */
export const DEFAULT_CA_BUNDLE_KEY = "ca-bundle.crt";
/** The server's health endpoint: the probes ask it, and auth leaves it open (it needs no token). */
export const HEALTH_PATH = "/v1/health";
/** Where the mounted config.yaml is, as the server sees it. */
export const CONFIG_PATH = `${CONFIG_MOUNT_DIR}/${CONFIG_FILE_NAME}`;
/** Where the TLS Secret is mounted when `networking.tls.enabled`. */
export const TLS_MOUNT_DIR = "/etc/llama-stack/tls";
/** config.yaml `version:` values this service can generate from: every supported server line reads version 2. */
export const SUPPORTED_CONFIG_VERSIONS: readonly number[] = [2];
/** Storage backend names every store of the real server points at; never renamed, so the base's stores stay valid. */
export const KV_BACKEND = "kv_default";
export const SQL_BACKEND = "sql_default";
/** Redis port when the kv endpoint names none. */
export const DEFAULT_REDIS_PORT = 6379;
/** Prefix of every environment variable that carries a Secret value into the server. */
export const SECRET_ENV_PREFIX = "LLSD";
/** Postgres port when a pgvector endpoint names none. */
export const DEFAULT_POSTGRES_PORT = 5432;

/**
 * What each supported server line accepts: API names, removed provider types, and what the
 * 1.x line dropped or changed. 0.7 and 0.8 share a YAML schema (different API names); 1.x
 * removed the Safety API and CORS/quota settings and refuses plain HTTP unless told so.
 */
import { RELEASES, type Release } from "./table";

const COMMON_APIS = ["inference", "vector_io", "tool_runtime", "files", "batches", "file_processors", "responses"];

/** Providable APIs per release. */
export const RELEASE_APIS: { readonly [r in Release]: readonly string[] } = {
  "0.7": [...COMMON_APIS, "safety", "eval", "datasetio", "scoring"],
  "0.8": [...COMMON_APIS, "safety", "messages", "interactions"],
  "1.2": [...COMMON_APIS, "messages", "interactions", "skills", "container_runtime", "containers"],
  "1.3": [...COMMON_APIS, "messages", "interactions", "skills", "container_runtime", "containers"],
};

/** The real server's JSON Schemas a line's configs are checked against (tests). */
export type SchemaTag = "v0.7.3" | "v0.8.0" | "v1.2.2" | "v1.3.0";

/** Every tag with schema-derived data (provider-fields.generated.ts). */
export const SCHEMA_TAGS: readonly SchemaTag[] = Object.freeze(["v0.7.3", "v0.8.0", "v1.2.2", "v1.3.0"] as const);

/** A `Record` over `Release`: a new server line does not compile until it names its models' tag. */
const SCHEMA_TAG_OF: { readonly [r in Release]: SchemaTag } = {
  "0.7": "v0.7.3",
  "0.8": "v0.8.0",
  "1.2": "v1.2.2",
  "1.3": "v1.3.0",
};

/** 0.7 → v0.7.3, 0.8 → v0.8.0, 1.2 → v1.2.2, 1.3 → v1.3.0. */
export function schemaTagOf(release: Release): SchemaTag {
  return SCHEMA_TAG_OF[release];
}

/** Does the line have the Safety API (`safety`, shields, top-level `safety:`)? Removed in 1.0. */
export function hasSafety(release: Release): boolean {
  return RELEASE_APIS[release].includes("safety");
}

/** The 1.x lines: no Safety API, the 1.x config classes. */
const ONE_X: ReadonlySet<Release> = new Set(["1.2", "1.3"]);

/**
 * `ogx stack run` refuses plain HTTP from 1.2 on unless `server.insecure: true` or `--insecure`
 * (the image entrypoint passes `--insecure` from 1.2.1 on; 1.2.0's does not).
 */
export function refusesPlainHttp(release: Release): boolean {
  return ONE_X.has(release);
}

/** The responses provider keeps agent state in a KV store (`persistence.agent_state`) up to 0.8; 1.0 removed it. */
export function keepsAgentState(release: Release): boolean {
  return !ONE_X.has(release);
}

/** The lines whose server has `api`, for the error that refuses it on the others. */
export function linesWithApi(api: string): Release[] {
  return RELEASES.filter((r) => RELEASE_APIS[r].includes(api));
}

/** What replaces the Safety API on lines without it, for error messages. */
export const SAFETY_ALTERNATIVES =
  "use a line that has it (distribution.image with a 0.8 image), or on 1.x moderate through the responses provider's moderation_endpoint (an OpenAI-compatible /v1/moderations URL) in a config of your own (overrideConfig)";

/** Provider types a line removed: generating them stops the server at startup. */
export const REMOVED_TYPES: { readonly [r in Release]: ReadonlySet<string> } = {
  "0.7": new Set(["remote::tgi", "remote::hf::serverless", "remote::hf::endpoint", "inline::meta-reference"]),
  "0.8": new Set(["remote::tgi", "remote::hf::serverless", "remote::hf::endpoint", "inline::meta-reference"]),
  // 1.2 still has remote::passthrough (gone in 1.3.0); it lacks 1.3's new types (registry below).
  "1.2": new Set([
    "remote::tgi",
    "remote::hf::serverless",
    "remote::hf::endpoint",
    "inline::meta-reference",
    "inline::transformers",
  ]),
  "1.3": new Set([
    "remote::tgi",
    "remote::hf::serverless",
    "remote::hf::endpoint",
    "inline::meta-reference",
    "inline::transformers",
    "remote::passthrough",
  ]),
};

/** Names users may still write that a release no longer has, and what replaced them. */
export const RENAMED_APIS: { readonly [old: string]: string } = { agents: "responses" };

/** APIs that must stay enabled while another API is (the registry's `api_dependencies`). */
export const API_DEPENDENCIES: { readonly [api: string]: readonly string[] } = {
  responses: ["inference", "vector_io", "tool_runtime", "files"],
  vector_io: ["inference"],
  safety: ["inference"],
  batches: ["inference", "files"],
  file_processors: ["files"],
  messages: ["inference"],
  interactions: ["inference"],
  skills: ["files"],
  eval: ["inference"],
  scoring: ["inference"],
};

/** Provider types with their own dependencies beyond their API's. */
export const PROVIDER_DEPENDENCIES: { readonly [type: string]: readonly string[] } = {
  "inline::file-search": ["vector_io", "inference", "files"],
};

/**
 * How each line's image starts, read from its Containerfile and start-up code: where it keeps
 * its state and which variables its launcher reads. The distribution configs write every
 * sqlite file, uploaded file and vector store under `~/<stateDir>/distributions/<name>/`, and
 * the server's own directories (providers.d, runtime) follow `<configDirEnv>` (default
 * `~/<stateDir>`). From 0.8 on the launcher also moves `~/.llama` to `~/.ogx` at start-up
 * unless `OGX_CONFIG_DIR` is set.
 */
export interface LineStartup {
  /** `~/<stateDir>`: the line's state directory. */
  readonly stateDir: ".llama" | ".ogx";
  /** The variable that names the server's config directory (and, when set, skips the legacy move). */
  readonly configDirEnv: string;
  /** The variable the launcher takes the port from (it ignores `server.port`). */
  readonly portEnv: string;
  /** The variable that overrides `server.workers`, where the launcher reads one. */
  readonly workersEnv?: string;
  /** The variable the server finds its config by when not started through the image entrypoint. */
  readonly configEnv?: string;
}

export const LINE_STARTUP: { readonly [r in Release]: LineStartup } = {
  "0.7": {
    stateDir: ".llama",
    configDirEnv: "LLAMA_STACK_CONFIG_DIR",
    portEnv: "LLAMA_STACK_PORT",
    configEnv: "LLAMA_STACK_CONFIG",
  },
  "0.8": { stateDir: ".ogx", configDirEnv: "OGX_CONFIG_DIR", portEnv: "OGX_PORT" },
  "1.2": { stateDir: ".ogx", configDirEnv: "OGX_CONFIG_DIR", portEnv: "OGX_PORT", workersEnv: "OGX_WORKERS" },
  "1.3": { stateDir: ".ogx", configDirEnv: "OGX_CONFIG_DIR", portEnv: "OGX_PORT", workersEnv: "OGX_WORKERS" },
};

/**
 * `HOME` for the server, so that `~/<stateDir>` is on the volume mounted at `mountPath`: the
 * mount itself when it is named like the state directory (`/.llama` on 0.7, the Go operator's
 * layout), else a directory below it (`/.llama/.ogx` on 0.8 and 1.x).
 */
export function stateLayout(release: Release, mountPath: string): { readonly home: string; readonly stateDir: string } {
  const mount = mountPath.replace(/(.)\/+$/, "$1");
  const slash = mount.lastIndexOf("/");
  const { stateDir } = LINE_STARTUP[release];
  const home = mount.slice(slash + 1) === stateDir ? mount.slice(0, slash) || "/" : mount;
  return { home, stateDir: `${home === "/" ? "" : home}/${stateDir}` };
}

/** The ciphers the 1.x server defaults to when it serves TLS without `--insecure` (`server_tls.py`). */
export const FIPS_APPROVED_CIPHERS: readonly string[] = Object.freeze([
  "ECDHE-ECDSA-AES128-GCM-SHA256",
  "ECDHE-RSA-AES128-GCM-SHA256",
  "ECDHE-ECDSA-AES256-GCM-SHA384",
  "ECDHE-RSA-AES256-GCM-SHA384",
  "DHE-RSA-AES128-GCM-SHA256",
  "DHE-RSA-AES256-GCM-SHA384",
]);

/**
 * The 1.x entrypoint always passes `--insecure`, which skips the FIPS cipher defaults; the
 * server still uses `server.tls_config` when the config sets it, so generated configs do.
 */
export function takesTlsConfig(release: Release): boolean {
  return ONE_X.has(release);
}

/** Images of the line carry their config.yaml as OCI labels (`com.ogx.config.*`, published since 1.2). */
export function carriesConfigLabels(release: Release): boolean {
  return ONE_X.has(release);
}

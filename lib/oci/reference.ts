/**
 * Image reference → where to connect, and whether we may connect there at all. Pure.
 * Registry access is an SSRF surface (DESIGN §11): cloud metadata and link-local addresses are
 * refused, an optional allow-list is honoured, and plain http is used only for registries the
 * operator listed as insecure.
 */
import { isIP } from "node:net";
import { parseImageRef } from "../distributions/image-ref";
import { fail, ok, REASON, SHA256_DIGEST, type Result } from "./types";

export interface RegistryRef {
  /** host[:port] we connect to, e.g. `registry-1.docker.io`, `127.0.0.1:5000`. */
  readonly registry: string;
  /** Key for credential lookups and policy lists: `docker.io` for Docker Hub, else `registry`. */
  readonly host: string;
  /** Repository path inside the registry, e.g. `library/busybox`. */
  readonly repository: string;
  /** What the manifest URL names: the digest when pinned, else the tag. */
  readonly reference: string;
  /** The pinned digest, when the reference has one (then the manifest bytes must hash to it). */
  readonly digest?: string;
}

const DOCKER_HUB = "docker.io";
const DOCKER_HUB_ALIASES = new Set(["docker.io", "index.docker.io", "registry-1.docker.io", "registry.hub.docker.com"]);

/** Docker's rule: the first path component is a registry when it has a `.` or `:`, or is `localhost`. */
function splitRegistry(repository: string): { host: string; path: string } {
  const slash = repository.indexOf("/");
  const first = slash === -1 ? "" : repository.slice(0, slash);
  if (first !== "" && (first.includes(".") || first.includes(":") || first === "localhost")) {
    return { host: normalizeRegistryHost(first), path: repository.slice(slash + 1) };
  }
  return { host: DOCKER_HUB, path: repository };
}

/**
 * `https://index.docker.io/v1/`, `Registry-1.Docker.io` → `docker.io`; `https://quay.io/x` →
 * `quay.io`. dockerconfigjson keys come in all of these shapes.
 */
export function normalizeRegistryHost(key: string): string {
  const bare = key.trim().replace(/^[a-z]+:\/\//i, "").replace(/\/.*$/, "").toLowerCase();
  return DOCKER_HUB_ALIASES.has(bare) ? DOCKER_HUB : bare;
}

export type RefOutcome = Result<RegistryRef>;

/** Tagless references mean `latest`, as for `docker pull`; distribution images are pinned before they get here. */
export function toRegistryRef(image: string): RefOutcome {
  const parsed = parseImageRef(image.trim());
  if (parsed === undefined) return fail(REASON.invalidReference, "it is not a valid image reference (expected registry/repository:tag or …@sha256:<digest>)");
  if (parsed.digest !== undefined && !SHA256_DIGEST.test(parsed.digest)) {
    return fail(REASON.invalidReference, `only sha256 digests are supported, got "${parsed.digest}"`);
  }
  const { host, path } = splitRegistry(parsed.repository);
  // parseImageRef lets any first component be a host; when it is not one, it must be lower-case like the rest.
  if (path !== path.toLowerCase()) return fail(REASON.invalidReference, "repository names must be lower-case");
  const repository = host === DOCKER_HUB && !path.includes("/") ? `library/${path}` : path;
  return ok({
    registry: host === DOCKER_HUB ? "registry-1.docker.io" : host,
    host,
    repository,
    reference: parsed.digest ?? parsed.tag ?? "latest",
    ...(parsed.digest === undefined ? {} : { digest: parsed.digest }),
  });
}

export interface HostPolicy {
  /** host:port entries reached over plain http (the caller parses `INSECURE_REGISTRIES`). */
  readonly insecureRegistries?: readonly string[];
  /** When set, only these registries: exact `host[:port]` or `*.example.com` suffixes. */
  readonly allowedRegistries?: readonly string[];
}

/** Names and addresses that reach instance metadata or link-local services. */
const METADATA_HOSTS = new Set(["metadata", "metadata.google.internal", "metadata.goog", "100.100.100.200", "fd00:ec2::254"]);

function hostname(hostPort: string): string {
  if (hostPort.startsWith("[")) return hostPort.slice(1, hostPort.indexOf("]")).toLowerCase();
  const colon = hostPort.lastIndexOf(":");
  return (colon === -1 || hostPort.indexOf(":") !== colon ? hostPort : hostPort.slice(0, colon)).toLowerCase();
}

/** 169.254.0.0/16 and fe80::/10 (link-local, where cloud metadata lives). */
export function isForbiddenHost(hostPort: string): boolean {
  const name = hostname(hostPort).replace(/\.$/, "");
  if (METADATA_HOSTS.has(name)) return true;
  if (isIP(name) === 4) return name.startsWith("169.254.");
  if (isIP(name) === 6) return /^fe[89ab][0-9a-f]:/i.test(name);
  return false;
}

function listed(list: readonly string[] | undefined, host: string): boolean {
  return (list ?? []).some((entry) => {
    const e = normalizeRegistryHost(entry);
    return e.startsWith("*.") ? host.endsWith(e.slice(1)) : e === host;
  });
}

/** The base URL for `ref`, or why we refuse to contact it. */
export function registryBaseUrl(ref: RegistryRef, policy: HostPolicy): Result<string> {
  if (isForbiddenHost(ref.registry)) return fail(REASON.notAllowed, `registry "${ref.host}" is a link-local or metadata address and is never contacted`);
  if (policy.allowedRegistries !== undefined && !listed(policy.allowedRegistries, ref.host)) {
    return fail(REASON.notAllowed, `registry "${ref.host}" is not in the allowed registries of this service`);
  }
  const scheme = isInsecure(ref.host, policy) ? "http" : "https";
  return ok(`${scheme}://${ref.registry}`);
}

export function isInsecure(host: string, policy: HostPolicy): boolean {
  return (policy.insecureRegistries ?? []).some((entry) => normalizeRegistryHost(entry) === host);
}

/** `manifests/v1` under a repository; digests and tags need no escaping by their grammar. */
export function registryUrl(base: string, ref: RegistryRef, path: string): string {
  return `${base}/v2/${ref.repository}/${path}`;
}

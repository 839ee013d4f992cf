/**
 * Image reference → where to connect, and whether we may connect there at all. Pure.
 * Registry access is an SSRF surface (docs/security.md): cloud metadata and link-local addresses are
 * refused, an optional allow-list is honoured, and plain http is used only for registries the
 * operator listed as insecure. Hosts are read the way `fetch` reads them (WHATWG URL), so
 * `2852039166`, `0xa9fea9fe` or `0251.0376.0251.0376` are recognised as 169.254.169.254, and
 * `[::ffff:a9fe:a9fe]` as the same address mapped into IPv6.
 *
 * What a DNS name resolves to is checked in ssrf.ts (asynchronous); `classifyAddress` here is
 * the one table of address ranges both use.
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
  const bare = key
    .trim()
    .replace(/^[a-z]+:\/\//i, "")
    .replace(/\/.*$/, "")
    .toLowerCase();
  return DOCKER_HUB_ALIASES.has(bare) ? DOCKER_HUB : bare;
}

export type RefOutcome = Result<RegistryRef>;

/** Tagless references mean `latest`, as for `docker pull`; distribution images are pinned before they get here. */
export function toRegistryRef(image: string): RefOutcome {
  const parsed = parseImageRef(image.trim());
  if (parsed === undefined)
    return fail(
      REASON.invalidReference,
      "it is not a valid image reference (expected registry/repository:tag or …@sha256:<digest>)",
    );
  if (parsed.digest !== undefined && !SHA256_DIGEST.test(parsed.digest)) {
    return fail(REASON.invalidReference, `only sha256 digests are supported, got "${parsed.digest}"`);
  }
  return fromParts(splitRegistry(parsed.repository), parsed.digest, parsed.tag);
}

function fromParts({ host, path }: { host: string; path: string }, digest?: string, tag?: string): RefOutcome {
  // parseImageRef lets any first component be a host; when it is not one, it must be lower-case like the rest.
  if (path !== path.toLowerCase()) return fail(REASON.invalidReference, "repository names must be lower-case");
  const repository = host === DOCKER_HUB && !path.includes("/") ? `library/${path}` : path;
  return ok({
    registry: host === DOCKER_HUB ? "registry-1.docker.io" : host,
    host,
    repository,
    reference: digest ?? tag ?? "latest",
    ...(digest === undefined ? {} : { digest }),
  });
}

export interface HostPolicy {
  /** host:port entries reached over plain http (the caller parses `INSECURE_REGISTRIES`). */
  readonly insecureRegistries?: readonly string[];
  /** When set, only these registries: exact `host[:port]` or `*.example.com` suffixes. */
  readonly allowedRegistries?: readonly string[];
  /**
   * Registries that may be at a loopback or private address (ssrf.ts), besides those listed in
   * `insecureRegistries` or `allowedRegistries`: exact `host[:port]` or `*.example.com` suffixes.
   */
  readonly privateRegistries?: readonly string[];
}

/** Names and addresses that reach instance metadata or link-local services. */
const METADATA_HOSTS = new Set([
  "metadata",
  "metadata.google.internal",
  "metadata.goog",
  "169.254.169.254",
  "169.254.170.2",
  "100.100.100.200",
  "fd00:ec2::254",
]);

/**
 * The host part of `host[:port]` exactly as `fetch` will connect to it: lower-case, numeric
 * IPv4 forms in dotted quads, IPv6 compressed and without brackets, no trailing dot. A bare
 * IPv6 address is accepted too. Undefined when `fetch` could not use it (bad port, bad name).
 */
export function hostnameOf(hostPort: string): string | undefined {
  const raw = hostPort.trim();
  if (isIP(raw) === 6) return raw.toLowerCase();
  if (raw === "" || /[/?#@\\\s]/.test(raw)) return undefined;
  try {
    const name = new URL(`http://${raw}`).hostname;
    return (name.startsWith("[") ? name.slice(1, -1) : name).replace(/\.$/, "");
  } catch {
    return undefined;
  }
}

/**
 * What an IP address reaches, for the SSRF rules:
 * - `metadata`, `link-local`: never contacted (169.254.0.0/16, fe80::/10, the clouds' metadata IPs);
 * - `loopback`, `private`, `unspecified`, `reserved`: this host or the internal network, contacted
 *   only when the operator listed the registry (ssrf.ts);
 * - `public`: anything else. IPv6 forms that embed an IPv4 address (mapped, compatible, NAT64,
 *   6to4) are judged by that address. Not an IP address: undefined.
 */
export type AddressClass = "public" | "loopback" | "private" | "unspecified" | "reserved" | "link-local" | "metadata";

export function classifyAddress(address: string): AddressClass | undefined {
  const bare = address
    .replace(/^\[|\]$/g, "")
    .replace(/%.*$/, "")
    .toLowerCase();
  if (isIP(bare) === 4) return classifyV4(bare.split(".").map(Number));
  if (isIP(bare) !== 6) return undefined;
  return classifyV6(ipv6Bytes(bare));
}

type V4Rule = readonly [test: (a: number, b: number, c: number) => boolean, verdict: AddressClass];

/** IPv4 ranges in the order they are tested; the first match wins, anything else is public. */
const V4_RULES: readonly V4Rule[] = [
  [(a, b) => a === 169 && b === 254, "link-local"],
  [(a) => a === 127, "loopback"],
  [(a) => a === 0, "unspecified"],
  [(a, b) => a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168), "private"],
  [(a, b) => a === 100 && b >= 64 && b <= 127, "private"], // carrier-grade NAT, used for pod and service networks
  [(a, b) => a === 198 && (b === 18 || b === 19), "private"], // benchmarking, seen inside clusters too
  [(a, b, c) => a === 192 && b === 0 && (c === 0 || c === 2), "reserved"],
  [(a, b, c) => (a === 198 && b === 51 && c === 100) || (a === 203 && b === 0 && c === 113), "reserved"], // documentation
  [(a) => a >= 224, "reserved"], // multicast, class E, broadcast
];

function classifyV4([a = 0, b = 0, c = 0, d = 0]: number[]): AddressClass {
  if (METADATA_HOSTS.has(`${a}.${b}.${c}.${d}`)) return "metadata";
  return V4_RULES.find(([test]) => test(a, b, c))?.[1] ?? "public";
}

/** Sixteen bytes of an IPv6 address, read as the rules below need them. */
interface V6View {
  word(i: number): number;
  zeros(from: number, to: number): boolean;
  v4At(offset: number): number[];
  byte(i: number): number | undefined;
}

/** IPv6 ranges in the order they are tested; a rule answers a class or passes (undefined). */
const V6_RULES: ReadonlyArray<(v: V6View) => AddressClass | undefined> = [
  (v) =>
    v.word(0) === 0xfd00 && v.word(1) === 0x0ec2 && v.zeros(4, 14) && v.word(7) === 0x0254 ? "metadata" : undefined,
  (v) => (v.zeros(0, 15) && v.byte(15) === 1 ? "loopback" : undefined),
  (v) => (v.zeros(0, 16) ? "unspecified" : undefined),
  (v) => (v.zeros(0, 10) && v.word(5) === 0xffff ? classifyV4(v.v4At(12)) : undefined), // ::ffff:a.b.c.d (mapped)
  (v) => (v.zeros(0, 12) ? classifyV4(v.v4At(12)) : undefined), // ::a.b.c.d (compatible, deprecated)
  (v) => (v.word(0) === 0x0064 && v.word(1) === 0xff9b ? classifyV4(v.v4At(12)) : undefined), // 64:ff9b::/96 and /48 (NAT64)
  (v) => (v.word(0) === 0x2002 ? classifyV4(v.v4At(2)) : undefined), // 6to4
  (v) => ((v.word(0) & 0xffc0) === 0xfe80 ? "link-local" : undefined),
  (v) => ((v.word(0) & 0xfe00) === 0xfc00 || (v.word(0) & 0xffc0) === 0xfec0 ? "private" : undefined), // unique local, site-local
  (v) => ((v.word(0) & 0xff00) === 0xff00 ? "reserved" : undefined), // multicast
  (v) => (v.word(0) === 0x2001 && v.word(1) === 0x0db8 ? "reserved" : undefined), // documentation
  (v) => (v.word(0) === 0x0100 && v.zeros(2, 8) ? "reserved" : undefined), // discard
];

function classifyV6(bytes: number[]): AddressClass {
  const view: V6View = {
    word: (i) => ((bytes[2 * i] ?? 0) << 8) | (bytes[2 * i + 1] ?? 0),
    zeros: (from, to) => bytes.slice(from, to).every((x) => x === 0),
    v4At: (offset) => bytes.slice(offset, offset + 4),
    byte: (i) => bytes[i],
  };
  for (const rule of V6_RULES) {
    const verdict = rule(view);
    if (verdict !== undefined) return verdict;
  }
  return "public";
}

/** A valid IPv6 text (net.isIP said so) → its 16 bytes. */
function ipv6Bytes(text: string): number[] {
  let head = text;
  let v4: number[] = [];
  const lastColon = text.lastIndexOf(":");
  if (text.includes(".")) {
    v4 = text
      .slice(lastColon + 1)
      .split(".")
      .map(Number);
    head = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const [left = "", right] = head.split("::");
  const words = (part: string): number[] => (part === "" ? [] : part.split(":").map((w) => parseInt(w, 16)));
  const l = words(left);
  const r = right === undefined ? [] : words(right);
  const all = [...l, ...Array<number>(8 - l.length - r.length).fill(0), ...r];
  const bytes = all.flatMap((w) => [(w >> 8) & 0xff, w & 0xff]);
  if (v4.length === 4) bytes.splice(12, 4, ...v4);
  return bytes;
}

/** Link-local and metadata addresses, whatever form they are written in, and the metadata names. */
export function isForbiddenHost(hostPort: string): boolean {
  const name = hostnameOf(hostPort);
  if (name === undefined) return false;
  if (METADATA_HOSTS.has(name)) return true;
  const kind = classifyAddress(name);
  return kind === "link-local" || kind === "metadata";
}

function listed(list: readonly string[] | undefined, host: string): boolean {
  return (list ?? []).some((entry) => {
    const e = normalizeRegistryHost(entry);
    return e.startsWith("*.") ? host.endsWith(e.slice(1)) : e === host;
  });
}

/**
 * Whether the operator named `host` (a RegistryRef's `host`) in any of the policy's lists, and
 * so allowed it to be at a loopback or private address. Link-local and metadata stay refused.
 */
export function mayBeInternal(host: string, policy: HostPolicy): boolean {
  return isInsecure(host, policy) || listed(policy.allowedRegistries, host) || listed(policy.privateRegistries, host);
}

/** Whether an allow-list is set and leaves `host` out. */
export function isDisallowed(host: string, policy: HostPolicy): boolean {
  return policy.allowedRegistries !== undefined && !listed(policy.allowedRegistries, host);
}

/** The base URL for `ref`, or why we refuse to contact it. */
export function registryBaseUrl(ref: RegistryRef, policy: HostPolicy): Result<string> {
  if (hostnameOf(ref.registry) === undefined)
    return fail(REASON.invalidReference, `registry "${ref.host}" is not a valid host[:port]`);
  if (isForbiddenHost(ref.registry))
    return fail(REASON.notAllowed, `registry "${ref.host}" is a link-local or metadata address and is never contacted`);
  if (isDisallowed(ref.host, policy)) {
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

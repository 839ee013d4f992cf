/**
 * Which endpoints of the spec the egress rules of `networking.policy` let the server reach,
 * for the status: a provider or store the rules leave out fails only at run time, from inside
 * the server. An endpoint is matched by address and TCP port. A rule with no `to` matches every
 * address; an ipBlock matches an IP literal (its cidr, minus `except`); a pod or namespace
 * selector, or an ipBlock against a host name, cannot be matched without resolving the name
 * and reading the cluster, so those endpoints are listed as unknown rather than guessed.
 */
import type { CanonicalSpec } from "../api/canonical";
import { inCidr, ipFamily } from "../api/cidr";
import type { IpBlock, NetworkPolicyPeerInput, NetworkPolicyPortInput } from "../api/v1alpha2-network-policy";
import { parseRedisEndpoint } from "../api/validate-resources";
import type { DerivedPostgres } from "../config/postgres-stores";
import type { EgressRule } from "./network-policy-egress";

/** An address the server connects to, and the spec field it came from. */
export interface Endpoint {
  readonly path: string;
  readonly host: string;
  /** Undefined when the endpoint names no port and its scheme implies none. */
  readonly port?: number;
  /** The host came from a Secret: the note names the field, never the address. */
  readonly secret?: boolean;
}

type Match = "yes" | "no" | "unknown";

const SCHEME_PORTS: { readonly [scheme: string]: number } = { "http:": 80, "https:": 443, "ws:": 80, "wss:": 443 };

/** `https://host:port/path`, or `host:port` without a scheme (port unknown when absent). */
export function parseEndpoint(path: string, endpoint: string): Endpoint | undefined {
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(endpoint);
  let url: URL;
  try {
    url = new URL(hasScheme ? endpoint : `tcp://${endpoint}`);
  } catch {
    return undefined;
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (host === "") return undefined;
  const port = url.port !== "" ? Number(url.port) : SCHEME_PORTS[url.protocol];
  return port === undefined ? { path, host } : { path, host, port };
}

/** Every endpoint the spec names; `postgres`: the hosts and ports read from the DSNs' Secrets. */
export function specEndpoints(spec: CanonicalSpec, postgres?: DerivedPostgres): Endpoint[] {
  const found: (Endpoint | undefined)[] = spec.providers.map((p) =>
    p.endpoint === undefined ? undefined : parseEndpoint(`${p.path}.endpoint`, p.endpoint),
  );
  const kv = spec.storage?.kv;
  if (kv?.type === "redis" && kv.endpoint !== undefined) {
    const redis = parseRedisEndpoint(kv.endpoint);
    if (redis) found.push({ path: `${kv.path}.endpoint`, host: redis.host, port: redis.port });
  }
  // One endpoint per DSN: a KV store on the SQL store's DSN is reached at the same address.
  for (const { secret, parts } of postgres?.dsns ?? [])
    found.push({ path: secret.path, host: parts.host, port: Number(parts.port), secret: true });
  return found.filter((e): e is Endpoint => e !== undefined);
}

function portMatch(ports: readonly NetworkPolicyPortInput[] | undefined, port: number | undefined): Match {
  if (!ports || ports.length === 0) return "yes";
  if (port === undefined) return "unknown";
  const results = ports.map((p): Match => {
    if ((p.protocol ?? "TCP") !== "TCP") return "no";
    if (p.port === undefined) return "yes";
    if (typeof p.port === "string") return "unknown"; // a named port is a port of the destination pods
    return port === p.port || (p.endPort !== undefined && port >= p.port && port <= p.endPort) ? "yes" : "no";
  });
  return best(results);
}

function inBlock(ip: string, block: IpBlock): boolean {
  return inCidr(ip, block.cidr) && !(block.except ?? []).some((cidr) => inCidr(ip, cidr));
}

function peerMatch(peers: readonly NetworkPolicyPeerInput[] | undefined, host: string): Match {
  if (!peers || peers.length === 0) return "yes";
  return best(
    peers.map((peer): Match => {
      if (!peer.ipBlock || !ipFamily(host)) return "unknown";
      return inBlock(host, peer.ipBlock) ? "yes" : "no";
    }),
  );
}

/** The strongest answer of several alternatives: any yes, else any unknown, else no. */
function best(results: readonly Match[]): Match {
  return results.includes("yes") ? "yes" : results.includes("unknown") ? "unknown" : "no";
}

export function ruleMatch(rule: EgressRule, endpoint: Endpoint): Match {
  const ports = portMatch(rule.ports, endpoint.port);
  const peers = peerMatch(rule.to, endpoint.host);
  if (ports === "no" || peers === "no") return "no";
  return ports === "yes" && peers === "yes" ? "yes" : "unknown";
}

const shown = (e: Endpoint): string =>
  e.secret ? e.path : `${e.path} (${e.host}${e.port === undefined ? "" : `:${e.port}`})`;

/** Status notes for the endpoints the user's egress rules leave out, or cannot be matched to. */
export function coverageNotes(rules: readonly EgressRule[], endpoints: readonly Endpoint[]): string[] {
  const by = (want: Match) => endpoints.filter((e) => best(rules.map((r) => ruleMatch(r, e))) === want).map(shown);
  const missing = by("no");
  const unknown = by("unknown");
  const notes: string[] = [];
  if (missing.length > 0)
    notes.push(
      `networking.policy.egress: no rule allows ${missing.join(", ")}; the server cannot connect there: add an egress rule for its address and port`,
    );
  if (unknown.length > 0)
    notes.push(
      `networking.policy.egress: not checked whether the rules allow ${unknown.join(", ")}: a pod or namespace selector, a named port or an ipBlock cannot be matched to a host name here; make sure a rule selects it`,
    );
  return notes;
}

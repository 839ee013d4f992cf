/**
 * The SSRF guard in front of the registry client (docs/security.md). Image references come from
 * users; without it, `distribution.image: internal-db.prod.svc:5432/x:1` or a DNS name that
 * resolves to 169.254.169.254 makes the hooks send requests into the cluster or to the cloud
 * metadata service with their own network position.
 *
 * Before a resolve, the registry's host is resolved (node:dns `lookup`, every address, as the
 * client's own connection would) and each address is classified (reference.ts):
 *
 * - link-local or metadata anywhere in the answer: refused, always;
 * - loopback, private, unspecified or reserved: refused unless the operator named the registry
 *   in `insecureRegistries`, `allowedRegistries` or `privateRegistries`;
 * - a name that does not resolve (or not within `lookupTimeoutMs`): a transient failure, and
 *   no connection is attempted.
 *
 * Verdicts are cached per registry (`cacheTtlMs`, 30 s; lookup failures 5 s) and concurrent
 * checks of one registry share a lookup, so a warm sync costs no DNS query.
 *
 * Every other host the client is sent to — a redirect target, a token realm from
 * `WWW-Authenticate` — takes the same check (`hopCheck`): a registry on the allow-list cannot
 * bounce the hooks to an unlisted or internal address.
 *
 * Limits: the client connects with its own lookup afterwards, so a DNS server that answers a
 * public address to us and a private one a moment later (rebinding) is not caught. The
 * NetworkPolicy on the hooks' own egress is the second line for that.
 */
import { lookup as dnsLookup } from "node:dns/promises";
import { byteCache, dataBytes, registryLookupBytes, textBytes } from "../caches";
import { lruClock } from "../lru-clock";
import { isPlainObject } from "../json";
import {
  classifyAddress,
  hostnameOf,
  isDisallowed,
  isForbiddenHost,
  mayBeInternal,
  normalizeRegistryHost,
  type AddressClass,
  type HostPolicy,
  type RegistryRef,
} from "./reference";
import { fail, ok, REASON, type Result } from "./types";

/** Every address `hostname` resolves to. Rejects like node:dns (`err.code` ENOTFOUND, …). */
export type LookupAll = (hostname: string) => Promise<readonly { readonly address: string }[]>;

export const systemLookup: LookupAll = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export interface RegistryGuardOptions extends HostPolicy {
  /** @default node:dns lookup, all addresses */
  readonly lookup?: LookupAll;
  /** A lookup that takes longer fails the check (transient). @default 2000 */
  readonly lookupTimeoutMs?: number;
  /** How long a verdict is reused. @default 30_000 */
  readonly cacheTtlMs?: number;
  /** How long a failed lookup is remembered. @default 5000 */
  readonly failureTtlMs?: number;
  /** @default Date.now */
  readonly now?: () => number;
}

export interface RegistryGuard {
  /** Whether `ref`'s registry may be contacted; a failure says why, as the client would. */
  check(ref: RegistryRef): Promise<Result<void>>;
}

const NEVER: ReadonlySet<AddressClass> = new Set(["link-local", "metadata"]);
const INTERNAL: ReadonlySet<AddressClass> = new Set(["loopback", "private", "unspecified", "reserved"]);

const ARTICLE: { readonly [kind in AddressClass]: string } = {
  public: "a public",
  loopback: "a loopback",
  private: "a private",
  unspecified: "an unspecified",
  reserved: "a reserved",
  "link-local": "a link-local",
  metadata: "a cloud metadata",
};

/** The verdict for a set of addresses: the first never-allowed one, else the first internal one unless listed. */
function judge(ref: RegistryRef, addresses: readonly string[], policy: HostPolicy): Result<void> {
  const classes = addresses.map((address) => ({ address, kind: classifyAddress(address) ?? "reserved" }));
  const never = classes.find((c) => NEVER.has(c.kind));
  if (never !== undefined) {
    return fail(
      REASON.notAllowed,
      `registry "${ref.host}" resolves to ${never.address}, ${ARTICLE[never.kind]} address, and is never contacted`,
    );
  }
  const internal = classes.find((c) => INTERNAL.has(c.kind));
  if (internal !== undefined && !mayBeInternal(ref.host, policy)) {
    return fail(
      REASON.notAllowed,
      `registry "${ref.host}" resolves to ${internal.address}, ${ARTICLE[internal.kind]} address; the hooks contact internal registries only when their administrator lists them (PRIVATE_REGISTRIES)`,
    );
  }
  return ok(undefined);
}

function lookupFailure(ref: RegistryRef, err: unknown): Result<void> {
  const fields = isPlainObject(err) ? err : {};
  const detail =
    typeof fields.code === "string" ? fields.code : typeof fields.message === "string" ? fields.message : String(err);
  return fail(REASON.unavailable, `cannot resolve the registry host of "${ref.host}": ${detail}`, true);
}

/** `lookup(hostname)`, or a rejection with code ETIMEOUT after `timeoutMs`. */
async function lookupWithin(lookup: LookupAll, hostname: string, timeoutMs: number): ReturnType<LookupAll> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: "ETIMEOUT" })),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([lookup(hostname), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The verdicts that need no DNS: a bad host, a forbidden one, one off the allow-list, a literal address. */
function verdictWithoutLookup(ref: RegistryRef, policy: HostPolicy): Result<void> | undefined {
  const hostname = hostnameOf(ref.registry);
  if (hostname === undefined) return fail(REASON.invalidReference, `registry "${ref.host}" is not a valid host[:port]`);
  if (isForbiddenHost(ref.registry))
    return fail(REASON.notAllowed, `registry "${ref.host}" is a link-local or metadata address and is never contacted`);
  if (isDisallowed(ref.host, policy))
    return fail(REASON.notAllowed, `registry "${ref.host}" is not in the allowed registries of this service`);
  // A literal address needs no lookup (and `lookup` would return it unchanged).
  if (classifyAddress(hostname) !== undefined) return judge(ref, [hostname], policy);
  return undefined;
}

export function createRegistryGuard(options: RegistryGuardOptions = {}): RegistryGuard {
  const lookup = options.lookup ?? systemLookup;
  const timeoutMs = options.lookupTimeoutMs ?? 2000;
  const ttlMs = options.cacheTtlMs ?? 30_000;
  const failureTtlMs = options.failureTtlMs ?? 5000;
  const now = options.now ?? Date.now;
  const verdicts = byteCache<string, Result<void>>(registryLookupBytes(), {
    sizeOf: (verdict, key) => textBytes(key) + dataBytes(verdict),
    lru: lruClock(now),
  });
  const inflight = new Map<string, Promise<Result<void>>>();

  async function resolveAndJudge(ref: RegistryRef, hostname: string): Promise<Result<void>> {
    try {
      const answers = await lookupWithin(lookup, hostname, timeoutMs);
      if (answers.length === 0) return lookupFailure(ref, { code: "ENODATA" });
      const verdict = judge(
        ref,
        answers.map((a) => a.address),
        options,
      );
      verdicts?.set(ref.registry, verdict, { ttl: ttlMs });
      return verdict;
    } catch (err) {
      const verdict = lookupFailure(ref, err);
      verdicts?.set(ref.registry, verdict, { ttl: failureTtlMs });
      return verdict;
    }
  }

  return {
    check(ref) {
      const early = verdictWithoutLookup(ref, options) ?? verdicts?.get(ref.registry);
      if (early !== undefined) return Promise.resolve(early);
      const pending = inflight.get(ref.registry);
      if (pending !== undefined) return pending;
      const flight = resolveAndJudge(ref, hostnameOf(ref.registry) ?? ref.registry).finally(() =>
        inflight.delete(ref.registry),
      );
      inflight.set(ref.registry, flight);
      return flight;
    },
  };
}

/** The guard's check for a host the registry sent us to (a redirect target, a token realm), by its host[:port]. */
export function hopCheck(guard: RegistryGuard): (url: URL) => Promise<Result<void>> {
  return (url) =>
    guard.check({ registry: url.host, host: normalizeRegistryHost(url.host), repository: "", reference: "" });
}

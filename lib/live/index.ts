/**
 * Live status: what the running server says about itself, asked over the Service and cached
 * per parent. A sync never waits for a slow server past `timeoutMs`; one answer per parent is
 * reused until the resync period has passed or the pods that answer change (`fingerprint`);
 * a failed check is retried sooner. Concurrent syncs of one parent share one check.
 */
import { byteCache, cacheBytes, dataBytes, textBytes } from "../caches";
import { messageOf } from "../errors";
import { lruClock } from "../lru-clock";
import { readServerInfo } from "./server-info";
import type { LiveReport, LiveStatus, LiveTarget } from "./types";
import { seconds } from "./http-json";

/** What a rejection says (readServerInfo does not reject: this is the backstop). */

export type { LiveReport, LiveStatus, LiveTarget, ProviderInfo } from "./types";
export { readServerInfo, PROVIDERS_PATH, VERSION_PATH } from "./server-info";

export interface LiveStatusOptions {
  /** Per request (both are asked at once). @default 1500 */
  readonly timeoutMs?: number;
  /** How long an answer is reused: the CompositeController's resync period. @default 300 000 */
  readonly ttlMs?: number;
  /** How long a failed check is reused before the server is asked again. @default 30 000 */
  readonly failureTtlMs?: number;
  /**
   * Bytes of answers remembered (least recently checked parent forgotten first).
   * @default the "live status" share of the cache budget (lib/caches.ts)
   */
  readonly cacheBytes?: number;
  /** Largest answer read. @default 4 MiB */
  readonly maxBytes?: number;
  /** Where to ask instead of the Service DNS name (tests, local runs). @default target.url */
  readonly baseUrl?: (target: LiveTarget) => string;
  readonly now?: () => number;
}

export const LIVE_DEFAULTS = {
  timeoutMs: 1500,
  ttlMs: 300_000,
  failureTtlMs: 30_000,
  maxBytes: 4 * 1024 * 1024,
} as const;

/** A parent's report (kept for its TTL), for the pods it was asked of. */
interface Entry {
  readonly fingerprint: string;
  readonly report: LiveReport;
}

/** A check in flight, shared by every caller until it settles. */
interface Flight {
  readonly fingerprint: string;
  readonly pending: Promise<LiveReport>;
}

export function createLiveStatus(options: LiveStatusOptions = {}): LiveStatus {
  const settings = { ...LIVE_DEFAULTS, ...options };
  const now = options.now ?? Date.now;
  const baseUrl = options.baseUrl ?? ((target: LiveTarget) => target.url);
  const entries = byteCache<string, Entry>(options.cacheBytes ?? cacheBytes("live status"), {
    sizeOf: (entry, key) => textBytes(key) + textBytes(entry.fingerprint) + dataBytes(entry.report),
    lru: lruClock(now),
  });
  // Each entry is removed when its check settles: never more than the checks in flight.
  const inflight = new Map<string, Flight>();

  /** Both requests run at once under their own timeout; this is the backstop for the pair. */
  async function ask(target: LiveTarget): Promise<LiveReport> {
    const url = baseUrl(target);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<LiveReport>((resolve) => {
      timer = setTimeout(
        () => resolve({ url, problems: [`no answer within ${seconds(settings.timeoutMs)}`] }),
        settings.timeoutMs + 250,
      );
    });
    const answer = readServerInfo(url, { timeoutMs: settings.timeoutMs, maxBytes: settings.maxBytes }).catch(
      (error: unknown): LiveReport => ({ url, problems: [`the check failed (${messageOf(error)})`] }),
    );
    try {
      return await Promise.race([answer, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    check(target: LiveTarget): Promise<LiveReport> {
      const { key, fingerprint } = target;
      const flight = inflight.get(key);
      if (flight?.fingerprint === fingerprint) return flight.pending;
      const entry = entries?.get(key);
      if (entry?.fingerprint === fingerprint) return Promise.resolve(entry.report);
      const pending = ask(target).then((report) => {
        // A newer check for the same parent (its pods changed meanwhile) keeps its own place.
        if (inflight.get(key)?.pending !== pending) return report;
        inflight.delete(key);
        const ttl = report.problems.length === 0 ? settings.ttlMs : settings.failureTtlMs;
        entries?.set(key, { fingerprint, report }, { ttl });
        return report;
      });
      inflight.set(key, { fingerprint, pending });
      return pending;
    },
  };
}

/**
 * `llsd_parent_last_seen_timestamp_seconds{namespace, name, phase}`: when this replica last saw
 * each LLSD, and in which phase — the `status.phase` the parent carried in its /sync request
 * (the phase the previous sync wrote; Metacontroller syncs again as soon as it is written).
 *
 * Bounded: one series per parent (its latest phase only), dropped when the parent has not been
 * seen for `ttlMs` (three resync periods: a deleted parent stops being synced), and at most
 * `cacheBytes` of them (the "parent phases" share of the cache budget, lib/caches.ts), least
 * recently seen dropped first.
 *
 * Correct across replicas: Metacontroller sends each call to any replica, so each replica knows
 * a phase per parent that may be stale. The value is a timestamp, so the rule keeps, per parent,
 * the phase with the newest timestamp across replicas (metacontroller/components/monitoring).
 */
import { Gauge, type Registry } from "prom-client";
import type { KubeObject } from "../lib/wire/metacontroller";
import { own } from "../lib/json";
import { byteCache, cacheBytes, textBytes } from "../lib/caches";

export const PARENT_SEEN_METRIC = "llsd_parent_last_seen_timestamp_seconds";
const PHASES = new Set(["Pending", "Initializing", "Ready", "Failed"]);

interface Seen {
  readonly namespace: string;
  readonly name: string;
  readonly phase: string;
  readonly at: number;
}

/** What a parent's entry holds: its uid and the strings of its series, and the time. */
export function seenBytes(seen: Seen, uid: string): number {
  return textBytes(uid) + textBytes(seen.namespace) + textBytes(seen.name) + textBytes(seen.phase) + 8;
}

export interface ParentPhases {
  record(parent: KubeObject): void;
}

export function trackParentPhases(
  registry: Registry,
  options: { ttlMs?: number; cacheBytes?: number; now?: () => number } = {},
): ParentPhases {
  const ttlMs = options.ttlMs ?? 15 * 60_000;
  const now = options.now ?? Date.now;
  const seen = byteCache<string, Seen>(options.cacheBytes ?? cacheBytes("parent phases"), { sizeOf: seenBytes });
  new Gauge({
    name: PARENT_SEEN_METRIC,
    help: "Unix time this replica last saw each LLSD in /sync, labelled with the phase it had; per parent, the newest across replicas is current.",
    labelNames: ["namespace", "name", "phase"] as const,
    registers: [registry],
    collect() {
      this.reset();
      const oldest = now() - ttlMs;
      // Least recently seen first, as the series were first written; a copy, as stale ones are deleted.
      for (const uid of seen ? [...seen.rkeys()] : []) {
        const s = seen?.peek(uid);
        if (s === undefined) continue;
        if (s.at < oldest) seen?.delete(uid);
        else this.set({ namespace: s.namespace, name: s.name, phase: s.phase }, Math.floor(s.at / 1000));
      }
    },
  });
  return {
    record(parent) {
      const { uid, namespace = "default", name } = parent.metadata ?? {};
      if (typeof uid !== "string" || typeof name !== "string") return;
      const written = own(parent.status, "phase");
      const phase = typeof written === "string" && PHASES.has(written) ? written : "Pending";
      seen?.set(uid, { namespace, name, phase, at: now() });
    },
  };
}

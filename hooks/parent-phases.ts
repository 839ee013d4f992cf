/**
 * `llsd_parent_last_seen_timestamp_seconds{namespace, name, phase}`: when this replica last saw
 * each LLSD, and in which phase — the `status.phase` the parent carried in its /sync request
 * (the phase the previous sync wrote; Metacontroller syncs again as soon as it is written).
 *
 * Bounded: one series per parent (its latest phase only), dropped when the parent has not been
 * seen for `ttlMs` (three resync periods: a deleted parent stops being synced), and at most
 * `maxParents`, least recently seen dropped first.
 *
 * Correct across replicas: Metacontroller sends each call to any replica, so each replica knows
 * a phase per parent that may be stale. The value is a timestamp, so the rule keeps, per parent,
 * the phase with the newest timestamp across replicas (metacontroller/components/monitoring).
 */
import { Gauge, type Registry } from "prom-client";
import type { KubeObject } from "../lib/wire/metacontroller";
import { own } from "../lib/conversion/paths";

export const PARENT_SEEN_METRIC = "llsd_parent_last_seen_timestamp_seconds";
const PHASES = new Set(["Pending", "Initializing", "Ready", "Failed"]);

interface Seen {
  readonly namespace: string;
  readonly name: string;
  readonly phase: string;
  readonly at: number;
}

export interface ParentPhases {
  record(parent: KubeObject): void;
}

export function trackParentPhases(
  registry: Registry,
  options: { ttlMs?: number; maxParents?: number; now?: () => number } = {},
): ParentPhases {
  const ttlMs = options.ttlMs ?? 15 * 60_000;
  const maxParents = options.maxParents ?? 10_000;
  const now = options.now ?? Date.now;
  const seen = new Map<string, Seen>();
  new Gauge({
    name: PARENT_SEEN_METRIC,
    help: "Unix time this replica last saw each LLSD in /sync, labelled with the phase it had; per parent, the newest across replicas is current.",
    labelNames: ["namespace", "name", "phase"] as const,
    registers: [registry],
    collect() {
      this.reset();
      const oldest = now() - ttlMs;
      for (const [uid, s] of seen) {
        if (s.at < oldest) seen.delete(uid);
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
      seen.delete(uid); // re-inserted last: Map order is least recently seen first
      seen.set(uid, { namespace, name, phase, at: now() });
      const oldest = seen.keys().next();
      if (seen.size > maxParents && !oldest.done) seen.delete(oldest.value);
    },
  };
}

/**
 * The unchanged-parent memo. Metacontroller calls /sync for every parent on every resync and
 * on every child event, and most calls find nothing changed. The apiserver gives every write a
 * new `resourceVersion`, so a parent whose own object, children and related objects carry the
 * same `objectKey` as last time (lib/caches.ts; related objects with their content's fingerprint)
 * — with the same distribution table and the same registry and server answers — gets last
 * time's answer again, byte for byte, without validating, generating or serializing anything.
 *
 * Exact, not approximate: an answer that read the clock (a condition flipped, a new ConfigMap,
 * a new server version) is not kept, since its timestamp would be reused; a request with an
 * object lacking uid or resourceVersion (curl, `llsd request`) is never memoized. Bounded: one
 * entry per parent, least recently used dropped past `maxBytes` (the "sync memo" share of the
 * cache budget, lib/caches.ts: each entry's size computed from what it holds), unused ones after
 * `idleMs` (a TTL renewed on every read; expired entries are swept at most once a minute).
 */
import { byteCache, dataBytes, fingerprint, frozenBytes, hasObjectKey, objectKey, textBytes } from "../caches";
import { lruClock } from "../lru-clock";
import type { ValidationResult } from "../api/validate";
import type { Generated } from "../config/generate";
import type { LiveReport } from "../live/types";
import type { ObjectMap, SyncRequest } from "../wire/metacontroller";
import type { BaseOutcome } from "./base-source";
import type { GenerationInputs } from "./plan-types";
import type { SyncDeps } from "./sync";
import { runsAlready } from "../status/observed";

export interface MemoOptions {
  /** Answers and validated specs kept, in bytes. 0 keeps nothing. */
  readonly maxBytes: number;
  /** Generated configs kept (lib/sync/config-memory.ts), in bytes. @default 0: none */
  readonly configBytes?: number;
  /** An entry not used for this long is dropped (a deleted parent's answer does not linger). */
  readonly idleMs: number;
  readonly now: () => number;
}

/** Idle for three resync periods. */
export const MEMO_DEFAULTS = Object.freeze({ idleMs: 15 * 60_000 });

export interface MemoAnswer {
  /** Everything besides the parent the answer depends on (observedKey + ioKey). */
  readonly key: string;
  /**
   * The answer as sent: UTF-8 bytes, outside the JS heap. A string from JSON.stringify holds
   * about twice its length on the heap (measured: 38 KB for a 20 KB answer).
   */
  readonly body: Buffer;
  readonly children: number;
}

export interface MemoEntry {
  /** The parent's version and the deps the spec was validated against (parentKey). */
  readonly parentKey: string;
  /** Kept once the parent is seen at this version a second time (lib/sync/with-io.ts `keptSpec`). */
  readonly checked?: ValidationResult;
  readonly answer?: MemoAnswer;
}

/** A generated config with everything it was generated from: reused only while all of it is the same. */
export interface MemoConfig extends GenerationInputs {
  /** The parent's spec as sent, JSON text. */
  readonly spec: string;
  /** Frozen: shared with every sync that reuses it. */
  readonly generated: Generated;
}

export interface SyncMemo {
  /** The parent's entry (marked used), or undefined. */
  get(uid: string): MemoEntry | undefined;
  set(uid: string, entry: MemoEntry): void;
  readonly stats: () => { readonly entries: number; readonly bytes: number };
  /** The config last generated for the parent, whatever its version (lib/sync/config-memory.ts). */
  config(uid: string): MemoConfig | undefined;
  keepConfig(uid: string, config: MemoConfig): void;
  readonly configStats: () => { readonly entries: number; readonly bytes: number };
}

/** What an entry holds: its keys, the validated spec (frozen, shared with later syncs) and the answer's bytes. */
const sizeOf = (entry: MemoEntry, uid: string): number =>
  textBytes(uid) +
  textBytes(entry.parentKey) +
  (entry.checked ? frozenBytes(entry.checked) : 0) +
  (entry.answer ? textBytes(entry.answer.key) + 96 + entry.answer.body.length : 0);

/**
 * The result's data as it is: unlike a kept spec or base config (`frozenBytes`), nothing keeps
 * facts beside its parts (env references, emitted YAML); config.yaml is one string.
 */
const configBytes = ({ spec, base, name, generated }: MemoConfig, uid: string): number =>
  textBytes(uid) + textBytes(spec) + textBytes(base) + textBytes(name) + dataBytes(generated);

/** Expired entries are swept on a write at most this often: a sweep walks every entry. */
const SWEEP_EVERY_MS = 60_000;

export function createSyncMemo(options: MemoOptions): SyncMemo {
  const lru = { ttl: options.idleMs, updateAgeOnGet: true, ...lruClock(options.now) };
  // An entry above a small part of maxBytes (a huge spec) is not kept: lib/caches.ts.
  const entries = byteCache<string, MemoEntry>(options.maxBytes, { sizeOf, lru });
  // Their own cache: a parent's answer stays kept under a small budget even when its config does not fit.
  const configs = byteCache<string, MemoConfig>(options.configBytes ?? 0, { sizeOf: configBytes, lru });
  let swept = options.now();
  // A deleted parent's answer and config do not linger past idleMs plus a sweep period.
  const sweep = (): void => {
    if (options.now() - swept < SWEEP_EVERY_MS) return;
    swept = options.now();
    entries?.purgeStale();
    configs?.purgeStale();
  };
  return {
    get: (uid) => entries?.get(uid),
    config: (uid) => configs?.get(uid),
    keepConfig(uid, config) {
      sweep();
      configs?.set(uid, config);
    },
    configStats: () => ({ entries: configs?.size ?? 0, bytes: configs?.calculatedSize ?? 0 }),
    set(uid, entry) {
      sweep();
      entries?.set(uid, entry);
    },
    stats: () => ({ entries: entries?.size ?? 0, bytes: entries?.calculatedSize ?? 0 }),
  };
}

/** Tables are replaced, never edited (lib/sync/image-overrides.ts): identity tells them apart. */
const tableIds = new WeakMap<object, number>();
let nextTableId = 0;
function tableId(table: object): number {
  let id = tableIds.get(table);
  if (id === undefined) tableIds.set(table, (id = ++nextTableId));
  return id;
}

/** The parent's version with every dep its validation and answer read; undefined: not memoizable. */
export function parentKey(request: SyncRequest, deps: SyncDeps): string | undefined {
  const version = objectKey(request.parent);
  if (version === undefined) return undefined;
  const problems = (deps.imageOverrideProblems ?? []).join("\n");
  const m = deps.serverMonitoring;
  const monitoring = m ? `${m.serviceMonitors}|${m.scraperNamespace}` : "";
  const gateway = deps.gatewayParent ? JSON.stringify(deps.gatewayParent) : "";
  // Whether a Deployment runs decides the spec's verdict too (checkedSpec): a checked spec is kept per that.
  return `${version}\n${runsAlready(request) ? "running" : "new"}|${tableId(deps.distributions)}|${deps.hooksNamespace}|${deps.exposeWith}|${gateway}|${deps.operatorVersion ?? ""}|${monitoring}|${problems}`;
}

function mapKey(map: ObjectMap | undefined, parts: string[]): boolean {
  for (const [group, objects] of Object.entries(map ?? {})) {
    parts.push(JSON.stringify(group));
    for (const [key, object] of Object.entries(objects)) {
      const version = objectKey(object);
      if (version === undefined) return false;
      parts.push(`${JSON.stringify(key)}=${version}`);
    }
  }
  return true;
}

/** Whether every observed child and related object has a uid and resourceVersion: only then is an answer kept. */
export function observedVersioned(request: SyncRequest): boolean {
  const versioned = (map: ObjectMap | undefined): boolean =>
    Object.values(map ?? {}).every((objects) => Object.values(objects).every(hasObjectKey));
  return versioned(request.children) && versioned(request.related);
}

/**
 * Every observed child and related object by its key, name and version, and the related
 * objects' content by one fingerprint (lib/caches.ts: they are small, about 1 KB a call in the
 * recorded traffic); undefined when one has no version. Built only when an answer can be
 * compared or kept (lib/sync/with-io.ts): most answers read the clock and are not kept.
 */
export function observedKey(request: SyncRequest): string | undefined {
  const parts = [request.finalizing === true ? "finalizing" : "live", "children"];
  if (!mapKey(request.children, parts)) return undefined;
  parts.push("related");
  return mapKey(request.related, parts) ? `${parts.join("\n")}\n${fingerprint(request.related ?? null)}` : undefined;
}

/** What the I/O step found: a base config by its digest, not its text; the server's answer by its fingerprint (it may report a Secret value). */
export function ioKey(found: BaseOutcome, live: LiveReport | undefined): string {
  const base = found.base ? { ...found.base, text: undefined } : undefined;
  return JSON.stringify([{ ...found, base }, live ? fingerprint(live) : null]);
}

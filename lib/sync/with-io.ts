/**
 * The sync hook around the pure `sync()`: validation, then the I/O (registry, running server)
 * concurrently and bounded, then `sync()` — directly (`syncWith`) or through the
 * unchanged-parent memo (`syncRemembered`, lib/sync/memo.ts). The observed children are parsed
 * once, here, and passed to every step that reads them.
 */
import type { ValidationResult } from "../api/validate";
import { deepFreeze } from "../json-copy";
import type { LiveReport, LiveStatus } from "../live";
import type { BaseConfigResolver } from "../oci";
import { SerializedAnswer, type SyncRequest, type SyncResponse } from "../wire/metacontroller";
import { findBase, namespaceCredentials, type BaseOutcome } from "./base-source";
import { findExternal, type ExternalLookup } from "./external-providers";
import { liveTargetOf } from "./live-target";
import { configMemory } from "./config-memory";
import { ioKey, observedKey, observedVersioned, parentKey, type MemoEntry, type SyncMemo } from "./memo";
import { observedOf, type Observed } from "../status/observed";
import { checkedSpec, syncWithInputs, type SyncDeps } from "./sync";
import { targetOfRequest } from "./target";

/** What the I/O before the pure sync found. */
interface Gathered {
  readonly found: BaseOutcome;
  readonly live?: LiveReport;
}

/** Who the I/O asks: the registry (absent: bundled base configs only) and the running servers (absent: not asked). */
export interface SyncIo {
  readonly resolver?: BaseConfigResolver | undefined;
  readonly live?: LiveStatus | undefined;
}

/** One sync's request, what it was checked as and what was observed, with who the I/O asks. */
interface Gathering extends SyncIo {
  readonly request: SyncRequest;
  readonly deps: SyncDeps;
  readonly checked: ValidationResult;
  readonly observed: Observed;
}

function baseConfig(g: Gathering, valid: ValidationResult["spec"]): Promise<BaseOutcome | undefined> {
  if (!g.resolver || !valid) return Promise.resolve(undefined);
  const target = targetOfRequest(g.request, valid, g.deps.distributions, g.observed);
  return findBase(valid, target, g.resolver, g.request.related);
}

function serverAnswer(g: Gathering): Promise<LiveReport | undefined> {
  const target = g.live ? liveTargetOf(g.request, g.observed) : undefined;
  return g.live && target ? g.live.check(target) : Promise.resolve(undefined);
}

/**
 * The I/O before the pure sync, concurrently: the base config from the image (when the spec
 * generates one), external providers' metadata, and the running server's answer (when a pod is
 * ready). None can fail the sync; each is bounded (registry 4 s, server `timeoutMs`).
 */
async function gather(g: Gathering): Promise<Gathered> {
  const valid = g.checked.spec && g.checked.errors.length === 0 ? g.checked.spec : undefined;
  const external: Promise<ExternalLookup | undefined> = valid
    ? findExternal(valid, g.resolver, () => namespaceCredentials(g.request.related))
    : Promise.resolve(undefined);
  const [found, answer, providers] = await Promise.all([baseConfig(g, valid), serverAnswer(g), external]);
  return {
    found: { ...(found ?? { notes: [] }), ...(providers ? { external: providers } : {}) },
    ...(answer ? { live: answer } : {}),
  };
}

/** Validation, the I/O, then the pure `sync()`. */
export async function syncWith(
  request: SyncRequest,
  deps: SyncDeps,
  resolver: BaseConfigResolver | undefined,
  live?: LiveStatus,
): Promise<SyncResponse> {
  const checked = checkedSpec(request, deps);
  const observed = observedOf(request);
  const io = await gather({ request, deps, checked, observed, resolver, live });
  return syncWithInputs(request, deps, { ...io, checked, observed });
}

/** The memo's entry for this parent when its parent key still matches. */
function knownEntry(memo: SyncMemo, uid: string, parent: string | undefined): MemoEntry | undefined {
  const entry = parent === undefined ? undefined : memo.get(uid);
  return entry?.parentKey === parent ? entry : undefined;
}

/** Where an answer is remembered: the parent's entry, under the keys it was computed for. */
interface Remembering {
  readonly memo: SyncMemo;
  readonly uid: string;
  /** parentKey, for a request whose objects all have a version; undefined: not memoizable. */
  readonly parent: string | undefined;
  /** observedKey + ioKey, built on first use. */
  readonly key: () => string | undefined;
}

/**
 * The validated spec to keep in the parent's entry: only once the parent is seen at the same
 * version a second time. Most versions are seen once (each status write makes a new one), and
 * keeping a spec costs a freeze and a sizing walk, and old-space garbage when the next version
 * replaces it; a parent that comes back unchanged is validated once more and then kept.
 */
function keptSpec(seenBefore: boolean, checked: ValidationResult): { readonly checked?: ValidationResult } {
  if (!seenBefore) return {};
  deepFreeze(checked); // shared from now on: a step that edits it throws instead of corrupting the next answer
  return { checked };
}

/** The pure sync, remembered: the answer unless it read the clock (its timestamps would be reused). */
function syncAndRemember(
  request: SyncRequest,
  deps: SyncDeps,
  inputs: Gathered & { readonly checked: ValidationResult; readonly observed: Observed },
  r: Remembering & { readonly seenBefore: boolean },
): SerializedAnswer {
  let clockRead = false;
  const clocked: SyncDeps = { ...deps, now: () => ((clockRead = true), deps.now()) };
  // Like answers, a parent without uid and resourceVersion (`llsd request`, curl) keeps no config.
  const previous = r.parent === undefined ? undefined : r.memo.config(r.uid);
  const memory = configMemory(request.parent, previous);
  const response = syncWithInputs(request, clocked, {
    ...inputs,
    ...(memory.remember ? { remember: memory.remember } : {}),
  });
  const body = Buffer.from(JSON.stringify(response), "utf8");
  const config = r.parent === undefined ? undefined : memory.kept();
  if (config && config !== previous) r.memo.keepConfig(r.uid, config);
  if (r.parent !== undefined) {
    // An answer that read the clock is not kept, and needs no key.
    const key = clockRead ? undefined : r.key();
    r.memo.set(r.uid, {
      parentKey: r.parent,
      ...keptSpec(r.seenBefore, inputs.checked),
      ...(key === undefined ? {} : { answer: { key, body, children: response.children.length } }),
    });
  }
  return new SerializedAnswer(body, { children: response.children.length, reused: 0 });
}

/** Who the I/O asks, and the memo answers are remembered in. */
export interface RememberedIo extends SyncIo {
  readonly memo: SyncMemo;
}

/**
 * `syncWith` through the unchanged-parent memo (lib/sync/memo.ts), answered serialized. An
 * unchanged parent skips validation; an unchanged parent with unchanged children, related
 * objects and I/O answers skips everything else too. The I/O itself always runs: a tag that
 * moved or a server that stopped answering changes the key.
 */
export async function syncRemembered(
  request: SyncRequest,
  deps: SyncDeps,
  io: RememberedIo,
): Promise<SerializedAnswer> {
  const key = parentKey(request, deps);
  // A request with an object lacking uid or resourceVersion is neither looked up nor kept.
  const parent = key !== undefined && observedVersioned(request) ? key : undefined;
  const uid = request.parent.metadata.uid ?? "";
  const known = knownEntry(io.memo, uid, parent);
  const checked = known?.checked ?? checkedSpec(request, deps);
  const observed = observedOf(request);
  const found = await gather({ request, deps, checked, observed, resolver: io.resolver, live: io.live });
  const answerKey = answerKeyOf(request, found);
  if (known?.answer && known.answer.key === answerKey()) {
    if (!known.checked) io.memo.set(uid, { ...known, ...keptSpec(true, checked) });
    return new SerializedAnswer(known.answer.body, { children: known.answer.children, reused: 1 });
  }
  const remembering = { memo: io.memo, uid, parent, key: answerKey, seenBefore: known !== undefined };
  return syncAndRemember(request, deps, { ...found, checked, observed }, remembering);
}

/**
 * The answer's key (observedKey + ioKey), built once and only when asked: to compare with a
 * kept answer, or to keep one that did not read the clock. Most answers read it, and the key
 * (a fingerprint of the related objects among it) would be built for nothing.
 */
function answerKeyOf(request: SyncRequest, found: Gathered): () => string | undefined {
  let built: { readonly key: string | undefined } | undefined;
  return () => {
    if (built) return built.key;
    const observedText = observedKey(request);
    built = { key: observedText === undefined ? undefined : `${observedText}\n${ioKey(found.found, found.live)}` };
    return built.key;
  };
}

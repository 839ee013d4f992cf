/**
 * The sync hook around the pure `sync()`: validation, then the I/O (registry, running server)
 * concurrently and bounded, then `sync()` — directly (`syncWith`) or through the
 * unchanged-parent memo (`syncRemembered`, lib/sync/memo.ts).
 */
import type { ValidationResult } from "../api/validate";
import { deepFreeze } from "../json-copy";
import type { LiveReport, LiveStatus } from "../live";
import type { BaseConfigResolver } from "../oci";
import { SerializedAnswer, type SyncRequest, type SyncResponse } from "../wire/metacontroller";
import { findBase, namespaceCredentials, type BaseOutcome } from "./base-source";
import { findExternal, type ExternalLookup } from "./external-providers";
import { liveTargetOf } from "./live-target";
import { ioKey, observedKey, parentKey, type SyncMemo } from "./memo";
import { checkedSpec, sync, type SyncDeps } from "./sync";
import { targetOfRequest } from "./target";

/** What the I/O before the pure sync found. */
interface Gathered {
  readonly found: BaseOutcome;
  readonly live?: LiveReport;
}

/**
 * The I/O before the pure sync, concurrently: the base config from the image (when the spec
 * generates one), external providers' metadata, and the running server's answer (when a pod is
 * ready). None can fail the sync; each is bounded (registry 4 s, server `timeoutMs`).
 */
async function gather(
  request: SyncRequest,
  deps: SyncDeps,
  resolver: BaseConfigResolver | undefined,
  live: LiveStatus | undefined,
  checked: ValidationResult,
): Promise<Gathered> {
  const valid = checked.spec && checked.errors.length === 0 ? checked.spec : undefined;
  const base: Promise<BaseOutcome | undefined> =
    resolver && valid
      ? findBase(valid, targetOfRequest(request, valid, deps.distributions), resolver, request.related)
      : Promise.resolve(undefined);
  const target = live ? liveTargetOf(request) : undefined;
  const report: Promise<LiveReport | undefined> = live && target ? live.check(target) : Promise.resolve(undefined);
  const external: Promise<ExternalLookup | undefined> = valid
    ? findExternal(valid, resolver, namespaceCredentials(request.related))
    : Promise.resolve(undefined);
  const [found, answer, providers] = await Promise.all([base, report, external]);
  return {
    found: { ...(found ?? { notes: [] }), ...(providers ? { external: providers } : {}) },
    ...(answer ? { live: answer } : {}),
  };
}

/** The spec in v1alpha2 (a v1alpha1 parent is converted, as sync() converts it), checked as every path checks it. */
const validated = checkedSpec;

/** Validation, the I/O, then the pure `sync()`. */
export async function syncWith(
  request: SyncRequest,
  deps: SyncDeps,
  resolver: BaseConfigResolver | undefined,
  live?: LiveStatus,
): Promise<SyncResponse> {
  const checked = validated(request, deps);
  const io = await gather(request, deps, resolver, live, checked);
  return sync(request, deps, io.found, io.live, checked);
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
  resolver: BaseConfigResolver | undefined,
  live: LiveStatus | undefined,
  memo: SyncMemo,
): Promise<SerializedAnswer> {
  const parent = parentKey(request, deps);
  const observed = parent === undefined ? undefined : observedKey(request);
  const uid = request.parent.metadata.uid ?? "";
  const entry = observed === undefined ? undefined : memo.get(uid);
  const known = entry?.parentKey === parent ? entry : undefined;
  const checked = known?.checked ?? validated(request, deps);
  const io = await gather(request, deps, resolver, live, checked);
  const key = observed === undefined ? undefined : `${observed}\n${ioKey(io.found, io.live)}`;
  if (known?.answer && known.answer.key === key)
    return new SerializedAnswer(known.answer.body, { children: known.answer.children, reused: 1 });
  let clockRead = false;
  const clocked: SyncDeps = { ...deps, now: () => ((clockRead = true), deps.now()) };
  const response = sync(request, clocked, io.found, io.live, checked);
  const body = Buffer.from(JSON.stringify(response), "utf8");
  if (parent !== undefined && key !== undefined) {
    deepFreeze(checked); // shared from now on: a step that edits it throws instead of corrupting the next answer
    memo.set(uid, {
      parentKey: parent,
      checked,
      ...(clockRead ? {} : { answer: { key, body, children: response.children.length } }),
    });
  }
  return new SerializedAnswer(body, { children: response.children.length, reused: 0 });
}

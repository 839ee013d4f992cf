/**
 * `disabled` removes APIs from `apis` and `providers`, then everything that pointed at the
 * removed providers (docs/spec-reference.md). Disabling what an enabled API needs is an error.
 */
import { fieldError, type FieldError } from "../errors";
import type { DisabledApi } from "../api/canonical";
import type { Release } from "../distributions/table";
import { effectiveId, type ConfigDoc } from "./doc";
import { isPlainObject, type JsonMap } from "../json";
import { API_DEPENDENCIES, PROVIDER_DEPENDENCIES, RELEASE_APIS, RENAMED_APIS } from "../distributions/releases";
import { typeFields } from "./provider-fields";
import { providerIdSet } from "./resources";

export interface DisabledOutcome {
  readonly notes: string[];
  readonly errors: FieldError[];
}

/** Why `other` needs `api`: the API itself, or one of its providers; undefined when it does not. */
function needs(doc: ConfigDoc, other: string, api: string, release: Release): string | undefined {
  // The release's registry says what each provider type needs (eval and scoring need datasetio on 0.7).
  const typeNeeds = (type: string): readonly string[] => [
    ...(PROVIDER_DEPENDENCIES[type] ?? []),
    ...(typeFields(release, other, type)?.needs ?? []),
  ];
  if ((API_DEPENDENCIES[other] ?? []).includes(api)) return `the ${other} API`;
  const provider = (doc.providers[other] ?? []).find((p) => typeNeeds(p.provider_type).includes(api));
  return provider && `the ${other} provider ${effectiveId(provider.provider_id)} (${provider.provider_type})`;
}

/**
 * Why `api` cannot go while `remaining` stay (the first dependent found), and every remaining API
 * that would have to go with it, through dependents of dependents: the whole set in one message.
 */
function dependents(doc: ConfigDoc, api: string, remaining: readonly string[], release: Release) {
  const all: string[] = [];
  let first: string | undefined;
  const queue = [api];
  for (let next = queue.shift(); next !== undefined; next = queue.shift())
    for (const other of remaining.filter((o) => !all.includes(o))) {
      const by = needs(doc, other, next, release);
      if (by === undefined) continue;
      first ??= by;
      all.push(other);
      queue.push(other);
    }
  return first === undefined ? undefined : { first, all: all.sort() };
}

/** The default shield goes with the shield it names. */
function pruneSafety(doc: ConfigDoc, shields: readonly JsonMap[]): void {
  const shieldIds = new Set(shields.map((s) => s.shield_id));
  if (
    isPlainObject(doc.safety) &&
    doc.safety.default_shield_id !== undefined &&
    !shieldIds.has(doc.safety.default_shield_id)
  )
    delete doc.safety;
}

/** No vector_io left: no vector_stores; otherwise the default models go with their providers. */
function pruneVectorStores(doc: ConfigDoc, exists: (providerId: unknown) => boolean): void {
  if (!isPlainObject(doc.vector_stores)) return;
  if (!(doc.providers.vector_io ?? []).length) {
    delete doc.vector_stores;
    return;
  }
  dropDefaultModels(doc, (providerId) => !exists(providerId));
}

/** The default embedding and reranker models on providers that are `gone` leave `vector_stores`. */
export function dropDefaultModels(doc: ConfigDoc, gone: (providerId: unknown) => boolean): void {
  const vs = doc.vector_stores;
  if (!isPlainObject(vs)) return;
  const models = ["default_embedding_model", "default_reranker_model"].filter((key) => {
    const ref = vs[key];
    return isPlainObject(ref) && gone(ref.provider_id);
  });
  if (models.length === 0) return; // unchanged: the base's (frozen) map stays, for the YAML memo
  const kept: JsonMap = { ...vs };
  for (const key of models) delete kept[key];
  doc.vector_stores = kept;
}

/** `list` without what `keep` refuses; the same list when nothing goes (a base's frozen list stays shared). */
function kept<T>(list: T[], keep: (item: T) => boolean): T[] {
  return list.every(keep) ? list : list.filter(keep);
}

function pruneResources(doc: ConfigDoc): void {
  const rr = doc.registered_resources;
  if (!rr) return;
  const inferenceLeft = (doc.providers.inference ?? []).length > 0;
  // The providers do not change while pruning: their ids are collected once.
  const ids = providerIdSet(doc);
  const exists = (providerId: unknown): boolean => ids.has(effectiveId(providerId));
  const keep = (e: JsonMap): boolean => (e.provider_id === "all" ? inferenceLeft : exists(e.provider_id));
  for (const kind of Object.keys(rr)) rr[kind] = kept(rr[kind] ?? [], keep);
  pruneSafety(doc, rr.shields ?? []);
  pruneVectorStores(doc, exists);
}

export function applyDisabled(doc: ConfigDoc, disabled: readonly DisabledApi[], release: Release): DisabledOutcome {
  const out: DisabledOutcome = { notes: [], errors: [] };
  if (disabled.length === 0) {
    pruneResources(doc); // what still names a provider the config lacks goes, disabled or not
    return out;
  }
  const present = new Set([...(doc.apis ?? []), ...Object.keys(doc.providers)]);
  const targets = disabled.filter((d) => {
    if (!RELEASE_APIS[release].includes(d.api) && d.api !== "telemetry") {
      const renamed = RENAMED_APIS[d.api];
      out.notes.push(
        `${d.path}: ${release}.x servers have no "${d.written}" API${renamed ? ` (it is now "${renamed}")` : ""}; nothing to disable`,
      );
      return false;
    }
    if (!present.has(d.api)) out.notes.push(`${d.path}: the base config has no ${d.api} API; nothing to disable`);
    return present.has(d.api);
  });
  const removed = new Set(targets.map((d) => d.api));
  const remaining = [...present].filter((api) => !removed.has(api));
  for (const d of targets) {
    const by = dependents(doc, d.api, remaining, release);
    if (by)
      out.errors.push(
        fieldError(
          d.path,
          `cannot disable ${d.api}: ${by.first} needs it; disable ${by.all.join(", ")} too (each needs ${d.api} or another of them), or keep ${d.api}`,
        ),
      );
  }
  if (out.errors.length > 0) return out;
  if (doc.apis) doc.apis = doc.apis.filter((a) => !removed.has(a));
  for (const api of removed) delete doc.providers[api];
  pruneResources(doc);
  return out;
}

/**
 * Spec provider entries overlaid on the base config by provider id (same id replaced in place,
 * others kept, new ones appended: docs/spec-reference.md), and what they still lack after.
 */
import { fieldError, type FieldError } from "../errors";
import { SINGLE_PROVIDER_APIS } from "../api/apis";
import { addApi, deepMerge, effectiveId, isConditional, type ConfigDoc, type ProviderEntry } from "./doc";
import type { ProviderOutcome } from "./providers";

/**
 * The entry that replaces a base entry with the same id. Same type: the base's config stays
 * underneath (vLLM keeps its max_tokens and TLS settings, pgvector its index); other type: replaced.
 */
function overlayEntry(base: ProviderEntry, entry: ProviderEntry): ProviderEntry {
  if (base.provider_type !== entry.provider_type || !base.config) return entry;
  return { ...entry, config: deepMerge(base.config, entry.config ?? {}) };
}

/** A base entry the distribution switches on by env, replaced by a spec entry of its type: said, with the settings it keeps. */
function alwaysOnNotes(api: string, base: ProviderEntry | undefined, entry: ProviderEntry): string[] {
  if (!base || !isConditional(base.provider_id) || base.provider_type !== entry.provider_type) return [];
  const kept =
    Object.keys(base.config ?? {})
      .sort()
      .join(", ") || "none";
  return [
    `providers.${api}.${entry.provider_id}: now always on; it keeps the distribution's other settings for it (${kept}), set them in settings to change them`,
  ];
}

/**
 * An API one provider serves keeps only the spec's: another base entry would start beside it
 * and serve nothing (or, listed last, serve instead of it), and keep its state in the pod.
 */
function servedAlone(api: string, list: ProviderEntry[], entry: ProviderEntry, notes: string[]): ProviderEntry[] {
  if (!SINGLE_PROVIDER_APIS.has(api)) return list;
  const others = list.filter((b) => effectiveId(b.provider_id) !== entry.provider_id);
  for (const b of others)
    notes.push(
      `providers.${api}.${entry.provider_id}: replaces the base config's ${effectiveId(b.provider_id)} (${b.provider_type}): the server serves ${api} with one provider`,
    );
  return others.length === 0 ? list : list.filter((b) => !others.includes(b));
}

/** Overlay entries on the base config by provider id; adds each new API to a non-empty `apis`. */
export function overlayProviders(
  doc: ConfigDoc,
  entries: readonly { api: string; entry: ProviderEntry }[],
  notes: string[],
): void {
  for (const { api, entry } of entries) {
    const list = [...(doc.providers[api] ?? [])];
    const at = list.findIndex((b) => effectiveId(b.provider_id) === entry.provider_id);
    const baseEntry = at >= 0 ? list[at] : undefined;
    notes.push(...alwaysOnNotes(api, baseEntry, entry));
    if (baseEntry) list[at] = overlayEntry(baseEntry, entry);
    else list.push(entry);
    doc.providers[api] = servedAlone(api, list, entry, notes);
    addApi(doc, api);
  }
}

/** What the entries still lack once overlaid on the base: keys their type requires (the server refuses the entry). */
export function missingRequired(doc: ConfigDoc, entries: ProviderOutcome["entries"]): FieldError[] {
  return entries.flatMap(({ api, entry, path, required }) => {
    const final = (doc.providers[api] ?? []).find((p) => p.provider_id === entry.provider_id);
    // No final entry: a later spec entry of an API one provider serves replaced it (refused by validate).
    if (final === undefined || path === undefined) return [];
    const absent = (required ?? []).filter((k) => final.config?.[k] === undefined || final.config[k] === null);
    if (absent.length === 0) return [];
    const how = absent.map((k) => `settings.${k}`).join(", ");
    return [
      fieldError(
        path,
        `${entry.provider_type} requires ${absent.join(", ")} in its config, which the spec does not give; set ${how} (or endpoint / apiKey / secretRefs where that is the key)`,
      ),
    ];
  });
}

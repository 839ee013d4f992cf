/**
 * `spec.replace` (docs/configuration.md): an API it names runs only the spec's providers, a kind
 * of registered resources it names keeps only the spec's. What goes from the base config is named
 * in a note; what in the base still pointed at a dropped vector store provider is pointed at the
 * first one that stays (models and default models on dropped providers go with them, as for
 * `disabled`: lib/config/disabled.ts).
 */
import type { Replaced } from "../api/canonical";
import { effectiveId, providerIds, type ConfigDoc, type ProviderEntry } from "./doc";
import { isPlainObject, type JsonMap } from "../json";

type SpecEntry = { readonly api: string; readonly entry: ProviderEntry };

/** The id field of each kind of registered resource, for naming the dropped ones. */
const ID_FIELDS: { readonly [kind: string]: string } = {
  models: "model_id",
  shields: "shield_id",
  vector_stores: "vector_store_id",
  datasets: "dataset_id",
  scoring_fns: "scoring_fn_id",
  benchmarks: "benchmark_id",
};

const named = (p: ProviderEntry): string => `${effectiveId(p.provider_id)} (${p.provider_type})`;
/** An id as text (a base's ids are strings; anything else is shown as JSON). */
const text = (value: unknown): string => (typeof value === "string" ? value : JSON.stringify(value ?? null));
const idOf = (kind: string, e: JsonMap): string => text(e[ID_FIELDS[kind] ?? "id"]);

/**
 * The base's models registered on `gone` providers, and its default vector store models on them:
 * they go with them (pruned after the overlay, lib/config/disabled.ts).
 */
function modelsOn(doc: ConfigDoc, gone: ReadonlySet<string>): string[] {
  const models = doc.registered_resources?.models ?? [];
  const registered = models.filter((m) => gone.has(effectiveId(m.provider_id))).map((m) => idOf("models", m));
  const vs = isPlainObject(doc.vector_stores) ? doc.vector_stores : {};
  const defaults = ["default_embedding_model", "default_reranker_model"].flatMap((key) => {
    const ref = vs[key];
    return isPlainObject(ref) && gone.has(effectiveId(ref.provider_id))
      ? [`vector_stores.${key} ${text(ref.model_id)}`]
      : [];
  });
  return [...registered, ...defaults];
}

/** Drops the base's providers of each replaced API that the spec does not list (a listed id keeps its base entry underneath). */
export function replaceProviders(
  doc: ConfigDoc,
  replace: readonly Replaced[],
  entries: readonly SpecEntry[],
): string[] {
  const notes: string[] = [];
  for (const r of replace.filter((x) => x.kind === "api")) {
    const keep = new Set(entries.filter((e) => e.api === r.name).map((e) => e.entry.provider_id));
    const list = doc.providers[r.name] ?? [];
    const dropped = list.filter((b) => !keep.has(effectiveId(b.provider_id)));
    if (dropped.length === 0) continue;
    doc.providers[r.name] = list.filter((b) => !dropped.includes(b));
    const models = modelsOn(doc, new Set(dropped.map((b) => effectiveId(b.provider_id))));
    const withModels = models.length > 0 ? `, and the models on them: ${models.join(", ")}` : "";
    notes.push(
      `${r.path}: ${r.name} runs only the spec's providers; dropped from the base config: ${dropped.map(named).join(", ")}${withModels}`,
    );
  }
  return notes;
}

/** Empties each replaced kind of the base's registered resources, before the spec's are added. */
export function replaceResources(doc: ConfigDoc, replace: readonly Replaced[]): string[] {
  const rr = doc.registered_resources;
  const notes: string[] = [];
  for (const r of replace.filter((x) => x.kind === "resources")) {
    const base = rr?.[r.name] ?? [];
    if (rr === undefined || base.length === 0) continue;
    rr[r.name] = [];
    notes.push(
      `${r.path}: ${r.name} are only the spec's; dropped from the base config: ${base.map((e) => idOf(r.name, e)).join(", ")}`,
    );
    // The default shield went with the base's shields; the spec's first one becomes it again (resources.ts).
    if (r.name === "shields" && isPlainObject(doc.safety) && "default_shield_id" in doc.safety) {
      const { default_shield_id: _gone, ...rest } = doc.safety;
      doc.safety = rest;
    }
  }
  return notes;
}

/** The vector_io providers that stay, and the notes being said. */
interface Staying {
  readonly ids: readonly string[];
  readonly notes: string[];
}

/** `holder[key]` named a vector_io provider that is gone: the first that stays, said. */
function repoint(holder: JsonMap, key: string, where: string, staying: Staying): JsonMap {
  const was = holder[key];
  const to = staying.ids[0];
  if (typeof was !== "string" || to === undefined || staying.ids.includes(effectiveId(was))) return holder;
  staying.notes.push(`${where}.${key}: the base config's ${was} was dropped by spec.replace; set to ${to}`);
  return { ...holder, [key]: to };
}

/** The responses provider's memory and vector store defaults, re-pointed. */
function repointResponses(p: ProviderEntry, staying: Staying): ProviderEntry {
  const config = p.config;
  if (!isPlainObject(config)) return p;
  const where = `providers.responses.${effectiveId(p.provider_id)}.config`;
  const out: JsonMap = { ...config };
  const memory = config.memory_config;
  if (isPlainObject(memory))
    out.memory_config = repoint(memory, "default_vector_store_provider_id", `${where}.memory_config`, staying);
  const stores = config.vector_stores_config;
  if (isPlainObject(stores))
    out.vector_stores_config = repoint(stores, "default_provider_id", `${where}.vector_stores_config`, staying);
  return { ...p, config: out };
}

/**
 * What named a vector_io provider that `replace` dropped (`vector_stores.default_provider_id`,
 * the responses provider's defaults) names the first that stays: at runtime a vector store made
 * without a provider would otherwise go to one the server does not run.
 */
export function repointVectorDefaults(doc: ConfigDoc, replace: readonly Replaced[]): string[] {
  if (!replace.some((r) => r.kind === "api" && r.name === "vector_io")) return [];
  const staying: Staying = { ids: providerIds(doc, "vector_io"), notes: [] };
  if (isPlainObject(doc.vector_stores))
    doc.vector_stores = repoint(doc.vector_stores, "default_provider_id", "vector_stores", staying);
  const responses = doc.providers.responses;
  if (responses) doc.providers.responses = responses.map((p) => repointResponses(p, staying));
  return staying.notes;
}

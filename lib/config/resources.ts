/**
 * `resources` → `registered_resources` (models, shields) and tool checks (docs/spec-reference.md).
 * Tools are never emitted as tool_groups: 0.7+ servers register them from tool_runtime providers.
 */
import { child, fieldError, listOf, type FieldError } from "../errors";
import type { CanonicalSpec, Model, Provider } from "../api/canonical";
import { SERVER_API } from "../api/apis";
import { meant } from "../suggest";
import { TOOL_PROVIDERS } from "../api/validate-resources";
import { upsertBy } from "../lists";
import { perFrozen } from "../remembered";
import { isJsonMap, NOT_PLAIN_DATA } from "./base-shape";
import { effectiveId, providerIds, type ConfigDoc, type ProviderEntry } from "./doc";
import { isPlainObject, type JsonMap } from "../json";
import { behindSwitch, conditionalOn } from "./env-switch";

export interface ResourceOutcome {
  readonly notes: string[];
  readonly errors: FieldError[];
}

function firstSpecProvider(spec: CanonicalSpec, api: Provider["api"]): string | undefined {
  return spec.providers.find((p) => p.api === api)?.id;
}

/** The model's `metadata`; a CR parsed from JSON or YAML always holds plain data there. */
function metadataOf(m: Model, out: ResourceOutcome): JsonMap {
  if (m.metadata === undefined || isJsonMap(m.metadata)) return m.metadata ?? {};
  out.errors.push(fieldError(child(m.path, "metadata"), NOT_PLAIN_DATA));
  return {};
}

function modelEntry(m: Model, providerId: string, out: ResourceOutcome): JsonMap {
  const metadata: JsonMap = {
    ...metadataOf(m, out),
    ...(m.contextLength !== undefined ? { context_length: m.contextLength } : {}),
    ...(m.quantization !== undefined ? { quantization: m.quantization } : {}),
    ...(m.embeddingDimension !== undefined ? { embedding_dimension: m.embeddingDimension } : {}),
  };
  return {
    model_id: m.name,
    provider_id: providerId,
    provider_model_id: m.providerModelId ?? m.name,
    model_type: m.modelType,
    metadata,
  };
}

function registered(doc: ConfigDoc): { [kind: string]: JsonMap[] } {
  doc.registered_resources ??= {};
  return doc.registered_resources;
}

/** The inference provider a model registers on: its own, or the spec's first (said); an error when the config lacks it. */
function modelProvider(m: Model, fallback: string | undefined, available: readonly string[], out: ResourceOutcome) {
  const providerId = m.provider ?? fallback;
  if (providerId !== undefined && available.includes(providerId)) {
    if (m.provider === undefined)
      out.notes.push(`${m.path}: model "${m.name}" registered with the first inference provider, "${providerId}"`);
    return providerId;
  }
  const path = m.provider !== undefined ? child(m.path, "provider") : m.path;
  const what =
    m.provider !== undefined
      ? `names provider "${m.provider}", which is not an inference provider${meant(m.provider, available, ".")}`
      : "names no provider and spec.providers.inference is empty; add an inference provider or set provider to one of the distribution's.";
  out.errors.push(fieldError(path, `model "${m.name}" ${what} Available: ${listOf(available)}`));
  return undefined;
}

/**
 * The spec's inference providers that generation could not build (a removed type, a typo): each
 * has its own error, so a model on one of them is not reported a second time.
 */
function unbuilt(spec: CanonicalSpec, available: readonly string[]): Set<string> {
  const off = spec.disabled.some((d) => d.api === SERVER_API.inference);
  const ids = spec.providers.filter((p) => p.api === "inference" && !off && !available.includes(p.id)).map((p) => p.id);
  return new Set(ids);
}

export function applyModels(doc: ConfigDoc, spec: CanonicalSpec, out: ResourceOutcome): void {
  if (spec.resources.models.length === 0) return;
  const available = providerIds(doc, "inference");
  // Only a provider the user configured is a safe default: the distribution's always-on ones are hosted APIs.
  const fallback = firstSpecProvider(spec, "inference");
  const failed = unbuilt(spec, available);
  const entries: JsonMap[] = [];
  for (const m of spec.resources.models) {
    if (failed.has(m.provider ?? fallback ?? "")) continue; // one cause, one message: the provider's
    const providerId = modelProvider(m, fallback, available, out);
    if (providerId === undefined) continue;
    const entry = behindSwitch(
      { entry: modelEntry(m, providerId, out), idField: "model_id", id: m.name, providerId, path: m.path },
      conditionalOn(doc, "inference", providerId),
      spec,
      out,
    );
    if (entry) entries.push(entry);
  }
  registered(doc).models = upsertBy(registered(doc).models ?? [], entries, "model_id");
}

export function applyShields(doc: ConfigDoc, spec: CanonicalSpec, out: ResourceOutcome): void {
  if (spec.resources.shields.length === 0) return;
  const providerId = firstSpecProvider(spec, "safety") ?? providerIds(doc, "safety")[0];
  if (providerId === undefined) {
    out.errors.push(
      fieldError(
        "spec.resources.shields",
        "resources.shields requires at least one safety provider to be configured: add spec.providers.safety (e.g. provider: llama-guard)",
      ),
    );
    return;
  }
  // A shield name is the guard model's id: llama-guard calls that model through inference.
  const variable = conditionalOn(doc, "safety", providerId);
  const entries = spec.resources.shields.flatMap((s): JsonMap[] => {
    const entry = { shield_id: s.name, provider_id: providerId, provider_shield_id: s.name };
    const kept = behindSwitch(
      { entry, idField: "shield_id", id: s.name, providerId, path: s.path },
      variable,
      spec,
      out,
    );
    return kept ? [kept] : [];
  });
  registered(doc).shields = upsertBy(registered(doc).shields ?? [], entries, "shield_id");
  const first = entries[0]?.shield_id;
  if (first === undefined) return;
  // The base's default shield is usually switched off by env; the user's first shield is one that is
  // on — or behind the same switch as its provider, so the default goes (null) when the shield does.
  doc.safety = { ...(isPlainObject(doc.safety) ? doc.safety : {}), default_shield_id: first };
}

/** Each tool needs a tool_runtime provider that serves it in the merged config. */
export function checkTools(doc: ConfigDoc, spec: CanonicalSpec, out: ResourceOutcome): void {
  const types = new Set((doc.providers.tool_runtime ?? []).map((p) => p.provider_type));
  for (const tool of spec.resources.tools) {
    const serving = TOOL_PROVIDERS[tool.name] ?? [];
    if (serving.some((t) => types.has(t))) continue;
    const name = serving[0]?.split("::")[1] ?? tool.name;
    out.errors.push(
      fieldError(
        tool.path,
        `resources.tools requires at least one toolRuntime provider that serves "${tool.name}" (${serving.join(", ")}); add spec.providers.toolRuntime with provider: ${name}`,
      ),
    );
  }
  if (spec.resources.tools.length > 0) {
    out.notes.push(
      "spec.resources.tools: tools are registered by the server from its tool_runtime providers (0.7+); no tool_groups are written",
    );
  }
}

/** Never emit tool_groups: 0.7+ servers drop them with a warning. */
export function dropToolGroups(doc: ConfigDoc): void {
  if (doc.registered_resources && "tool_groups" in doc.registered_resources)
    delete doc.registered_resources.tool_groups;
}

/** Every provider's effective id, whatever its API: what resources may still name after `disabled`. */
export function providerIdSet(doc: ConfigDoc): Set<string> {
  const ids = new Set<string>();
  for (const api of Object.keys(doc.providers)) for (const id of listIds(doc.providers[api] ?? [])) ids.add(id);
  return ids;
}

/** A shared base's lists are frozen (lib/config/base.ts): their ids are read once. */
const listIds = perFrozen((list: readonly ProviderEntry[]): readonly string[] =>
  list.map((p) => effectiveId(p.provider_id)),
);

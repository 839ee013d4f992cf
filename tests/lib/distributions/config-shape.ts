/** Typed views over a parsed config.yaml, so tests read as rules rather than casts. */
import { parseDocument } from "yaml";
import { bundledBaseConfig } from "../../../lib/distributions/bundled";
import type { Release } from "../../../lib/distributions/table";

export type Mapping = Record<string, unknown>;

export interface ProviderEntry {
  readonly api: string;
  /** As written; may be a `${env.X:+id}` conditional. */
  readonly rawId: string;
  /** The id the provider has when its condition holds. */
  readonly id: string;
  readonly type: string;
  readonly config: Mapping | undefined;
}

export function isMapping(value: unknown): value is Mapping {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function mapping(value: unknown, what: string): Mapping {
  if (!isMapping(value)) throw new Error(`${what} is not a mapping`);
  return value;
}

export function list(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) throw new Error(`${what} is not a list`);
  return value;
}

export function text(value: unknown, what: string): string {
  if (typeof value !== "string") throw new Error(`${what} is not a string`);
  return value;
}

const CONDITIONAL_ID = /^\$\{env\.[A-Z0-9_]+:\+([^}]*)\}$/;

/** `${env.SAFETY_MODEL:+llama-guard}` → `llama-guard` (the id when enabled); plain ids unchanged. */
export function enabledId(raw: string): string {
  return CONDITIONAL_ID.exec(raw)?.[1] ?? raw;
}

export function isConditional(raw: string): boolean {
  return CONDITIONAL_ID.test(raw);
}

/** Parse a bundled base strictly: any YAML error or warning (e.g. a duplicate key) fails. */
export function loadBase(name: string, release: Release): Mapping {
  const source = bundledBaseConfig(name, release);
  if (source === undefined) throw new Error(`no bundled base for ${name} ${release}`);
  const document = parseDocument(source, { uniqueKeys: true });
  const issues = [...document.errors, ...document.warnings];
  if (issues.length > 0) throw new Error(issues.map((issue) => issue.message).join("\n"));
  return mapping(document.toJS(), `${name}-${release}.yaml`);
}

export function providerEntries(config: Mapping): ProviderEntry[] {
  return Object.entries(mapping(config["providers"], "providers")).flatMap(([api, entries]) =>
    list(entries, `providers.${api}`).map((entry, index) => {
      const where = `providers.${api}[${index}]`;
      const fields = mapping(entry, where);
      const rawId = text(fields["provider_id"], `${where}.provider_id`);
      const config = fields["config"] === undefined ? undefined : mapping(fields["config"], `${where}.config`);
      return {
        api,
        rawId,
        id: enabledId(rawId),
        type: text(fields["provider_type"], `${where}.provider_type`),
        config,
      };
    }),
  );
}

/** Every `{backend, …}` reference below `value`, with its path. */
export function backendReferences(value: unknown, path: string): { path: string; ref: Mapping }[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => backendReferences(item, `${path}[${index}]`));
  if (!isMapping(value)) return [];
  const own = typeof value["backend"] === "string" ? [{ path, ref: value }] : [];
  return [...own, ...Object.entries(value).flatMap(([key, child]) => backendReferences(child, `${path}.${key}`))];
}

/** Every mapping key anywhere in the document, with its path. */
export function allKeys(value: unknown, path = ""): string[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => allKeys(item, `${path}[${index}]`));
  if (!isMapping(value)) return [];
  return Object.entries(value).flatMap(([key, child]) => [`${path}.${key}`, ...allKeys(child, `${path}.${key}`)]);
}

/** Every string scalar anywhere in the document. */
export function allStrings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(allStrings);
  return isMapping(value) ? Object.values(value).flatMap(allStrings) : [];
}

/**
 * Deterministic config.yaml text: keys in one canonical order (structural keys first, in the
 * order the server's own files use, then alphabetical), list order kept. Same input → same
 * bytes, however the input maps were ordered.
 */
import { createHash } from "node:crypto";
import { isMap, isNode, isScalar, LineCounter, parseDocument, visit, type Document } from "yaml";
import { emitYaml } from "./yaml-emit";

/** Top-level keys in the order the server's own files use; others follow alphabetically. */
const TOP_ORDER = [
  "version",
  "distro_name",
  "image_name",
  "container_image",
  "apis",
  "providers",
  "storage",
  "registered_resources",
  "vector_stores",
  "safety",
  "connectors",
  "server",
  "external_providers_dir",
  "external_apis_dir",
  "logging",
];
/** Keys of nested entries (providers, models, shields, backends) that lead, in this order. */
const ENTRY_ORDER = [
  "model_id",
  "shield_id",
  "vector_store_id",
  "provider_id",
  "provider_type",
  "provider_model_id",
  "provider_shield_id",
  "module",
  "model_type",
  "type",
  "config",
  "metadata",
];

const TOP_RANK = new Map(TOP_ORDER.map((k, i) => [k, i]));
const ENTRY_RANK = new Map(ENTRY_ORDER.map((k, i) => [k, i]));

function comparator(rank: ReadonlyMap<string, number>): (a: string, b: string) => number {
  const last = rank.size;
  return (a, b) => {
    const ra = rank.get(a) ?? last;
    const rb = rank.get(b) ?? last;
    if (ra !== rb) return ra - rb;
    return a < b ? -1 : a > b ? 1 : 0;
  };
}
const BY_TOP = comparator(TOP_RANK);
const BY_ENTRY = comparator(ENTRY_RANK);

/** Keys no order names sort by code unit, as `Array.prototype.sort` does without a comparator (natively, no callbacks). */
function canonicalKeys(keys: string[], top: boolean): readonly string[] {
  const rank = top ? TOP_RANK : ENTRY_RANK;
  return keys.some((k) => rank.has(k)) ? keys.sort(top ? BY_TOP : BY_ENTRY) : keys.sort();
}

/** Deterministic config.yaml text: canonical key order, list order kept. */
export function toConfigYaml(config: unknown): string {
  return emitYaml(config, canonicalKeys);
}

export function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** `versionSource`: the text of a top-level `version:` written as a plain scalar (lib/config/config-version.ts). */
export type ParsedYaml = { ok: true; value: unknown; versionSource?: string } | { ok: false; message: string };

function plainVersionSource(doc: Document): string | undefined {
  if (!isMap(doc.contents)) return undefined;
  const pair = doc.contents.items.find((p) => isScalar(p.key) && p.key.value === "version");
  return pair && isScalar(pair.value) && pair.value.type === "PLAIN" && typeof pair.value.source === "string"
    ? pair.value.source
    : undefined;
}

/** Tags whose values are JSON data: the YAML core schema's. Others (`!!binary`, `!!set`, `!!timestamp`, `!!omap`, local tags) are not. */
const JSON_TAGS = new Set(["str", "int", "float", "bool", "null", "map", "seq"].map((t) => `tag:yaml.org,2002:${t}`));

const shortTag = (tag: string): string => tag.replace(/^tag:yaml\.org,2002:/, "!!");

/**
 * The first tag that makes a value other than JSON data, with its line. The server's loader
 * reads such a value differently or not at all, and nothing downstream of a parse expects
 * bytes, sets or dates: refused here, named, never echoed.
 */
function nonJsonTag(doc: Document.Parsed, lines: LineCounter): string | undefined {
  let found: string | undefined;
  visit(doc, (_key, node) => {
    if (!isNode(node) || node.tag === undefined || JSON_TAGS.has(node.tag)) return undefined;
    const line = node.range ? lines.linePos(node.range[0]).line : undefined;
    found = `${line !== undefined ? ` at line ${line}` : ""}: the tag ${shortTag(node.tag)} does not make plain data (strings, numbers, booleans, null, maps, lists); remove it`;
    return visit.BREAK;
  });
  return found;
}

/** Parse one YAML document; an error message names the line (and never echoes the content). */
export function parseYaml(text: string): ParsedYaml {
  const lines = new LineCounter();
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true, lineCounter: lines });
  const first = doc.errors[0];
  if (first) {
    const line = first.linePos?.[0]?.line;
    return { ok: false, message: `invalid YAML${line !== undefined ? ` at line ${line}` : ""}: ${first.code}` };
  }
  const tagged = nonJsonTag(doc, lines);
  if (tagged !== undefined) return { ok: false, message: `invalid YAML${tagged}` };
  try {
    const value: unknown = doc.toJS({ maxAliasCount: 100 });
    const versionSource = plainVersionSource(doc);
    return versionSource === undefined ? { ok: true, value } : { ok: true, value, versionSource };
  } catch (err) {
    // An unresolved alias or an alias bomb only shows when resolving. The message names the
    // problem, never the content (a config may quote a secret).
    const problem = /excessive alias count/i.test(String(err))
      ? "too many aliases (at most 100)"
      : "an alias refers to no anchor";
    return { ok: false, message: `invalid YAML: ${problem}` };
  }
}

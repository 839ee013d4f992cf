/** Parse and check a base config.yaml before anything is merged into it. */
import { fieldError, type FieldError } from "../errors";
import { SUPPORTED_CONFIG_VERSIONS } from "../defaults";
import { deepFreeze } from "../json-copy";
import { isJson, parseConfigDoc } from "./base-shape";
import { isMap, type ConfigDoc } from "./doc";
import { parseYaml, type ParsedYaml } from "./yaml";

export const BASE_PATH = "baseConfig";

/** FR-029, word for word. A missing `version` is the server's default, 2. */
export function versionError(version: unknown): FieldError | undefined {
  const v = version === undefined ? 2 : version;
  if (typeof v === "number" && SUPPORTED_CONFIG_VERSIONS.includes(v)) return undefined;
  return fieldError(`${BASE_PATH}.version`,
    `Unsupported config.yaml version ${String(v)}. Supported versions: ${SUPPORTED_CONFIG_VERSIONS.join(", ")}`);
}

export type BaseOutcome = { ok: true; doc: ConfigDoc } | { ok: false; errors: FieldError[] };

/**
 * Parsing a distribution config costs milliseconds and the same few texts come back on every
 * sync, so parses are kept (bounded; oldest dropped first). Callers get a private copy.
 */
const PARSE_CACHE_LIMIT = 32;
const parsedByText = new Map<string, ParsedYaml>();

function parseCached(text: string): ParsedYaml {
  const hit = parsedByText.get(text);
  if (hit) return hit;
  const parsed = parseYaml(text);
  // Shared parses are frozen: a generator step that edits one in place fails loudly in tests.
  if (parsed.ok) deepFreeze(parsed.value);
  if (parsedByText.size >= PARSE_CACHE_LIMIT) parsedByText.delete(parsedByText.keys().next().value as string);
  parsedByText.set(text, parsed);
  return parsed;
}

/** Text or an already-parsed object → a private, checked copy the generator may edit (lib/config/base-shape.ts). */
export function readBase(base: string | object): BaseOutcome {
  const parsed = typeof base === "string" ? parseCached(base) : { ok: true as const, value: base };
  if (!parsed.ok) return { ok: false, errors: [fieldError(BASE_PATH, `the base config.yaml is ${parsed.message}`)] };
  if (!isJson(parsed.value) || !isMap(parsed.value)) return { ok: false, errors: [fieldError(BASE_PATH, "the base config.yaml must be a YAML mapping of plain data")] };
  const bad = versionError(parsed.value.version);
  if (bad) return { ok: false, errors: [bad] };
  const shaped = parseConfigDoc(parsed.value, BASE_PATH);
  if (!shaped.ok) return shaped;
  const doc = shaped.doc;
  if ("models" in doc && !("registered_resources" in doc)) {
    return { ok: false, errors: [fieldError(BASE_PATH, "the base config.yaml uses the pre-0.3 format (top-level models); supported servers (0.7, 0.8) ignore it. Use a current distribution config")] };
  }
  return { ok: true, doc };
}

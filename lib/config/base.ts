/** Parse and check a base config.yaml before anything is merged into it. */
import { frozenBytes, sharedCache, textBytes } from "../caches";
import { fieldError, type FieldError } from "../errors";
import { SUPPORTED_CONFIG_VERSIONS } from "../defaults";
import { deepFreeze } from "../json-copy";
import { serverConfigVersion } from "./config-version";
import { isJson, parseConfigDoc } from "./base-shape";
import { type ConfigDoc } from "./doc";
import { isPlainObject } from "../json";
import { parseYaml, type ParsedYaml } from "./yaml";

export const BASE_PATH = "baseConfig";

/** The version as the user wrote it, for the message: its source text, or the parsed value as JSON. */
function versionText(version: unknown, plainSource: string | undefined): string {
  if (plainSource !== undefined) return plainSource;
  if (version === undefined) return "2";
  // JSON data always stringifies; a symbol or a function (not data) is named as JavaScript names it.
  return typeof version === "symbol" || typeof version === "function" ? String(version) : JSON.stringify(version);
}

function writtenVersion(version: unknown, plainSource: string | undefined): string {
  const text = versionText(version, plainSource);
  return text.length > 24 ? `${text.slice(0, 21)}...` : text;
}

/**
 * The error for a version the server refuses, in the wording docs/spec-reference.md gives. The
 * version is read as the server reads it (`version: '2'` and `2.0` are 2; a missing one is the
 * default, 2); `plainSource` is its text when unquoted.
 */
export function versionError(version: unknown, plainSource?: string): FieldError | undefined {
  const read = serverConfigVersion(version, plainSource);
  if (read !== undefined && SUPPORTED_CONFIG_VERSIONS.includes(Number(read))) return undefined;
  const why = read === undefined ? " (the server reads version as an integer and refuses this value)" : "";
  return fieldError(
    `${BASE_PATH}.version`,
    `Unsupported config.yaml version ${writtenVersion(version, plainSource)}${why}. Supported versions: ${SUPPORTED_CONFIG_VERSIONS.join(", ")}`,
  );
}

export type BaseOutcome = { ok: true; doc: ConfigDoc } | { ok: false; errors: FieldError[] };

/** What a kept base holds: its text, the checked doc, and the facts kept beside the doc. */
const keptBytes = (checked: BaseOutcome, text: string): number => textBytes(text) + frozenBytes(checked);

/**
 * Parsing and checking a distribution config costs milliseconds (a sync without this cache
 * takes 40 times as long, docs/development.md) and the same few texts come back on every sync,
 * so each text's checked outcome is kept, under the "base configs" share of the cache budget
 * (lib/caches.ts; a text too large for it, such as a huge overrideConfig, is checked every time).
 * A kept outcome is frozen: a generator step that edits it in place fails loudly in tests.
 * Callers get `editable`.
 */
const checkedByText = sharedCache<string, BaseOutcome>("base configs", keptBytes);

function checkedText(text: string): BaseOutcome {
  const cache = checkedByText();
  const hit = cache?.get(text);
  if (hit) return hit;
  const checked = checkBase(parseYaml(text));
  cache?.set(text, checked);
  // Only a kept outcome is shared, so only it is frozen (with every part of the parse it keeps),
  // and only its facts are kept beside it (perFrozen keeps facts of frozen objects).
  if (cache?.has(text)) deepFreeze(checked);
  return checked;
}

/**
 * A copy the generator may edit: a fresh top level, `providers` and `registered_resources`
 * maps. Their lists and entries stay shared and frozen: steps replace a list rather than edit
 * it, and a list no step touched is emitted from the YAML emitter's memo (lib/config/yaml-emit.ts).
 */
export function editable(doc: ConfigDoc): ConfigDoc {
  const copy: ConfigDoc = { ...doc, providers: { ...doc.providers } };
  if (doc.registered_resources) copy.registered_resources = { ...doc.registered_resources };
  return copy;
}

/** The checked base: for text, the shared frozen outcome (read it, copy it with `editable`); for an object, its own. */
export function checkedBase(base: string | object): BaseOutcome {
  return typeof base === "string" ? checkedText(base) : checkBase({ ok: true, value: base });
}

/** Text or an already-parsed object → a private, checked copy the generator may edit (lib/config/base-shape.ts). */
export function readBase(base: string | object): BaseOutcome {
  const checked = checkedBase(base);
  return checked.ok ? { ok: true, doc: editable(checked.doc) } : checked;
}

function checkBase(parsed: ParsedYaml): BaseOutcome {
  if (!parsed.ok) return { ok: false, errors: [fieldError(BASE_PATH, `the base config.yaml is ${parsed.message}`)] };
  if (!isJson(parsed.value) || !isPlainObject(parsed.value))
    return { ok: false, errors: [fieldError(BASE_PATH, "the base config.yaml must be a YAML mapping of plain data")] };
  const bad = versionError(parsed.value.version, "versionSource" in parsed ? parsed.versionSource : undefined);
  if (bad) return { ok: false, errors: [bad] };
  const shaped = parseConfigDoc(parsed.value, BASE_PATH);
  if (!shaped.ok) return shaped;
  const doc = shaped.doc;
  if ("models" in doc && !("registered_resources" in doc)) {
    return {
      ok: false,
      errors: [
        fieldError(
          BASE_PATH,
          "the base config.yaml uses the pre-0.3 format (top-level models); supported servers (0.7, 0.8) ignore it. Use a current distribution config",
        ),
      ],
    };
  }
  return { ok: true, doc };
}

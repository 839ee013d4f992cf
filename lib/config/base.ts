/** Parse and check a base config.yaml before anything is merged into it. */
import { fieldError, type FieldError } from "../errors";
import { SUPPORTED_CONFIG_VERSIONS } from "../defaults";
import { isMap, type ConfigDoc } from "./doc";
import { parseYaml } from "./yaml";

export const BASE_PATH = "baseConfig";

/** FR-029, word for word. A missing `version` is the server's default, 2. */
export function versionError(version: unknown): FieldError | undefined {
  const v = version === undefined ? 2 : version;
  if (typeof v === "number" && SUPPORTED_CONFIG_VERSIONS.includes(v)) return undefined;
  return fieldError(`${BASE_PATH}.version`,
    `Unsupported config.yaml version ${String(v)}. Supported versions: ${SUPPORTED_CONFIG_VERSIONS.join(", ")}`);
}

export type BaseOutcome = { ok: true; doc: ConfigDoc } | { ok: false; errors: FieldError[] };

/** Text or an already-parsed object → a private, mutable copy the generator may edit. */
export function readBase(base: string | object): BaseOutcome {
  const parsed = typeof base === "string" ? parseYaml(base) : { ok: true as const, value: base };
  if (!parsed.ok) return { ok: false, errors: [fieldError(BASE_PATH, `the base config.yaml is ${parsed.message}`)] };
  if (!isMap(parsed.value)) return { ok: false, errors: [fieldError(BASE_PATH, "the base config.yaml must be a YAML mapping")] };
  const doc = structuredClone(parsed.value) as ConfigDoc;
  const bad = versionError(doc.version);
  if (bad) return { ok: false, errors: [bad] };
  if (!isMap(doc.providers)) {
    return { ok: false, errors: [fieldError(`${BASE_PATH}.providers`, "the base config.yaml has no providers map; it is not a Llama Stack run config")] };
  }
  if ("models" in doc && !("registered_resources" in doc)) {
    return { ok: false, errors: [fieldError(BASE_PATH, "the base config.yaml uses the pre-0.3 format (top-level models); supported servers (0.7, 0.8) ignore it. Use a current distribution config")] };
  }
  return { ok: true, doc };
}

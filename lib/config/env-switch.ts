/**
 * Resources registered on a provider the distribution switches on by env (`${env.X:+id}`):
 * they go behind the same switch, or the server would stop when the provider is off.
 */
import { fieldError, type FieldError } from "../errors";
import type { CanonicalSpec } from "../api/canonical";
import { effectiveId, isConditional, type ConfigDoc } from "./doc";
import { type JsonMap } from "../json";
import { providedEnv, USER_ENV_PATH } from "./env-check";
import { convertedKind, staysText } from "./env-substitution";

/** A resource entry about to be registered, with the id field the server reads and the values it holds. */
export interface Registration {
  readonly entry: JsonMap;
  readonly idField: "model_id" | "shield_id";
  readonly id: string;
  readonly providerId: string;
  /** The spec field it comes from, for notes and errors. */
  readonly path: string;
}

/**
 * A resource on a base provider that the distribution switches on with `${env.X:+id}` must go
 * when the provider does, or the server stops ("Provider … not found"). Unless the container
 * sets X, the resource's id gets the same switch (`${env.X:+name}`): unset, the server skips
 * the entry. The provider itself stays as the distribution has it; status says which.
 */
export function behindSwitch(
  registration: Registration,
  variable: string | undefined,
  spec: CanonicalSpec,
  out: { readonly notes: string[]; readonly errors: FieldError[] },
): JsonMap | undefined {
  const { entry, idField, id, providerId: provider, path } = registration;
  if (variable === undefined) return entry;
  if (providedEnv(spec, []).has(variable)) {
    out.notes.push(
      `${path}: "${id}" is on provider "${provider}", which the distribution enables only when ${variable} is set; ${USER_ENV_PATH} sets it`,
    );
    return entry;
  }
  const how = `set ${variable} in ${USER_ENV_PATH} (which turns the provider on), or configure "${provider}" in spec.providers to make it always on`;
  if (!staysText(id) || /[}$]/.test(id)) {
    out.errors.push(
      fieldError(
        path,
        `"${id}" is on provider "${provider}", which is off unless ${variable} is set, and this name cannot be kept behind that switch (the server would read it as ${convertedKind(id)}); ${how}`,
      ),
    );
    return undefined;
  }
  out.notes.push(
    `${path}: "${id}" is on provider "${provider}", which the distribution enables only when ${variable} is set: it stays behind the same switch and is registered only then; ${how}`,
  );
  return { ...entry, [idField]: `\${env.${variable}:+${id}}` };
}

/** The env var a base provider waits for (`${env.VLLM_URL:+vllm}` → VLLM_URL), if it is conditional. */
export function conditionalOn(doc: ConfigDoc, api: string, id: string): string | undefined {
  const entry = (doc.providers[api] ?? []).find((p) => effectiveId(p.provider_id) === id);
  return entry && isConditional(entry.provider_id) ? /\$\{env\.([A-Z0-9_]+)/.exec(entry.provider_id)?.[1] : undefined;
}

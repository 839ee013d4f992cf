/**
 * External provider rules beside `externalProviderRules` (two externals with one id): an
 * external provider replaces a provider of its own API only (same id there: replaced, with a
 * note, at generation), and an API that `disabled` removes cannot take one.
 */
import { child, fieldError, type FieldError } from "../errors";
import { SERVER_API } from "./apis";
import type { CanonicalSpec } from "./canonical";
import { SECTION_OF_API } from "./schema-v1alpha2";

export function externalConflicts(spec: CanonicalSpec): FieldError[] {
  const errors: FieldError[] = [];
  for (const e of spec.externalProviders) {
    const other = spec.providers.find((p) => p.id === e.providerId && SERVER_API[p.api] !== e.api);
    if (other) {
      errors.push(
        fieldError(
          child(e.path, "providerId"),
          `"${e.providerId}" is already the id of ${other.path} (a ${other.api} provider); an external provider replaces only a provider of its own API: use another providerId, or list it under spec.externalProviders.${other.api}`,
        ),
      );
    }
    const disabled = spec.disabled.find((d) => d.api === e.api);
    if (disabled) {
      errors.push(
        fieldError(
          e.path,
          `${SECTION_OF_API.get(e.api) ?? e.api} is disabled (${disabled.path}), so this external provider would never be loaded; remove it, or remove "${disabled.written}" from disabled`,
        ),
      );
    }
  }
  return errors;
}

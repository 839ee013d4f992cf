/** Rules of the OGX 1.x sections (files, batches, responses…) a structural schema cannot express. */
import { fieldError, type FieldError } from "../errors";
import type { CanonicalSpec, Provider } from "./canonical";
import { OGX_SECTIONS, SERVER_API, SINGLE_PROVIDER_APIS } from "./apis";

/** An API one provider serves (files, responses…): a second one in its section would never serve. */
export function singleProviderSections(providers: readonly Provider[]): FieldError[] {
  const seen = new Set<string>();
  const errors: FieldError[] = [];
  for (const p of providers) {
    const api = SERVER_API[p.api];
    if (!SINGLE_PROVIDER_APIS.has(api)) continue;
    if (seen.has(api))
      errors.push(
        fieldError(
          p.path,
          `the server serves ${api} with one provider (it starts every one listed and keeps the last); list one provider in spec.providers.${p.api}`,
        ),
      );
    seen.add(api);
  }
  return errors;
}

/** An OGX section that `disabled` also names: configured and switched off at once, the request is ambiguous. */
export function disabledSections(spec: CanonicalSpec): FieldError[] {
  return spec.disabled.flatMap((d) => {
    const section = spec.providers.find((p) => OGX_SECTIONS.has(p.api) && SERVER_API[p.api] === d.api);
    if (section === undefined) return [];
    return [
      fieldError(
        d.path,
        `${d.written} is disabled, but spec.providers.${section.api} configures it; remove "${d.written}" from disabled to serve it, or remove spec.providers.${section.api}`,
      ),
    ];
  });
}

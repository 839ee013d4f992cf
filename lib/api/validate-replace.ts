/**
 * Rules of `spec.replace` a structural schema cannot express: an API it names runs only the
 * spec's providers, so it must list some (no providers at all is what `disabled` says), and an
 * API cannot be both replaced and disabled.
 */
import { fieldError, type FieldError } from "../errors";
import type { CanonicalSpec, Replaced } from "./canonical";
import { PROVIDER_APIS, SERVER_API } from "./apis";

/** The `spec.providers` section of a server API (`vector_io` → `vectorIo`). */
const sectionOf = (api: string): string => PROVIDER_APIS.find((s) => SERVER_API[s] === api) ?? api;

function replaceRule(spec: CanonicalSpec, r: Replaced, earlier: readonly Replaced[]): FieldError[] {
  const twice = earlier.find((e) => e.name === r.name);
  if (twice) return [fieldError(r.path, `${r.written} is already in replace (as "${twice.written}"); list it once`)];
  if (r.kind !== "api") return [];
  const section = sectionOf(r.name);
  if (spec.disabled.some((d) => d.api === r.name))
    return [
      fieldError(
        r.path,
        `${r.written} is both replaced and disabled; keep it in replace to run only spec.providers.${section}, or in disabled to run none`,
      ),
    ];
  if (spec.providers.some((p) => SERVER_API[p.api] === r.name)) return [];
  return [
    fieldError(
      r.path,
      `replace keeps only the providers spec.providers.${section} lists, and it lists none; add them there, or put ${r.written} in spec.disabled to run the server without that API`,
    ),
  ];
}

export function replaceRules(spec: CanonicalSpec): FieldError[] {
  return spec.replace.flatMap((r, i) => replaceRule(spec, r, spec.replace.slice(0, i)));
}

/**
 * The spec's requests a server line cannot serve (the Safety API on 1.x, skills before 1.x): an
 * error naming the field and what to use instead. Base configs written for another line are
 * adapted, not refused (lib/config/dialect.ts).
 */
import { child, fieldError, type FieldError } from "../errors";
import { SERVER_API, type ProviderApi } from "./apis";
import type { CanonicalSpec } from "./canonical";
import type { Release } from "../distributions/table";
import { hasSafety, linesWithApi, RELEASE_APIS, SAFETY_ALTERNATIVES } from "../distributions/releases";

/** The spec's requests the line cannot serve. */
export function dialectErrors(spec: CanonicalSpec, release: Release): FieldError[] {
  return missingApis(spec, release).concat(safetyErrors(spec, release));
}

/** A section of an API the line's server does not have (messages on 0.7, skills before 1.x): once, at the section. */
function missingApis(spec: CanonicalSpec, release: Release): FieldError[] {
  const sections = new Set<ProviderApi>();
  for (const p of spec.providers) {
    const api = SERVER_API[p.api];
    if (p.api !== "telemetry" && p.api !== "safety" && !RELEASE_APIS[release].includes(api)) sections.add(p.api);
  }
  return [...sections].map((section) => {
    const api = SERVER_API[section];
    const lines = linesWithApi(api).map((r) => `${r}.x`);
    return fieldError(
      child("spec.providers", section),
      `the ${release} server line has no ${api} API (the lines that have it: ${lines.join(", ")}); remove spec.providers.${section}, or run an image of one of those lines (distribution.image)`,
    );
  });
}

function safetyErrors(spec: CanonicalSpec, release: Release): FieldError[] {
  // A spec that disables safety itself asks for nothing: its safety entries are ignored on every line.
  if (hasSafety(release) || spec.disabled.some((d) => d.api === "safety")) return [];
  const gone = `the ${release} server line has no Safety API (removed in OGX 1.0)`;
  return [
    ...spec.providers
      .filter((p) => p.api === "safety")
      .map((p) => fieldError(p.path, `${gone}: remove this provider; ${SAFETY_ALTERNATIVES}`)),
    ...spec.resources.shields.map((s) =>
      fieldError(s.path, `${gone}, so shields cannot be registered: remove it; ${SAFETY_ALTERNATIVES}`),
    ),
    ...spec.externalProviders
      .filter((e) => e.api === "safety")
      .map((e) => fieldError(e.path, `${gone}: remove this external provider; ${SAFETY_ALTERNATIVES}`)),
  ];
}

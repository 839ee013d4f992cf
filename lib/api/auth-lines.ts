/**
 * Which server lines have each piece of `spec.auth` (read from each tag's config classes:
 * tests/fixtures/server-schemas/). A spec that asks a line for a piece it lacks is refused
 * with the field path and the lines that have it.
 */
import { child, fieldError, type FieldError } from "../errors";
import type { AuthInput } from "./auth-types";
import type { CanonicalSpec } from "./canonical";
import { AUTH_PATH } from "./normalize-auth";
import { RELEASES, type Release } from "../distributions/table";

interface Piece {
  /** Field path under spec.auth. */
  readonly path: string;
  readonly set: (auth: AuthInput) => boolean;
  /** The first line whose server reads it. */
  readonly since: Release;
  /** What the server calls it, for the message. */
  readonly server: string;
}

const PIECES: readonly Piece[] = [
  { path: "upstreamHeader", set: (a) => a.upstreamHeader !== undefined, since: "0.8", server: "upstream_header auth" },
  {
    path: "upstreamHeader.tenantHeader",
    set: (a) => a.upstreamHeader?.tenantHeader !== undefined,
    since: "1.2",
    server: "tenant_header",
  },
  {
    path: "upstreamHeader.attributeHeaders",
    set: (a) => a.upstreamHeader?.attributeHeaders !== undefined,
    since: "1.2",
    server: "attribute_headers",
  },
  {
    path: "kubernetes.tenantClaim",
    set: (a) => a.kubernetes?.tenantClaim !== undefined,
    since: "1.2",
    server: "tenant_claim",
  },
  { path: "oidc.tenantClaim", set: (a) => a.oidc?.tenantClaim !== undefined, since: "1.2", server: "tenant_claim" },
  { path: "custom.tenantField", set: (a) => a.custom?.tenantField !== undefined, since: "1.2", server: "tenant_field" },
  { path: "tenancy", set: (a) => a.tenancy !== undefined, since: "1.2", server: "server.tenancy" },
];

/** Lines in release order, so "since" is an index comparison. */
function linesFrom(since: Release): Release[] {
  return RELEASES.slice(RELEASES.indexOf(since));
}

export function hasAuthPiece(release: Release, since: Release): boolean {
  return RELEASES.indexOf(release) >= RELEASES.indexOf(since);
}

/** The pieces of `spec.auth` the CR's server line does not have. */
export function authLineErrors(spec: CanonicalSpec, release: Release): FieldError[] {
  const auth = spec.auth?.input;
  if (!auth) return [];
  return PIECES.filter((p) => p.set(auth) && !hasAuthPiece(release, p.since)).map((p) =>
    fieldError(
      child(AUTH_PATH, p.path),
      `the ${release} server line has no ${p.server}: remove it, or run a line that has it (${linesFrom(p.since).join(", ")})`,
    ),
  );
}

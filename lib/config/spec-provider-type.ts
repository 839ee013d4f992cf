/**
 * The type a spec provider gets, the same for every check and for generation: the line's type
 * table (provider-types.ts), except for one case. A name no type of the line matches is not
 * refused when an external provider of the same API has the provider's id: the image's type
 * replaces the entry (docs/external-providers.md), so the name never reaches the server. A note
 * says so.
 */
import { SERVER_API } from "../api/apis";
import type { ExternalProvider, Provider } from "../api/canonical";
import type { Release } from "../distributions/table";
import { resolveProviderType, type ResolvedType } from "./provider-types";

export function specProviderType(p: Provider, release: Release, externals: readonly ExternalProvider[]): ResolvedType {
  const api = SERVER_API[p.api];
  const resolved = resolveProviderType(api, p.provider, p.endpoint !== undefined, release);
  if (resolved.unregistered !== true) return resolved;
  const external = externals.find((e) => e.api === api && e.providerId === p.id);
  if (external === undefined) return resolved;
  return {
    type: resolved.type,
    info: resolved.info,
    known: false,
    note: `provider "${p.provider}" is no ${api} type of ${release}.x servers; ${external.path} has the same id and replaces it with the type its image names`,
  };
}

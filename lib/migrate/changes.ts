/**
 * What moving a CR from one server line to another changes, in the order a user acts on it: the
 * APIs, the provider types its own providers resolve to, and where the server keeps its state.
 * Read from the same tables the generator uses (lib/distributions/releases.ts, lib/config/provider-types.ts).
 * Pure.
 */
import type { CanonicalSpec } from "../api/canonical";
import { SERVER_API } from "../api/apis";
import { resolveProviderType } from "../config/provider-types";
import { LINE_STARTUP, RELEASE_APIS } from "../distributions/releases";
import type { Release } from "../distributions/table";

const listed = (names: readonly string[]): string => (names.length === 0 ? "none" : names.join(", "));

/** One line per kind of change, from `from` to `to`. */
export function lineChanges(spec: CanonicalSpec, from: Release, to: Release): string[] {
  const removed = RELEASE_APIS[from].filter((api) => !RELEASE_APIS[to].includes(api));
  const added = RELEASE_APIS[to].filter((api) => !RELEASE_APIS[from].includes(api));
  return [
    `APIs removed: ${listed(removed)}; APIs added: ${listed(added)}`,
    ...providerChanges(spec, from, to),
    stateChange(from, to),
  ];
}

/** Each provider of the spec whose type differs between the lines, or is refused on `to`. */
function providerChanges(spec: CanonicalSpec, from: Release, to: Release): string[] {
  const changes = spec.providers.flatMap((p) => {
    const api = SERVER_API[p.api];
    if (!RELEASE_APIS[to].includes(api))
      return [`provider ${p.path} (${p.provider}): the ${api} API does not exist on ${to}`];
    const hasEndpoint = p.endpoint !== undefined;
    const before = resolveProviderType(api, p.provider, hasEndpoint, from);
    const after = resolveProviderType(api, p.provider, hasEndpoint, to);
    if (after.error !== undefined) return [`provider ${p.path} (${p.provider}): ${after.error}`];
    if (before.type === after.type) return [];
    return [`provider ${p.path} (${p.provider}): ${before.type} on ${from} becomes ${after.type} on ${to}`];
  });
  if (changes.length > 0) return changes;
  return [`provider types: ${spec.providers.length === 0 ? "the CR configures no providers" : "none change"}`];
}

function stateChange(from: Release, to: Release): string {
  const before = LINE_STARTUP[from].stateDir;
  const after = LINE_STARTUP[to].stateDir;
  if (before === after) return `state: ~/${after} on both lines, on the same volume: the ${to} server reads it`;
  return `state: ~/${before} (${from}) becomes ~/${after} (${to}): the ${to} server does not read the ${from} state (registered resources, conversations, files, vector stores) and starts without it; the old data stays on the volume until you remove it`;
}

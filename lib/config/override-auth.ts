/**
 * An exposed server whose overrideConfig has no `server.auth.provider_config` asks nobody who
 * they are, as a generated one without `spec.auth` does: the same warning
 * (lib/api/validate-auth.ts `exposedWithoutAuth`), at the same field, pointing at the ConfigMap,
 * where the fix goes (the hooks do not own that file). Said in the status by the sync hook, and
 * by `llsd validate` with the ConfigMap beside the CR; admission, which sees no ConfigMap, says
 * that it did not check. An override whose server believes a gateway's headers is refused
 * where anyone else could reach it (`overrideForgeable`).
 */
import type { CanonicalSpec } from "../api/canonical";
import { EXPOSED_WITHOUT_AUTH } from "../api/validate-auth";
import { forgeable, gatewayBypasses } from "../api/validate-auth-trust";
import { fieldError, type FieldError } from "../errors";
import type { JsonMap } from "../json";
import { isPlainObject } from "../json";

const EXPOSE_PATH = "spec.networking.expose";

/** `server.auth.provider_config`, when the config has one (`server.auth` with only a route_policy authenticates nobody). */
function providerConfig(parsed: JsonMap): JsonMap | undefined {
  const server = parsed.server;
  const auth = isPlainObject(server) ? server.auth : undefined;
  return isPlainObject(auth) && isPlainObject(auth.provider_config) ? auth.provider_config : undefined;
}

function authenticates(parsed: JsonMap): boolean {
  return providerConfig(parsed) !== undefined;
}

/** Whether the config's server believes a gateway's identity headers (`upstream_header`). */
export function trustsGatewayHeaders(parsed: JsonMap): boolean {
  return providerConfig(parsed)?.type === "upstream_header";
}

/**
 * An override whose server believes a gateway's headers (`upstream_header`) is refused where a
 * spec.auth.upstreamHeader one is (lib/api/validate-auth-trust.ts): exposed, without a policy,
 * open to every namespace or source. By the sync hook and by `llsd validate` with the ConfigMap.
 */
export function overrideForgeable(spec: CanonicalSpec, configMapName: string, parsed: JsonMap): FieldError[] {
  const provider = providerConfig(parsed);
  if (!trustsGatewayHeaders(parsed) || provider === undefined) return [];
  const header = typeof provider.principal_header === "string" ? provider.principal_header : "principal";
  return gatewayBypasses(spec, forgeable(`with upstream_header auth in ConfigMap ${configMapName}`, header));
}

/** The warning for an exposed override whose config (parsed) has no auth provider. */
export function overrideExposedWithoutAuth(spec: CanonicalSpec, configMapName: string, parsed: JsonMap): FieldError[] {
  if (!spec.networking.expose.enabled || authenticates(parsed)) return [];
  return [
    fieldError(
      EXPOSE_PATH,
      `${EXPOSED_WITHOUT_AUTH}: set server.auth in ConfigMap ${configMapName} (mounted as is; docs/auth.md)`,
    ),
  ];
}

/** Admission sees no ConfigMap: an exposed override's auth was not checked, and it says so. */
export function overrideAuthUnseen(spec: CanonicalSpec, configMapName: string): FieldError[] {
  if (!spec.networking.expose.enabled) return [];
  return [
    fieldError(
      EXPOSE_PATH,
      `the server is reachable from outside the cluster: whether ConfigMap ${configMapName} sets server.auth was not checked here (not given); the sync hook reads it and says in the status when it asks nobody who they are (docs/auth.md)`,
    ),
  ];
}

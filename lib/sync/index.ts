/** The sync hook wired to this process: the real clock, the environment and the registry. */
import { readFileSync } from "node:fs";
import { validate } from "../api/validate";
import { DEFAULT_DISTRIBUTIONS } from "../distributions/table";
import { createBaseConfigResolver, credentialLookup, parseDockerConfigJson, type BaseConfigResolver, type CredentialLookup } from "../oci";
import type { SyncRequest, SyncResponse } from "../wire/metacontroller";
import { findBase } from "./base-source";
import { sync, type SyncDeps } from "./sync";

export { sync, type SyncDeps } from "./sync";

/** Read once: the hooks pod's namespace (downward API) and the exposure kind the overlay chose. */
export function depsFromEnv(env: NodeJS.ProcessEnv = process.env): SyncDeps {
  return {
    now: () => new Date(),
    distributions: DEFAULT_DISTRIBUTIONS,
    hooksNamespace: env.HOOKS_NAMESPACE ?? "llsd-hooks",
    exposeWith: env.LLSD_EXPOSE_WITH === "route" ? "route" : "ingress",
  };
}

/** Cluster-wide pull credentials: a dockerconfigjson file mounted into the hooks pod. */
function mountedCredentials(path: string | undefined): CredentialLookup | undefined {
  if (!path) return undefined;
  const parsed = parseDockerConfigJson(readFileSync(path, "utf8"));
  if (!parsed.ok) throw new Error(`REGISTRY_AUTH_FILE ${path}: ${parsed.error}`);
  return credentialLookup(parsed.value);
}

const list = (value: string | undefined): string[] => (value ?? "").split(",").map((s) => s.trim()).filter(Boolean);

/** The registry side: off with LLSD_READ_IMAGE_LABELS=false (then bundled configs only). */
export function resolverFromEnv(env: NodeJS.ProcessEnv = process.env): BaseConfigResolver | undefined {
  if (env.LLSD_READ_IMAGE_LABELS === "false") return undefined;
  const credentials = mountedCredentials(env.REGISTRY_AUTH_FILE);
  const allowed = list(env.ALLOWED_REGISTRIES);
  return createBaseConfigResolver({
    insecureRegistries: list(env.INSECURE_REGISTRIES),
    ...(allowed.length > 0 ? { allowedRegistries: allowed } : {}),
    ...(credentials ? { credentials } : {}),
  });
}

/** Resolve the base config (the only I/O), then run the pure sync. */
export async function syncWith(request: SyncRequest, deps: SyncDeps, resolver: BaseConfigResolver | undefined): Promise<SyncResponse> {
  const checked = resolver ? validate((request.parent as { spec?: unknown }).spec, { distributions: deps.distributions }) : undefined;
  if (!resolver || !checked?.spec || checked.errors.length > 0) return sync(request, deps);
  return sync(request, deps, await findBase(checked.spec, deps.distributions, resolver, request.related));
}

const deps = depsFromEnv();
const resolver = resolverFromEnv();

export async function syncHook(request: SyncRequest): Promise<SyncResponse> {
  return syncWith(request, deps, resolver);
}

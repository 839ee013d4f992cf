/** The sync hook wired to this process's environment: the real clock and configuration. */
import { DEFAULT_DISTRIBUTIONS } from "../distributions/table";
import type { SyncRequest, SyncResponse } from "../wire/metacontroller";
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

const deps = depsFromEnv();

export async function syncHook(request: SyncRequest): Promise<SyncResponse> {
  return sync(request, deps);
}

/** The one server container: image, named port, env, mounts, probes, resources, hardening. */
import type { V1Container } from "@kubernetes/client-node";
import { listenPort } from "../defaults";
import { CONTAINER_NAME, OGX_CONTAINER_NAME, SERVICE_PORT_NAME } from "../names";
import type { ChildContext } from "./context";
import { buildEnv } from "./env";
import { metricsContainerPorts } from "./metrics";
import { legacyStartupProbe, livenessProbe, readinessProbe, startupProbe } from "./probes";
import { buildResources } from "./resources";
import { serverSecurityContext } from "./security-context";
import { STARTUP_COMMAND } from "./startup-script";
import { buildVolumeMounts } from "./volumes";

/**
 * Without a user command the image entrypoint runs RUN_CONFIG_PATH (or its own default), with
 * the arguments the server line needs (`--insecure` for plain HTTP on 1.x). A
 * v1alpha1 CR with userConfig runs the Go operator's startup script instead (args emptied, as
 * it did); the user's command and args still win.
 */
function commandAndArgs(ctx: ChildContext): Pick<V1Container, "command" | "args"> {
  const overrides = ctx.spec.workload.overrides ?? {};
  if (ctx.legacy !== undefined) return legacyCommandAndArgs(overrides, ctx.config?.source === "override");
  const args = overrides.args ?? (overrides.command || !ctx.serverArgs?.length ? undefined : ctx.serverArgs);
  return { command: overrides.command ? [...overrides.command] : undefined, args: args ? [...args] : undefined };
}

type Overrides = { readonly command?: readonly string[]; readonly args?: readonly string[] };

/** The Go operator: the script with userConfig (`script`); a non-empty user command or args replaces it. */
function legacyCommandAndArgs(overrides: Overrides, script: boolean): Pick<V1Container, "command" | "args"> {
  const command = nonEmpty(overrides.command) ?? (script ? [...STARTUP_COMMAND] : undefined);
  const args = nonEmpty(overrides.args) ?? (script ? [] : undefined);
  return { command, args };
}

function nonEmpty(list: readonly string[] | undefined): string[] | undefined {
  return list !== undefined && list.length > 0 ? [...list] : undefined;
}

/** Ours; a v1alpha1 CR's own; the OGX operator's in a Deployment taken over from it (containers merge by name). */
export function serverContainerName(ctx: ChildContext): string {
  return ctx.ogxTakeover ? OGX_CONTAINER_NAME : (ctx.legacy?.containerName ?? CONTAINER_NAME);
}

/** `command` and `args` are assigned in their place, when set, rather than spread in (every sync builds this). */
export function buildContainer(ctx: ChildContext): V1Container {
  const { networking, workload } = ctx.spec;
  const tls = networking.tls.enabled;
  const container: V1Container = { name: serverContainerName(ctx), image: ctx.image };
  const { command, args } = commandAndArgs(ctx);
  if (command) container.command = command;
  if (args) container.args = args;
  // Named, so the Service's targetPort and the probes follow a port change.
  container.ports = [
    { name: SERVICE_PORT_NAME, containerPort: listenPort(networking.port), protocol: "TCP" },
    ...metricsContainerPorts(ctx),
  ];
  container.env = buildEnv(ctx);
  container.volumeMounts = buildVolumeMounts(ctx);
  container.startupProbe = ctx.legacy ? legacyStartupProbe(tls) : startupProbe(tls);
  container.livenessProbe = livenessProbe(tls);
  container.readinessProbe = readinessProbe(tls);
  container.resources = buildResources(workload);
  container.securityContext = serverSecurityContext();
  return container;
}

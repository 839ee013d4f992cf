/** The one server container: image, named port, env, mounts, probes, resources, hardening. */
import type { V1Container } from "@kubernetes/client-node";
import { CONTAINER_NAME, SERVICE_PORT_NAME } from "../names";
import type { ChildContext } from "./context";
import { buildEnv } from "./env";
import { readinessProbe, startupProbe } from "./probes";
import { buildResources } from "./resources";
import { buildVolumeMounts } from "./volumes";

export function buildContainer(ctx: ChildContext): V1Container {
  const { networking, workload } = ctx.spec;
  const overrides = workload.overrides ?? {};
  const tls = networking.tls.enabled;
  return {
    name: CONTAINER_NAME,
    image: ctx.image,
    // Without a user command the image entrypoint runs RUN_CONFIG_PATH (or its own default).
    ...(overrides.command ? { command: [...overrides.command] } : {}),
    ...(overrides.args ? { args: [...overrides.args] } : {}),
    // Named, so the Service's targetPort and the probes follow a port change.
    ports: [{ name: SERVICE_PORT_NAME, containerPort: networking.port, protocol: "TCP" }],
    env: buildEnv(ctx),
    volumeMounts: buildVolumeMounts(ctx),
    startupProbe: startupProbe(tls),
    readinessProbe: readinessProbe(tls),
    resources: buildResources(workload),
    securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ["ALL"] } },
  };
}

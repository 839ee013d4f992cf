/** ClusterIP Service `<name>-service`, always (the Go operator skipped it without a port or env; status needs it). */
import type { V1Service } from "@kubernetes/client-node";
import { names, SERVICE_PORT_NAME } from "../names";
import type { ChildContext } from "./context";
import { childMeta } from "./meta";
import { metricsServicePorts } from "./metrics";
import { podSelectorLabels } from "./selector";

export function buildService(ctx: ChildContext): V1Service {
  return {
    apiVersion: "v1",
    kind: "Service",
    metadata: childMeta(ctx, names.service(ctx.name)),
    spec: {
      type: "ClusterIP",
      selector: podSelectorLabels(ctx),
      // targetPort by name follows the container port through a port change. A v1alpha1 CR and a
      // takeover from the OGX operator keep the number, as those operators wrote it: their running
      // pods have an unnamed port, and a name they lack would leave the Service without endpoints
      // from a takeover until new pods are ready.
      ports: [
        {
          name: SERVICE_PORT_NAME,
          port: ctx.spec.networking.port,
          targetPort: ctx.legacy || ctx.ogxTakeover ? ctx.spec.networking.port : SERVICE_PORT_NAME,
          protocol: "TCP",
        },
        ...metricsServicePorts(ctx),
      ],
    },
  };
}

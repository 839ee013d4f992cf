/** ClusterIP Service `<name>-service`, always (the Go operator skipped it without a port or env; status needs it). */
import type { V1Service } from "@kubernetes/client-node";
import { names, selectorLabels, SERVICE_PORT_NAME } from "../names";
import type { ChildContext } from "./context";
import { childMeta } from "./meta";
import { metricsServicePorts } from "./metrics";

export function buildService(ctx: ChildContext): V1Service {
  return {
    apiVersion: "v1",
    kind: "Service",
    metadata: childMeta(ctx, names.service(ctx.name)),
    spec: {
      type: "ClusterIP",
      selector: selectorLabels(ctx.name),
      // targetPort by name follows the container port through a port change. A v1alpha1 CR keeps
      // the number, as the Go operator wrote it: its running pods have an unnamed port, and a
      // name they lack would leave the Service without endpoints from a takeover until new pods are ready.
      ports: [
        {
          name: SERVICE_PORT_NAME,
          port: ctx.spec.networking.port,
          targetPort: ctx.legacy ? ctx.spec.networking.port : SERVICE_PORT_NAME,
          protocol: "TCP",
        },
        ...metricsServicePorts(ctx),
      ],
    },
  };
}

/** ClusterIP Service `<name>-service`, always (the Go operator skipped it without a port or env; status needs it). */
import type { V1Service } from "@kubernetes/client-node";
import { names, selectorLabels, SERVICE_PORT_NAME } from "../names";
import type { ChildContext } from "./context";
import { childMeta, labelsOf } from "./meta";

export function buildService(ctx: ChildContext): V1Service {
  return {
    apiVersion: "v1",
    kind: "Service",
    metadata: childMeta(ctx, names.service(ctx.name)),
    spec: {
      type: "ClusterIP",
      selector: labelsOf(selectorLabels(ctx.name)),
      // targetPort by name: it follows the container port without a second number to keep in step.
      ports: [{ name: SERVICE_PORT_NAME, port: ctx.spec.networking.port, targetPort: SERVICE_PORT_NAME, protocol: "TCP" }],
    },
  };
}

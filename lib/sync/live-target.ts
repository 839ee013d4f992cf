/**
 * Which server to ask for live status, from the observed children alone: the running pods are
 * what answer, so the port is the observed Service's (not a spec that may have changed or be
 * invalid) and TLS is what the observed probes use. No ready pod, no Service: nobody to ask.
 */
import { createHash } from "node:crypto";
import type { LiveTarget } from "../live/types";
import { serviceDnsUrl } from "../names";
import type { SyncRequest } from "../wire/metacontroller";
import { observedOf, servesHttps, type Observed } from "../status/observed";

export function liveTargetOf(request: SyncRequest, observed: Observed = observedOf(request)): LiveTarget | undefined {
  const m = request.parent.metadata;
  const namespace = m.namespace ?? "default";
  const deployment = observed.deployment;
  const port = observed.service?.port;
  if (!deployment || deployment.readyReplicas === 0 || port === undefined) return undefined;
  const tls = servesHttps(observed);
  const url = serviceDnsUrl(m.name, namespace, port, tls);
  const fingerprint = createHash("sha256")
    .update(
      JSON.stringify([m.uid ?? "", url, deployment.template, deployment.updatedReplicas, deployment.readyReplicas]),
    )
    .digest("hex");
  return { key: `${namespace}/${m.name}`, url, fingerprint, tls };
}

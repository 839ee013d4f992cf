/**
 * Which server to ask for live status, from the observed children alone: the running pods are
 * what answer, so the port is the observed Service's (not a spec that may have changed or be
 * invalid) and TLS is what the observed probes use. No ready pod, no Service: nobody to ask.
 */
import { createHash } from "node:crypto";
import type { LiveTarget } from "../live/types";
import { names } from "../names";
import { KEYS, lookup, type SyncRequest } from "../wire/metacontroller";

type ProbeOwner = {
  startupProbe?: { httpGet?: { scheme?: string } };
  readinessProbe?: { httpGet?: { scheme?: string } };
};
type DeploymentShape = {
  spec?: { template?: { spec?: { containers?: ProbeOwner[] } } };
  status?: { readyReplicas?: number; updatedReplicas?: number };
};

/** Ready pods of the observed Deployment (0 when there is none). */
export function readyReplicas(request: SyncRequest): number {
  const m = request.parent.metadata;
  const deployment = lookup(request.children, KEYS.deployment, m.namespace ?? "default", names.deployment(m.name)) as
    DeploymentShape | undefined;
  return deployment?.status?.readyReplicas ?? 0;
}

export function serviceDnsUrl(name: string, namespace: string, port: number, tls = false): string {
  return `${tls ? "https" : "http"}://${names.service(name)}.${namespace}.svc.cluster.local:${port}`;
}

export function liveTargetOf(request: SyncRequest): LiveTarget | undefined {
  const m = request.parent.metadata;
  const namespace = m.namespace ?? "default";
  const deployment = lookup(request.children, KEYS.deployment, namespace, names.deployment(m.name)) as
    DeploymentShape | undefined;
  const ready = deployment?.status?.readyReplicas ?? 0;
  if (!deployment || ready === 0) return undefined;
  const service = lookup(request.children, KEYS.service, namespace, names.service(m.name));
  const port = (service?.spec as { ports?: { port?: unknown }[] } | undefined)?.ports?.[0]?.port;
  if (typeof port !== "number") return undefined;
  const containers = deployment.spec?.template?.spec?.containers ?? [];
  const tls = containers.some(
    (c) => c.startupProbe?.httpGet?.scheme === "HTTPS" || c.readinessProbe?.httpGet?.scheme === "HTTPS",
  );
  const url = serviceDnsUrl(m.name, namespace, port, tls);
  const fingerprint = createHash("sha256")
    .update(
      JSON.stringify([
        m.uid ?? "",
        url,
        deployment.spec?.template ?? {},
        deployment.status?.updatedReplicas ?? 0,
        ready,
      ]),
    )
    .digest("hex");
  return { key: `${namespace}/${m.name}`, url, fingerprint, tls };
}

/**
 * The pod's volumes and the server container's mounts: state (PVC or emptyDir), the config
 * file, the TLS Secret, then the user's own, which replace ours when they reuse a name
 * (volumes) or a path (mounts) — e.g. an `lls-storage` volume that points at an existing PVC.
 */
import type { V1Volume, V1VolumeMount } from "@kubernetes/client-node";
import { CONFIG_FILE_NAME, CONFIG_MOUNT_DIR, TLS_MOUNT_DIR } from "../defaults";
import { names } from "../names";
import type { ChildContext } from "./context";
import { upsertBy } from "../lists";
import { passThrough, storageMountPath } from "./workload";

/** Volume names; `lls-storage` is the Go operator's, so a takeover keeps the same pod shape. */
export const STORAGE_VOLUME = "lls-storage";
export const CONFIG_VOLUME = "config";
export const TLS_VOLUME = "tls";

function ourVolumes(ctx: ChildContext): V1Volume[] {
  const { workload, networking } = ctx.spec;
  const tlsSecret = networking.tls.enabled ? networking.tls.secretName : undefined;
  return [
    workload.storage
      ? { name: STORAGE_VOLUME, persistentVolumeClaim: { claimName: names.pvc(ctx.name) } }
      : { name: STORAGE_VOLUME, emptyDir: {} },
    // Only config.yaml is projected: an override ConfigMap's other keys stay out of the server's view.
    ...(ctx.config ? [{ name: CONFIG_VOLUME, configMap: { name: ctx.config.configMapName, items: [{ key: CONFIG_FILE_NAME, path: CONFIG_FILE_NAME }] } }] : []),
    ...(tlsSecret !== undefined ? [{ name: TLS_VOLUME, secret: { secretName: tlsSecret } }] : []),
  ];
}

function ourMounts(ctx: ChildContext): V1VolumeMount[] {
  const tls = ctx.spec.networking.tls;
  return [
    { name: STORAGE_VOLUME, mountPath: storageMountPath(ctx.spec.workload) },
    ...(ctx.config ? [{ name: CONFIG_VOLUME, mountPath: CONFIG_MOUNT_DIR, readOnly: true }] : []),
    // Nested under the config mount: the kubelet creates nested mount points inside
    // configMap volumes, so the TLS files sit next to config.yaml's directory.
    ...(tls.enabled && tls.secretName !== undefined ? [{ name: TLS_VOLUME, mountPath: TLS_MOUNT_DIR, readOnly: true }] : []),
  ];
}

export function buildVolumes(ctx: ChildContext): V1Volume[] {
  return upsertBy(ourVolumes(ctx), passThrough<V1Volume>(ctx.spec.workload.overrides?.volumes), "name");
}

export function buildVolumeMounts(ctx: ChildContext): V1VolumeMount[] {
  return upsertBy(ourMounts(ctx), passThrough<V1VolumeMount>(ctx.spec.workload.overrides?.volumeMounts), "mountPath");
}

/**
 * The pod's volumes and the server container's mounts: state (PVC or emptyDir), the config
 * file, the TLS Secret, the CA bundle, then the user's own, which replace ours when they reuse
 * a name (volumes) or a path (mounts) — e.g. an `lls-storage` volume that points at an existing
 * PVC. Volume names follow the Go operator where it had the same volume (`lls-storage`,
 * `ca-bundle`, `user-config`), so Metacontroller's first apply over a taken-over Deployment
 * merges into its volumes instead of adding a second one next to them. A Deployment taken over
 * from the OGX operator gets that operator's names (`ogx-storage`, `user-config`) for the same
 * reason: its state volume stays one volume, and its config volume then holds our config, so no
 * mount is left pointing at the OGX operator's generated ConfigMap.
 */
import type { V1ConfigMapVolumeSource, V1Volume, V1VolumeMount } from "@kubernetes/client-node";
import { CONFIG_FILE_NAME, CONFIG_MOUNT_DIR, TLS_MOUNT_DIR } from "../defaults";
import { names } from "../names";
import { CA_BUNDLE_KEY, CA_BUNDLE_MOUNT_DIR, CA_BUNDLE_VOLUME } from "./ca-bundle";
import type { ChildContext, MountedConfig } from "./context";
import { externalServerMounts, externalVolumes } from "./external-providers";
import { upsertBy } from "../lists";
import { passThrough, storageMountPath } from "./workload";

export const STORAGE_VOLUME = "lls-storage";
/** The OGX operator's names for the state and config volumes (controllers/resource_helper.go at ogx-k8s-operator 1784464). */
export const OGX_STORAGE_VOLUME = "ogx-storage";
export const OGX_CONFIG_VOLUME = "user-config";
export const CONFIG_VOLUME = "config";
export const TLS_VOLUME = "tls";
/** A v1alpha1 CR's userConfig: the whole ConfigMap, mounted as the Go operator did. */
export const USER_CONFIG_VOLUME = "user-config";
/** The Go operator's mount path for it (with the trailing slash it wrote). */
export const USER_CONFIG_MOUNT_DIR = `${CONFIG_MOUNT_DIR}/`;

const storageVolumeName = (ctx: ChildContext): string => (ctx.ogxTakeover ? OGX_STORAGE_VOLUME : STORAGE_VOLUME);
const configVolumeName = (ctx: ChildContext): string => (ctx.ogxTakeover ? OGX_CONFIG_VOLUME : CONFIG_VOLUME);

function storageVolume(ctx: ChildContext): V1Volume {
  const name = storageVolumeName(ctx);
  return ctx.spec.workload.storage
    ? { name, persistentVolumeClaim: { claimName: names.pvc(ctx.name) } }
    : { name, emptyDir: {} };
}

function caVolume(ctx: ChildContext): V1Volume[] {
  return ctx.caBundle
    ? [
        {
          name: CA_BUNDLE_VOLUME,
          configMap: { name: ctx.caBundle.configMapName, items: [{ key: CA_BUNDLE_KEY, path: CA_BUNDLE_KEY }] },
        },
      ]
    : [];
}

const CA_MOUNT: V1VolumeMount = { name: CA_BUNDLE_VOLUME, mountPath: CA_BUNDLE_MOUNT_DIR, readOnly: true };

/** The whole ConfigMap, as the Go operator mounted it; another key than config.yaml is projected to config.yaml. */
function legacyConfigSource(config: MountedConfig): V1ConfigMapVolumeSource {
  const key = config.key ?? CONFIG_FILE_NAME;
  return key === CONFIG_FILE_NAME
    ? { name: config.configMapName }
    : { name: config.configMapName, items: [{ key, path: CONFIG_FILE_NAME }] };
}

/** v1alpha1: storage, CA bundle, user config — the Go operator's order and shapes. */
function legacyVolumes(ctx: ChildContext): V1Volume[] {
  return [
    storageVolume(ctx),
    ...caVolume(ctx),
    ...(ctx.config ? [{ name: USER_CONFIG_VOLUME, configMap: legacyConfigSource(ctx.config) }] : []),
  ];
}

function legacyMounts(ctx: ChildContext): V1VolumeMount[] {
  return [
    { name: STORAGE_VOLUME, mountPath: storageMountPath(ctx.spec.workload) },
    ...(ctx.config ? [{ name: USER_CONFIG_VOLUME, mountPath: USER_CONFIG_MOUNT_DIR, readOnly: true }] : []),
    ...(ctx.caBundle ? [{ ...CA_MOUNT }] : []),
  ];
}

function ourVolumes(ctx: ChildContext): V1Volume[] {
  if (ctx.legacy) return legacyVolumes(ctx);
  const { networking } = ctx.spec;
  const tlsSecret = networking.tls.enabled ? networking.tls.secretName : undefined;
  return [
    storageVolume(ctx),
    // Only config.yaml (overrideConfig.key's, when given) is projected: an override ConfigMap's other keys stay out of the server's view.
    ...(ctx.config
      ? [
          {
            name: configVolumeName(ctx),
            configMap: {
              name: ctx.config.configMapName,
              items: [{ key: ctx.config.key ?? CONFIG_FILE_NAME, path: CONFIG_FILE_NAME }],
            },
          },
        ]
      : []),
    ...(tlsSecret !== undefined ? [{ name: TLS_VOLUME, secret: { secretName: tlsSecret } }] : []),
    ...caVolume(ctx),
  ];
}

function ourMounts(ctx: ChildContext): V1VolumeMount[] {
  if (ctx.legacy) return legacyMounts(ctx);
  const tls = ctx.spec.networking.tls;
  return [
    { name: storageVolumeName(ctx), mountPath: storageMountPath(ctx.spec.workload) },
    ...(ctx.config ? [{ name: configVolumeName(ctx), mountPath: CONFIG_MOUNT_DIR, readOnly: true }] : []),
    // Nested under the config mount: the kubelet creates nested mount points inside
    // configMap volumes, so the TLS files sit next to config.yaml's directory.
    ...(tls.enabled && tls.secretName !== undefined
      ? [{ name: TLS_VOLUME, mountPath: TLS_MOUNT_DIR, readOnly: true }]
      : []),
    ...(ctx.caBundle ? [{ ...CA_MOUNT }] : []),
  ];
}

export function buildVolumes(ctx: ChildContext): V1Volume[] {
  return upsertBy(
    [...ourVolumes(ctx), ...externalVolumes(ctx)],
    passThrough<V1Volume>(ctx.spec.workload.overrides?.volumes),
    "name",
  );
}

export function buildVolumeMounts(ctx: ChildContext): V1VolumeMount[] {
  return upsertBy(
    [...ourMounts(ctx), ...externalServerMounts(ctx)],
    passThrough<V1VolumeMount>(ctx.spec.workload.overrides?.volumeMounts),
    "mountPath",
  );
}

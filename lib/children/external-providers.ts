/**
 * External providers in the pod (docs/external-providers.md). The server imports each provider's `module`,
 * so its package must be importable, with no network at start. The design:
 *
 * 1. one init container per provider, in CR order, running the provider's own image (pinned
 *    to the digest its metadata was read from): plain POSIX `sh` + `cp` of the wheels its
 *    metadata names (`/lls-provider/...`) into `wheels/<container>/` of a shared emptyDir —
 *    provider images have a shell but need not have Python;
 * 2. one last init container running the distribution image (it has the server's Python and
 *    pip): `pip install --no-index --no-deps --target site/` of those wheels, in CR order.
 *    `--no-index` means nothing is downloaded; `--no-deps` means what the distribution already
 *    has is used, and whatever else a provider needs ships as its `dependencyWheels`;
 * 3. the server container mounts the volume read-only and gets `PYTHONPATH=<dir>/site` first
 *    (a user PYTHONPATH follows it), so an external package wins over a same-named one.
 *
 * Installing with the server's own pip (rather than unpacking wheels by hand or importing them
 * as zips) gets compiled extensions, data files and dist-info right for that Python. Every init
 * container has the server container's hardening and resources (the pod's effective request is
 * the larger of the init containers and the sum of the app containers, so this adds nothing).
 */
import type { V1Container, V1EnvVar, V1Volume, V1VolumeMount } from "@kubernetes/client-node";
import type { ResolvedExternalProvider } from "../config/external-providers";
import { EXTERNAL_INSTALL_CONTAINER, externalProviderContainer } from "../names";
import { serverSecurityContext } from "./security-context";
import type { ChildContext } from "./context";
import { buildResources } from "./resources";

export const EXTERNAL_PROVIDERS_VOLUME = "external-providers";
/** Mounted in every init container and (read-only) in the server; away from the images' `/lls-provider`. */
export const EXTERNAL_PROVIDERS_DIR = "/opt/llsd-providers";
export const EXTERNAL_SITE_DIR = `${EXTERNAL_PROVIDERS_DIR}/site`;
const WHEELS_DIR = `${EXTERNAL_PROVIDERS_DIR}/wheels`;
const TMP_DIR = `${EXTERNAL_PROVIDERS_DIR}/tmp`;
/** Keeps a user's PYTHONPATH set through valueFrom, referenced after ours with `$(…)`. */
export const USER_PYTHONPATH = "LLSD_USER_PYTHONPATH";

/*
 * The scripts avoid "$(": the kubelet expands $(NAME) in command and args when NAME is a
 * variable of the container (TMPDIR, HOME are).
 */

/** $1 = destination, then the wheel files (or directories of wheels) named by the metadata. */
export const COPY_SCRIPT = `set -eu
dest="$1"
shift
rm -rf "$dest"
mkdir -p "$dest"
for w in "$@"; do
  if [ -d "$w" ]; then
    for f in "$w"/*.whl; do
      [ -e "$f" ] || { echo "llsd: no *.whl in $w (named in /lls-provider/lls-provider-spec.yaml)" >&2; exit 1; }
      cp "$f" "$dest"/
    done
  elif [ -e "$w" ]; then
    cp "$w" "$dest"/
  else
    echo "llsd: $w (named in /lls-provider/lls-provider-spec.yaml) is not in this image" >&2
    exit 1
  fi
done
ls -l "$dest"`;

/** $1 = site directory, then one wheels directory per provider, in CR order. */
export const INSTALL_SCRIPT = `set -eu
site="$1"
shift
rm -rf "$site" "$TMPDIR"
mkdir -p "$site" "$TMPDIR"
py=""
for c in python3 python; do
  if command -v "$c" >/dev/null 2>&1; then py="$c"; break; fi
done
[ -n "$py" ] || { echo "llsd: the distribution image has no python3 to install external providers with" >&2; exit 1; }
n=$#
for d in "$@"; do
  for f in "$d"/*.whl; do set -- "$@" "$f"; done
done
shift "$n"
"$py" -m pip install --no-index --no-deps --no-cache-dir --disable-pip-version-check --target "$site" "$@"
"$py" -m pip list --path "$site" --disable-pip-version-check || true`;

const MOUNT: V1VolumeMount = { name: EXTERNAL_PROVIDERS_VOLUME, mountPath: EXTERNAL_PROVIDERS_DIR };

const externals = (ctx: ChildContext): readonly ResolvedExternalProvider[] => ctx.externalProviders ?? [];
const wheelsDir = (r: ResolvedExternalProvider): string =>
  `${WHEELS_DIR}/${externalProviderContainer(r.provider.providerId)}`;

function copyContainer(ctx: ChildContext, r: ResolvedExternalProvider): V1Container {
  return {
    name: externalProviderContainer(r.provider.providerId),
    image: r.pinnedImage,
    imagePullPolicy: r.provider.imagePullPolicy ?? "IfNotPresent",
    command: ["sh", "-c", COPY_SCRIPT, "copy-wheels", wheelsDir(r), ...r.package.wheels],
    volumeMounts: [{ ...MOUNT }],
    resources: buildResources(ctx.spec.workload),
    securityContext: serverSecurityContext(),
  };
}

function installContainer(ctx: ChildContext, list: readonly ResolvedExternalProvider[]): V1Container {
  return {
    name: EXTERNAL_INSTALL_CONTAINER,
    image: ctx.image,
    command: ["sh", "-c", INSTALL_SCRIPT, "install-wheels", EXTERNAL_SITE_DIR, ...list.map(wheelsDir)],
    // pip writes temporary files; HOME keeps it from looking for a home the pod's UID lacks;
    // no pip configuration of the image applies (the install is the same everywhere).
    env: [
      { name: "TMPDIR", value: TMP_DIR },
      { name: "HOME", value: TMP_DIR },
      { name: "PIP_CONFIG_FILE", value: "/dev/null" },
      { name: "PIP_NO_INPUT", value: "1" },
    ],
    volumeMounts: [{ ...MOUNT }],
    resources: buildResources(ctx.spec.workload),
    securityContext: serverSecurityContext(),
  };
}

/** The pod's init containers: none without external providers. */
export function externalInitContainers(ctx: ChildContext): V1Container[] {
  const list = externals(ctx);
  if (list.length === 0) return [];
  return [...list.map((r) => copyContainer(ctx, r)), installContainer(ctx, list)];
}

export function externalVolumes(ctx: ChildContext): V1Volume[] {
  return externals(ctx).length > 0 ? [{ name: EXTERNAL_PROVIDERS_VOLUME, emptyDir: {} }] : [];
}

export function externalServerMounts(ctx: ChildContext): V1VolumeMount[] {
  return externals(ctx).length > 0 ? [{ name: MOUNT.name, mountPath: MOUNT.mountPath, readOnly: true }] : [];
}

/** PYTHONPATH with the installed providers first; a user's own value (or valueFrom) follows. */
export function withExternalPythonPath(ctx: ChildContext, env: readonly V1EnvVar[]): V1EnvVar[] {
  if (externals(ctx).length === 0) return [...env];
  const at = env.findIndex((e) => e.name === "PYTHONPATH");
  if (at < 0) return [...env, { name: "PYTHONPATH", value: EXTERNAL_SITE_DIR }];
  const user = env[at]!;
  if (user.valueFrom === undefined) {
    const value = user.value ? `${EXTERNAL_SITE_DIR}:${user.value}` : EXTERNAL_SITE_DIR;
    return env.map((e, i) => (i === at ? { name: "PYTHONPATH", value } : e));
  }
  // The kubelet expands $(NAME) of variables listed earlier: the user's source stays theirs.
  const ours = { name: "PYTHONPATH", value: `${EXTERNAL_SITE_DIR}:$(${USER_PYTHONPATH})` };
  return [...env.slice(0, at), { ...user, name: USER_PYTHONPATH }, ours, ...env.slice(at + 1)];
}

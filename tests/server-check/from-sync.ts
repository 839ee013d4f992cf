/**
 * From a sync answer to what the server of one line would be given: the config.yaml the
 * Deployment mounts (from a ConfigMap the hooks generated, or the user's ConfigMap in
 * `related`) and the container's environment. And a distribution table that runs every named
 * distribution on one chosen server line, so each sample is synced for every line.
 */
import { CONFIG_VOLUME, USER_CONFIG_VOLUME } from "../../lib/children/volumes";
import { schemaTagOf } from "../../lib/distributions/releases";
import { DEFAULT_DISTRIBUTIONS, type DistributionTable, type Release } from "../../lib/distributions/table";
import { objectsOf, KEYS, type KubeObject, type ObjectMap, type SyncResponse } from "../../lib/wire/metacontroller";
import type { ServerCheck } from "./check";
import { containerEnv } from "./container-env";

/** The same names, on `release`: a digest carries no version, so the entry's release decides. */
export function tableFor(release: Release): DistributionTable {
  return DEFAULT_DISTRIBUTIONS.map((e) => ({
    ...e,
    image: `${e.image.replace(/[:@].*$/, "")}@sha256:${"0".repeat(64)}`,
    release,
    overridden: true as const,
  }));
}

type ConfigMapVolume = { name: string; items?: { key: string; path: string }[] };
type Pod = { spec?: { template?: { spec?: { volumes?: { name: string; configMap?: ConfigMapVolume }[] } } } };

/** The ConfigMap the Deployment mounts as config.yaml, and its key that lands there (overrideConfig.key projects another). */
function mountedConfigMap(children: readonly KubeObject[]): { name: string; key: string } | undefined {
  const deployment = children.find((c) => c.kind === "Deployment") as Pod | undefined;
  const volumes = deployment?.spec?.template?.spec?.volumes ?? [];
  const source = volumes.find((v) => v.name === CONFIG_VOLUME || v.name === USER_CONFIG_VOLUME)?.configMap;
  if (source?.name === undefined) return undefined;
  const key = source.items?.find((item) => item.path === "config.yaml")?.key ?? "config.yaml";
  return { name: source.name, key };
}

/**
 * The check for one answer, or undefined when the server runs its image's own config (nothing
 * mounted) or the sync failed (no Deployment).
 */
export function serverCheckOf(
  answer: SyncResponse,
  related: ObjectMap | undefined,
  release: Release,
): ServerCheck | undefined {
  const mounted = mountedConfigMap(answer.children);
  if (mounted === undefined) return undefined;
  const { name, key } = mounted;
  const configMaps = [...answer.children, ...objectsOf(related, KEYS.configMap)].filter((c) => c.kind === "ConfigMap");
  const configYaml = (configMaps.find((c) => c.metadata.name === name)?.data as { [k: string]: string } | undefined)?.[
    key
  ];
  if (configYaml === undefined) throw new Error(`the Deployment mounts ConfigMap ${name}, which holds no key ${key}`);
  return { configYaml, env: containerEnv(answer.children, objectsOf(related, KEYS.secret)), tag: schemaTagOf(release) };
}

/** A readable label for a failing check. */
export function describeFailure(label: string, problems: readonly string[]): string {
  return problems.length === 0 ? "" : `${label}:\n  ${problems.join("\n  ")}`;
}

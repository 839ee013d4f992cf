/**
 * The generated config.yaml, in a ConfigMap named after its content hash. Immutable: a new
 * config is a new ConfigMap, so running pods never see their file change under them.
 * An override ConfigMap belongs to the user and is only mounted, never emitted.
 */
import type { V1ConfigMap } from "@kubernetes/client-node";
import { CONFIG_FILE_NAME } from "../defaults";
import { CONFIG_HASH_ANNOTATION } from "../names";
import type { ChildContext } from "./context";
import { childMeta } from "./meta";

export function buildConfigMap(ctx: ChildContext): V1ConfigMap | undefined {
  const config = ctx.config;
  if (config?.source !== "generated" || config.configYaml === undefined) return undefined;
  return {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: childMeta(ctx, config.configMapName, { [CONFIG_HASH_ANNOTATION]: config.hash }),
    immutable: true,
    data: { [CONFIG_FILE_NAME]: config.configYaml },
  };
}

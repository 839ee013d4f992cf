/**
 * `llamastack.io/hold-children: "true"` on a CR keeps its running children exactly as they are
 * (re-emitted as Metacontroller last applied them), whatever this version of the hooks would
 * write instead: an upgrade of the hooks, or an edit of the spec, rolls no pod of a held CR until
 * the annotation is removed (docs/upgrading.md). The status says what is held: `Ready` False
 * (`ChildrenHeld`) with how to release it, and the config and image that run, not the ones held
 * back (lib/status/held.ts). A CR with no children yet is created as usual: nothing runs to hold.
 */
import { isDeepStrictEqual } from "node:util";
import { CONFIG_HASH_ANNOTATION } from "../names";
import type { HeldStatus } from "../status/held";
import type { ConfigInUse } from "../status/status";
import type { KubeObject } from "../wire/metacontroller";
import { keptChildren } from "./keep";
import type { SyncContext } from "./answer";
import { deploymentImage } from "./target";

export const HOLD_ANNOTATION = "llamastack.io/hold-children";

export interface Hold {
  /** The observed children, re-emitted: the answer's children. */
  readonly children: KubeObject[];
  /** What the status says about it. */
  readonly note: string;
  /** What the kept children run, and the Ready message. */
  readonly status: HeldStatus;
}

const keyOf = (c: KubeObject): string => `${c.kind} ${c.metadata.name}`;

/** `Kind name (added|removed|changed)` for each child the desired list would change, in name order. */
function heldChanges(kept: readonly KubeObject[], desired: readonly KubeObject[]): string[] {
  const before = new Map(kept.map((c) => [keyOf(c), c]));
  const after = new Map(desired.map((c) => [keyOf(c), c]));
  const keys = [...new Set([...before.keys(), ...after.keys()])].sort();
  return keys.flatMap((key) => {
    const [b, a] = [before.get(key), after.get(key)];
    if (!b) return [`${key} (added)`];
    if (!a) return [`${key} (removed)`];
    // Metacontroller writes what it applied with its map keys sorted: compared regardless of key order.
    return isDeepStrictEqual(b, a) ? [] : [`${key} (changed)`];
  });
}

/** What this sync asks for besides the children: the config in use, a v1alpha1 CR's container name. */
export interface Asking {
  readonly config?: ConfigInUse;
  readonly legacyContainer?: string;
}

/** What the kept children run: their generated ConfigMap, whether it is the one asked for, their image. */
function running(ctx: SyncContext, asking: Asking): Omit<HeldStatus, "message"> {
  const config = asking.config;
  const mounted = ctx.observed.mountedConfigMap;
  const volumes = ctx.observed.deployment?.configMapVolumes ?? [];
  const asked = config && config.source !== "image-default" ? config.configMapName : undefined;
  const configMap = mounted
    ? { name: mounted.metadata.name, hash: mounted.metadata.annotations?.[CONFIG_HASH_ANNOTATION] }
    : undefined;
  return {
    configMap,
    mountsDesiredConfig: asked !== undefined ? volumes.includes(asked) : configMap === undefined,
    image: deploymentImage(ctx.observed, asking.legacyContainer),
  };
}

/** The hold this sync keeps, when the CR is held and `desired` differs from what runs. */
export function holdOf(ctx: SyncContext, desired: readonly KubeObject[], asking: Asking = {}): Hold | undefined {
  if (ctx.request.parent.metadata.annotations?.[HOLD_ANNOTATION] !== "true") return undefined;
  const kept = keptChildren(ctx.request.children);
  if (kept.length === 0) return undefined;
  const changes = heldChanges(kept, desired);
  if (changes.length === 0) return undefined;
  const { name } = ctx.parent;
  const generation = ctx.parent.generation === undefined ? "The current spec" : `Generation ${ctx.parent.generation}`;
  return {
    children: kept,
    note: `${HOLD_ANNOTATION}: the running children are kept as they are; without the annotation this sync would change ${changes.join(", ")}. Remove it to apply them`,
    status: {
      ...running(ctx, asking),
      message: `${generation} is held by the annotation ${HOLD_ANNOTATION}: the running children stay as they are (this sync would change ${changes.join(", ")}). To apply it: kubectl -n ${ctx.parent.namespace} annotate llsd ${name} ${HOLD_ANNOTATION}-`,
    },
  };
}

/**
 * `llamastack.io/hold-children: "true"` on a CR keeps its running children exactly as they are
 * (re-emitted as Metacontroller last applied them), whatever this version of the hooks would
 * write instead: an upgrade of the hooks, or an edit of the spec, rolls no pod of a held CR until
 * the annotation is removed (docs/upgrading.md). The status says what is held. A CR with no
 * children yet is created as usual: there is nothing running to hold.
 */
import { isDeepStrictEqual } from "node:util";
import type { KubeObject } from "../wire/metacontroller";
import { keptChildren } from "./keep";
import type { SyncContext } from "./answer";

export const HOLD_ANNOTATION = "llamastack.io/hold-children";

export interface Hold {
  /** The observed children, re-emitted: the answer's children. */
  readonly children: KubeObject[];
  /** What the status says about it. */
  readonly note: string;
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

/** The hold this sync keeps, when the CR is held and `desired` differs from what runs. */
export function holdOf(ctx: SyncContext, desired: readonly KubeObject[]): Hold | undefined {
  if (ctx.request.parent.metadata.annotations?.[HOLD_ANNOTATION] !== "true") return undefined;
  const kept = keptChildren(ctx.request.children);
  if (kept.length === 0) return undefined;
  const changes = heldChanges(kept, desired);
  if (changes.length === 0) return undefined;
  return {
    children: kept,
    note: `${HOLD_ANNOTATION}: the running children are kept as they are; without the annotation this sync would change ${changes.join(", ")}. Remove it to apply them`,
  };
}

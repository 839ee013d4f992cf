/**
 * What an upgrade does to one parent: its desired children before (the previous release's
 * goldens) and after (the current code), compared child by child. Pods are replaced when the
 * Deployment's pod template changes (the config hash, the CA bundle hash, or any other field of
 * it) or when the Deployment appears or goes; every other difference changes children in place.
 */
import { isPlainObject } from "../../lib/json";
import { CA_BUNDLE_HASH_ANNOTATION } from "../../lib/children/ca-bundle";
import { CONFIG_HASH_ANNOTATION } from "../../lib/names";
import { differingPaths } from "./diff";
import type { StatusChange } from "./status";

export interface ChildChange {
  /** `Kind name`. */
  readonly child: string;
  readonly change: "added" | "removed" | "changed";
  readonly paths: readonly string[];
}

export interface ParentImpact {
  readonly id: string;
  /** Why the running pods would be replaced; empty when they are kept. */
  readonly restarts: readonly string[];
  readonly changes: readonly ChildChange[];
  /** The parent turns Stalled or Failed (status.ts); undefined when its status needs no attention. */
  readonly status?: StatusChange;
}

const TEMPLATE = "spec.template";
const TEMPLATE_ANNOTATIONS = `${TEMPLATE}.metadata.annotations`;
const HASHES: { readonly [path: string]: string } = {
  [`${TEMPLATE_ANNOTATIONS}["${CONFIG_HASH_ANNOTATION}"]`]: "config hash",
  [`${TEMPLATE_ANNOTATIONS}["${CA_BUNDLE_HASH_ANNOTATION}"]`]: "CA hash",
};

function childKey(child: unknown): string {
  const kind = isPlainObject(child) && typeof child.kind === "string" ? child.kind : "?";
  const meta = isPlainObject(child) && isPlainObject(child.metadata) ? child.metadata : {};
  return `${kind} ${typeof meta.name === "string" ? meta.name : "?"}`;
}

function keyed(children: readonly unknown[]): Map<string, unknown> {
  return new Map(children.map((c) => [childKey(c), c]));
}

function childChanges(before: readonly unknown[], after: readonly unknown[]): ChildChange[] {
  const [old, now] = [keyed(before), keyed(after)];
  const keys = [...new Set([...old.keys(), ...now.keys()])].sort();
  const changes: ChildChange[] = [];
  for (const child of keys) {
    if (!now.has(child)) changes.push({ child, change: "removed", paths: [] });
    else if (!old.has(child)) changes.push({ child, change: "added", paths: [] });
    else {
      const paths = differingPaths(old.get(child), now.get(child));
      if (paths.length > 0) changes.push({ child, change: "changed", paths });
    }
  }
  return changes;
}

/** A mounted ConfigMap's name: the config's and the CA bundle's are named by their hash, so that hash explains it. */
const HASH_NAMED = /^spec\.template\.spec\.volumes\[[^\]]+\]\.configMap\.name$/;

/** Why a change of the Deployment replaces its pods, if it does. */
export function restartReasons(change: ChildChange): string[] {
  if (!change.child.startsWith("Deployment ")) return [];
  if (change.change !== "changed") return [`Deployment ${change.change}`];
  const template = change.paths.filter((p) => p === TEMPLATE || p.startsWith(`${TEMPLATE}.`));
  const hashes = template.map((p) => HASHES[p]).filter((r): r is string => r !== undefined);
  const others = template.filter((p) => HASHES[p] === undefined && !(hashes.length > 0 && HASH_NAMED.test(p)));
  return [...hashes, ...(others.length > 0 ? [`pod template (${others.join(", ")})`] : [])];
}

export function parentImpact(
  id: string,
  before: readonly unknown[],
  after: readonly unknown[],
  status?: StatusChange,
): ParentImpact {
  const changes = childChanges(before, after);
  const impact = { id, restarts: changes.flatMap(restartReasons), changes };
  return status === undefined ? impact : { ...impact, status };
}

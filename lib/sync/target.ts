/**
 * Which image a CR runs. `distribution.image` is taken as written. A `distribution.name` gets
 * the table's image — except that a server already running for the same name keeps its image:
 * a new default in the hooks (an upgrade of the hooks) never upgrades a running server by
 * itself. "Running" comes from the request only (the observed Deployment, else the previous
 * status), never from process memory, so the rule holds across restarts and the sync memo.
 *
 * The table's image is followed anyway when the operator overrode it (an explicit choice for
 * every CR of that name), or when the CR carries the annotation
 * `llamastack.io/follow-default-image: "true"` (the user's opt-in). A v1alpha1 CR that is not
 * running yet starts the Go operator's image for its name, as it would have under the Go operator.
 */
import type { CanonicalSpec } from "../api/canonical";
import { chooseLine } from "../distributions/detect";
import { parseImageRef } from "../distributions/image-ref";
import {
  findDistribution,
  GO_OPERATOR_DISTRIBUTIONS,
  type DistributionTable,
  type Release,
} from "../distributions/table";
import { isPlainObject } from "../json";
import { CONTAINER_NAME } from "../names";
import type { KubeObject, SyncRequest } from "../wire/metacontroller";
import { legacyOf } from "./legacy";
import { observedOf, type Observed } from "../status/observed";

export const FOLLOW_DEFAULT_ANNOTATION = "llamastack.io/follow-default-image";

export interface TargetImage {
  readonly image?: string;
  /** The line the table declares for an image that may not say (an operator override). */
  readonly tableRelease?: Release;
  readonly notes: readonly string[];
}

export interface TargetInput {
  readonly parent: KubeObject;
  /** The observed children (lib/sync/observed.ts); absent outside a sync (admission, `llsd validate`). */
  readonly observed?: Observed;
  readonly spec: CanonicalSpec;
  readonly table: DistributionTable;
  /**
   * The server container's name of a v1alpha1 CR (lib/sync/legacy.ts), undefined for v1alpha2.
   * A function, asked only when the answer depends on it: telling a v1alpha1 CR converts its
   * whole spec back.
   */
  readonly legacyContainer?: () => string | undefined;
}

const text = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

/** The server container's image in the observed Deployment (a v1alpha1 CR's container by its own name), if there is one. */
export function deploymentImage(observed: Observed | undefined, legacyContainer?: string): string | undefined {
  const containers = observed?.deployment?.containers ?? [];
  const wanted = legacyContainer ?? CONTAINER_NAME;
  const server = containers.find((c) => c.name === wanted) ?? containers[0];
  return text(server?.image);
}

/** What the previous status says was resolved, and for which distribution name (ours and the Go operator's field). */
function previousOf(parent: KubeObject): { active?: string; image?: string } {
  const status = isPlainObject(parent.status) ? parent.status : {};
  const active = isPlainObject(status.distributionConfig)
    ? text(status.distributionConfig.activeDistribution)
    : undefined;
  const image = isPlainObject(status.resolvedDistribution) ? text(status.resolvedDistribution.image) : undefined;
  return { ...(active ? { active } : {}), ...(image ? { image } : {}) };
}

/** `…/distribution-starter` or `…/starter`: an image published for that name. */
function namedFor(image: string, name: string): boolean {
  const last = parseImageRef(image)?.repository.split("/").pop();
  return last === `distribution-${name}` || last === name;
}

/** The image a server already runs for distribution `name`, if one does. */
function runningImage(input: TargetInput, name: string): string | undefined {
  const previous = previousOf(input.parent);
  const containers = input.observed?.deployment?.containers ?? [];
  const deployed = containers.length > 0 ? deploymentImage(input.observed, input.legacyContainer?.()) : undefined;
  if (deployed !== undefined) {
    // The status records the name it ran for; an image published for the name also counts
    // (a cleared status, or a failed sync that recorded a name it never ran).
    const sameName = previous.active === name || namedFor(deployed, name);
    return sameName ? deployed : undefined;
  }
  return previous.active === name ? previous.image : undefined;
}

export function targetImage(input: TargetInput): TargetImage {
  const d = input.spec.distribution;
  if (d.kind === "image") return { image: d.image, notes: [] };
  if (d.kind !== "name") return { notes: [] };
  const entry = findDistribution(d.name, input.table);
  if (entry === undefined) return { notes: [] };
  if (entry.overridden) return { image: entry.image, tableRelease: entry.release, notes: [] };
  if (input.parent.metadata.annotations?.[FOLLOW_DEFAULT_ANNOTATION] === "true")
    return { image: entry.image, notes: [] };
  return keptImage(input, d.name, entry.image) ?? { image: entry.image, notes: [] };
}

/**
 * The image a named distribution keeps instead of the table's: the one running, or the Go
 * operator's for a v1alpha1 CR. A v1alpha1 CR on the Go operator's image gets one note whether it
 * is starting or running, so its status does not change on the resync after its first answer.
 */
function keptImage(input: TargetInput, name: string, tableImage: string): TargetImage | undefined {
  const running = runningImage(input, name);
  const go = findDistribution(name, GO_OPERATOR_DISTRIBUTIONS);
  const goWouldRun = go !== undefined && (running === undefined || running === go.image) && go.image !== tableImage;
  // Asked last, only when it decides: telling a v1alpha1 CR converts its whole spec back.
  if (goWouldRun && input.legacyContainer?.() !== undefined) {
    return {
      image: go.image,
      notes: [
        `spec.distribution.name: a v1alpha1 CR runs the Go operator's image for ${name} (${go.image}); annotate the CR ${FOLLOW_DEFAULT_ANNOTATION}: "true" for the current default (${tableImage})`,
      ],
    };
  }
  if (running === undefined || running === tableImage) return undefined;
  return {
    image: running,
    notes: [
      `spec.distribution.name: ${name} keeps running ${running}, the image this server was started with; the current default for ${name} is ${tableImage}. To move to it, annotate the CR ${FOLLOW_DEFAULT_ANNOTATION}: "true" (or set distribution.image)`,
    ],
  };
}

/** The server container's name if `parent` is a v1alpha1 CR, worked out on the first ask. */
function legacyContainerOf(parent: KubeObject): () => string | undefined {
  let known: { readonly name: string | undefined } | undefined;
  return () => (known ??= { name: legacyOf(parent)?.containerName }).name;
}

/** The target image of the CR a sync request is about (v1alpha1 CRs recognised as lib/sync/legacy.ts does). */
export function targetOfRequest(
  request: SyncRequest,
  spec: CanonicalSpec,
  table: DistributionTable,
  observed: Observed = observedOf(request),
): TargetImage {
  return targetImage({
    parent: request.parent,
    spec,
    table,
    observed,
    legacyContainer: legacyContainerOf(request.parent),
  });
}

/** The line a CR object will run, from its spec, annotations and status alone (admission, `llsd validate`). */
export function lineOfObject(parent: KubeObject, spec: CanonicalSpec, table: DistributionTable): Release {
  const target = targetImage({ parent, spec, table, legacyContainer: legacyContainerOf(parent) });
  return chooseLine({
    ...(target.image ? { image: target.image } : {}),
    ...(target.tableRelease ? { tableRelease: target.tableRelease } : {}),
  }).release;
}

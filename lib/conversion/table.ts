/**
 * The v1alpha1 ⇄ v1alpha2 field table (docs/migrating-from-go-operator.md), one row per
 * field that both versions can hold. A row moves its whole value; a value the target's schema
 * rejects is moved field by field where it is an object (so `storage: {mountPath: ""}` still
 * creates the PVC), and whatever is left rides in the annotation. Rows never nest.
 */
import type { Schema } from "../api/schema-parts";
import { formatPath, isPlainObject, own, type Segments } from "../json";
import { schemaAt, schemaOfFields, V1ALPHA1_BODY, V1ALPHA2_BODY } from "./schemas";

export interface FieldMapping {
  readonly v1alpha1: string;
  readonly v1alpha2: string;
  /**
   * For a v1alpha2 field with more forms than its v1alpha1 twin: the v1alpha1 value a
   * v1alpha2 value means, or undefined when it has none.
   */
  readonly project?: (v1alpha2Value: unknown) => unknown;
}

/** `true`/`false` as they are; `{}` and `{enabled?, hostname?}` mean `enabled`, which defaults to true. */
export function exposeRoute(expose: unknown): unknown {
  if (typeof expose === "boolean") return expose;
  if (!isPlainObject(expose)) return undefined;
  const enabled = own(expose, "enabled");
  return enabled === undefined ? true : enabled;
}

/** In v1alpha2's field order, so a converted object reads like one written by hand. */
export const FIELD_TABLE: readonly FieldMapping[] = [
  { v1alpha1: "spec.server.distribution", v1alpha2: "spec.distribution" },
  { v1alpha1: "spec.server.containerSpec.port", v1alpha2: "spec.networking.port" },
  { v1alpha1: "spec.server.tlsConfig.caBundle", v1alpha2: "spec.networking.tls.caBundle" },
  { v1alpha1: "spec.network.exposeRoute", v1alpha2: "spec.networking.expose", project: exposeRoute },
  { v1alpha1: "spec.network.allowedFrom", v1alpha2: "spec.networking.allowedFrom" },
  { v1alpha1: "spec.replicas", v1alpha2: "spec.workload.replicas" },
  { v1alpha1: "spec.server.workers", v1alpha2: "spec.workload.workers" },
  { v1alpha1: "spec.server.containerSpec.resources", v1alpha2: "spec.workload.resources" },
  { v1alpha1: "spec.server.autoscaling", v1alpha2: "spec.workload.autoscaling" },
  { v1alpha1: "spec.server.storage", v1alpha2: "spec.workload.storage" },
  { v1alpha1: "spec.server.podDisruptionBudget", v1alpha2: "spec.workload.podDisruptionBudget" },
  { v1alpha1: "spec.server.topologySpreadConstraints", v1alpha2: "spec.workload.topologySpreadConstraints" },
  { v1alpha1: "spec.server.podOverrides.serviceAccountName", v1alpha2: "spec.workload.overrides.serviceAccountName" },
  {
    v1alpha1: "spec.server.podOverrides.terminationGracePeriodSeconds",
    v1alpha2: "spec.workload.overrides.terminationGracePeriodSeconds",
  },
  { v1alpha1: "spec.server.containerSpec.env", v1alpha2: "spec.workload.overrides.env" },
  { v1alpha1: "spec.server.containerSpec.command", v1alpha2: "spec.workload.overrides.command" },
  { v1alpha1: "spec.server.containerSpec.args", v1alpha2: "spec.workload.overrides.args" },
  { v1alpha1: "spec.server.podOverrides.volumes", v1alpha2: "spec.workload.overrides.volumes" },
  { v1alpha1: "spec.server.podOverrides.volumeMounts", v1alpha2: "spec.workload.overrides.volumeMounts" },
  { v1alpha1: "spec.server.userConfig", v1alpha2: "spec.overrideConfig" },
  { v1alpha1: "status.phase", v1alpha2: "status.phase" },
  { v1alpha1: "status.observedGeneration", v1alpha2: "status.observedGeneration" },
  { v1alpha1: "status.conditions", v1alpha2: "status.conditions" },
  { v1alpha1: "status.version", v1alpha2: "status.version" },
  { v1alpha1: "status.distributionConfig", v1alpha2: "status.distributionConfig" },
  { v1alpha1: "status.availableReplicas", v1alpha2: "status.availableReplicas" },
  { v1alpha1: "status.serviceURL", v1alpha2: "status.serviceURL" },
  { v1alpha1: "status.routeURL", v1alpha2: "status.routeURL" },
];

/** One row, oriented source → target. */
export interface Pair {
  readonly from: Segments;
  /** `from` formatted (lib/json.ts `formatPath`), as the moved and stashed paths name it. */
  readonly fromPath: string;
  readonly to: Segments;
  /** Source value → target value, for a source with more forms than the target. */
  readonly project?: (value: unknown) => unknown;
  /** The target's schema at `to`; undefined when the target has no such field (nothing moves). */
  readonly toSchema: Schema | undefined;
}

/** A target field whose stashed richer form is put back while it still means what the target says. */
export interface Refinement {
  readonly path: Segments;
  readonly project: (richer: unknown) => unknown;
}

export interface Direction {
  readonly pairs: readonly Pair[];
  /** The target version's `spec` and `status` schema. */
  readonly target: Schema;
  /** Source objects that hold rows (`spec.server`, `spec.server.containerSpec`…): the rows rebuild them. */
  readonly shared: ReadonlySet<string>;
  readonly refinements: readonly Refinement[];
  /** What the target's schema says about the rows' fields and nothing else (`schemaOfFields`). */
  readonly check: Schema;
}

/** One way's rows, into the target version's body schema. */
interface Rows {
  readonly rows: readonly { from: string; to: string; project?: ((value: unknown) => unknown) | undefined }[];
  readonly target: Schema;
  readonly refinements: readonly Refinement[];
}

const split = (path: string): Segments => path.split(".");

function sharedOf(sources: readonly Segments[]): ReadonlySet<string> {
  return new Set(sources.flatMap((path) => path.slice(0, -1).map((_, i) => formatPath(path.slice(0, i + 1)))));
}

/** The rows, oriented, in table order. */
function pairsOf({ rows, target }: Rows): Pair[] {
  return rows.map(({ from, to, project }) => {
    const [fromSegments, toSegments] = [split(from), split(to)];
    return {
      from: fromSegments,
      fromPath: formatPath(fromSegments),
      to: toSegments,
      ...(project ? { project } : {}),
      toSchema: schemaAt(target, toSegments),
    };
  });
}

function directionOf(rows: Rows): Direction {
  const pairs = pairsOf(rows);
  const { target, refinements } = rows;
  const shared = sharedOf(rows.rows.map((row) => split(row.from)));
  return {
    pairs,
    target,
    shared,
    refinements,
    check: schemaOfFields(
      target,
      pairs.map((pair) => pair.to),
    ),
  };
}

export const TO_HUB = directionOf({
  rows: FIELD_TABLE.map((row) => ({ from: row.v1alpha1, to: row.v1alpha2 })),
  target: V1ALPHA2_BODY,
  refinements: FIELD_TABLE.flatMap(({ v1alpha2, project }) => (project ? [{ path: split(v1alpha2), project }] : [])),
});

export const FROM_HUB = directionOf({
  rows: FIELD_TABLE.map(({ v1alpha1, v1alpha2, project }) => ({ from: v1alpha2, to: v1alpha1, project })),
  target: V1ALPHA1_BODY,
  refinements: [],
});

/**
 * v1alpha1 (spoke, the Go operator's API) ⇄ v1alpha2 (hub, storage), spec and status, per the
 * field table in `table.ts`. Lossless both ways: what one version cannot hold rides in an
 * annotation (`annotations.ts`) and comes back on the return trip. Metadata is copied as is,
 * except those two annotations (the apiserver refuses any other metadata change).
 *
 * Which behaviour a CR gets (lib/sync/legacy.ts) follows from `llamastack.io/v1alpha1-fields`
 * on the stored object, and it must survive the apiserver's round trips with defaulting: a
 * v1alpha2 CR read, defaulted and written back through v1alpha1 gains `containerSpec` (from the
 * defaulted `networking.port`) and the v1alpha1 CRD's `containerSpec.name` default. So:
 * - an object written in v1alpha1 without `llamastack.io/v1alpha2-fields` is a v1alpha1 CR:
 *   its v1alpha2 form always carries `llamastack.io/v1alpha1-fields` (`{}` when empty);
 * - a v1alpha2 CR without `llamastack.io/v1alpha1-fields` always reads in v1alpha1 with
 *   `llamastack.io/v1alpha2-fields` (`{}` when empty), and when it comes back, the values the
 *   v1alpha1 CRD filled in by itself are not kept: it stays a v1alpha2 CR with the same spec.
 *
 * Not a validator: an object its own version's schema accepts always converts, because a
 * failed conversion blocks every read of the resource (the apiserver cannot serve it in the
 * requested version). The errors are the few things no conversion can get past, each with its
 * field path.
 */
import { copyJson } from "../json-copy";
import { V1ALPHA1 } from "../api/v1alpha1";
import { KIND, V1ALPHA2 } from "../api/v1alpha2";
import { partsOf, type Conversion } from "./envelope";
import { readStash, V1ALPHA1_FIELDS, V1ALPHA2_FIELDS, writeStash, type Annotations } from "./annotations";
import { carry, restore, type Body, type Stash } from "./carry";
import type { Schema } from "../api/schema-parts";
import { define, own, parsePath, type JsonMap } from "../json";
import { schemaAt, V1ALPHA1_BODY, V1ALPHA2_BODY } from "./schemas";
import { FROM_HUB, TO_HUB, type Direction } from "./table";

export type { Conversion } from "./envelope";

/**
 * What a conversion promises about its result: the envelope. `spec` and `status` hold the
 * source's values, moved, never validated (an object its version refuses still converts).
 */
export interface Converted<V extends string> {
  readonly apiVersion: V;
  readonly kind: typeof KIND;
  readonly metadata: JsonMap;
  readonly spec: JsonMap;
  readonly status?: JsonMap;
  /** Top-level fields neither version defines, as they came. */
  readonly [field: string]: unknown;
}

interface Way<V extends string> {
  readonly from: string;
  readonly to: V;
  readonly direction: Direction;
  /** The annotation the previous conversion wrote: read, put back, removed. */
  readonly restores: string;
  /** The annotation this conversion writes. */
  readonly keeps: string;
  /** The source version's `spec` and `status` schema (its CRD defaults). */
  readonly sourceSchema: Schema;
}

const TO_HUB_WAY: Way<typeof V1ALPHA2> = {
  from: V1ALPHA1,
  to: V1ALPHA2,
  direction: TO_HUB,
  restores: V1ALPHA2_FIELDS,
  keeps: V1ALPHA1_FIELDS,
  sourceSchema: V1ALPHA1_BODY,
};
const FROM_HUB_WAY: Way<typeof V1ALPHA1> = {
  from: V1ALPHA2,
  to: V1ALPHA1,
  direction: FROM_HUB,
  restores: V1ALPHA1_FIELDS,
  keeps: V1ALPHA2_FIELDS,
  sourceSchema: V1ALPHA2_BODY,
};

/** The entries that are not just the source CRD's `default:` at their path (the apiserver fills those in itself). */
function withoutDefaults(stash: Stash, schema: Schema): Stash {
  const isDefault = (path: string, value: unknown): boolean => {
    const segments = parsePath(path);
    const fallback = segments ? own(schemaAt(schema, segments), "default") : undefined;
    return fallback !== undefined && JSON.stringify(fallback) === JSON.stringify(value);
  };
  return new Map([...stash].filter(([path, value]) => !isDefault(path, value)));
}

export interface ConvertOptions {
  /**
   * The caller hands the object over and never reads it again (the webhook, with the request
   * it has just parsed): the result then shares its parts instead of copying spec and status,
   * and the object may be changed. @default false: the object is left as it was
   */
  readonly consume?: boolean;
}

/** A `llamastack.io/v1alpha1` object → the same object in `llamastack.io/v1alpha2`. */
export function toHub(object: unknown, options: ConvertOptions = {}): Conversion<Converted<typeof V1ALPHA2>> {
  return convert(object, TO_HUB_WAY, options);
}

/** A `llamastack.io/v1alpha2` object → the same object in `llamastack.io/v1alpha1`. */
export function fromHub(object: unknown, options: ConvertOptions = {}): Conversion<Converted<typeof V1ALPHA1>> {
  return convert(object, FROM_HUB_WAY, options);
}

/** Compiles the schemas a typical webhook conversion consults (a few hundred ms, once per process). */
export function warmUpConversion(): void {
  const metadata = { name: "warm-up", namespace: "default" };
  const server = { distribution: { name: "starter" }, containerSpec: { name: "llama-stack", port: 8321 }, storage: {} };
  const spec = { replicas: 1, server };
  const hub = toHub({ apiVersion: V1ALPHA1, kind: KIND, metadata, spec, status: { phase: "Ready" } });
  if (hub.ok) fromHub(hub.object);
}

function convert<V extends string>(object: unknown, way: Way<V>, options: ConvertOptions): Conversion<Converted<V>> {
  const parts = partsOf(object, way.from);
  if (!parts.ok) return parts;
  // Moved values end up in the result, and `restore` writes into them: unless the caller hands
  // the object over, spec and status are copied, never shared with the caller's object. The
  // rest (metadata such as managedFields) passes through untouched, shared.
  const { metadata, annotations } = parts.object;
  const source = options.consume === true ? parts.object.source : bodyCopy(parts.object.source);
  const saved = readStash(annotations, way.restores);
  if (!saved.ok) return { ok: false, errors: [saved.error] };
  const { body, stash } = carry(source, way.direction);
  restore(body, saved.value, way.direction);
  // The other version's annotation came along: the object belongs to that version's path.
  const marked = own(annotations, way.restores) !== undefined;
  const kept = marked ? withoutDefaults(stash, way.sourceSchema) : stash;
  const written = writeStash(annotations, { consumed: way.restores, key: way.keeps, stash: kept, always: !marked });
  if (!written.ok) return { ok: false, errors: [written.error] };
  return { ok: true, object: assemble(way.to, source, body, withAnnotations(metadata, written.value)) };
}

/** `object` with its own copy of spec and status (the parts conversion moves and rewrites). */
function bodyCopy(object: JsonMap): JsonMap {
  const copy: JsonMap = { ...object };
  for (const key of ["spec", "status"]) if (object[key] !== undefined) define(copy, key, copyJson(object[key]));
  return copy;
}

/** The converted object: the envelope, then spec and status, then whatever else the source had. */
function assemble<V extends string>(apiVersion: V, source: JsonMap, body: Body, metadata: JsonMap): Converted<V> {
  const converted: Converted<V> = {
    apiVersion,
    kind: KIND,
    metadata,
    spec: body.spec,
    ...(body.status === undefined ? {} : { status: body.status }),
  };
  // Top-level fields neither version defines are not ours to judge: the apiserver prunes them.
  for (const key of Object.keys(source)) {
    if (!["apiVersion", "kind", "metadata", "spec", "status"].includes(key)) define(converted, key, own(source, key));
  }
  return converted;
}

function withAnnotations(metadata: JsonMap, annotations: Annotations | undefined): JsonMap {
  const out: JsonMap = {};
  for (const key of Object.keys(metadata)) if (key !== "annotations") define(out, key, own(metadata, key));
  if (annotations !== undefined) define(out, "annotations", annotations);
  return out;
}

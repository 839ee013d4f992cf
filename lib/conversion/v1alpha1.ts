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
 * failed conversion blocks every read of the resource (research metacontroller.md §8). The
 * errors are the few things no conversion can get past, each with its field path.
 */
import { fieldError, type FieldError } from "../errors";
import { V1ALPHA1, type LlamaStackDistributionV1alpha1 } from "../api/v1alpha1";
import { KIND, V1ALPHA2, type LlamaStackDistributionV1alpha2 } from "../api/v1alpha2";
import { readStash, V1ALPHA1_FIELDS, V1ALPHA2_FIELDS, writeStash, type Annotations } from "./annotations";
import type { Stash } from "./carry";
import { carry, restore } from "./carry";
import type { Schema } from "../api/schema-parts";
import { define, isPlainObject, own, parsePath, type JsonMap } from "./paths";
import { schemaAt, V1ALPHA1_BODY, V1ALPHA2_BODY } from "./schemas";
import { FROM_HUB, TO_HUB, type Direction } from "./table";

export type Conversion<T> =
  { readonly ok: true; readonly object: T } | { readonly ok: false; readonly errors: readonly FieldError[] };

interface Way {
  readonly from: string;
  readonly to: string;
  readonly direction: Direction;
  /** The annotation the previous conversion wrote: read, put back, removed. */
  readonly restores: string;
  /** The annotation this conversion writes. */
  readonly keeps: string;
  /** The source version's `spec` and `status` schema (its CRD defaults). */
  readonly sourceSchema: Schema;
}

const TO_HUB_WAY: Way = {
  from: V1ALPHA1,
  to: V1ALPHA2,
  direction: TO_HUB,
  restores: V1ALPHA2_FIELDS,
  keeps: V1ALPHA1_FIELDS,
  sourceSchema: V1ALPHA1_BODY,
};
const FROM_HUB_WAY: Way = {
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

/** A `llamastack.io/v1alpha1` object → the same object in `llamastack.io/v1alpha2`. */
export function toHub(object: unknown): Conversion<LlamaStackDistributionV1alpha2> {
  return convert(object, TO_HUB_WAY) as Conversion<LlamaStackDistributionV1alpha2>;
}

/** A `llamastack.io/v1alpha2` object → the same object in `llamastack.io/v1alpha1`. */
export function fromHub(object: unknown): Conversion<LlamaStackDistributionV1alpha1> {
  return convert(object, FROM_HUB_WAY) as Conversion<LlamaStackDistributionV1alpha1>;
}

/** Compiles the schemas a typical conversion consults (a few hundred ms, once per process). */
export function warmUpConversion(): void {
  const metadata = { name: "warm-up", namespace: "default" };
  const server = { distribution: { name: "starter" }, containerSpec: { name: "llama-stack", port: 8321 }, storage: {} };
  const hub = toHub({
    apiVersion: V1ALPHA1,
    kind: KIND,
    metadata,
    spec: { replicas: 1, server },
    status: { phase: "Ready" },
  });
  if (hub.ok) fromHub(hub.object);
}

function convert(object: unknown, way: Way): Conversion<JsonMap> {
  const errors = envelopeErrors(object, way.from);
  if (errors.length > 0) return { ok: false, errors };
  // Moved values end up in the result: never share them with the caller's object.
  const source = structuredClone(object) as JsonMap;
  const metadata = source.metadata as JsonMap;
  const annotations = own(metadata, "annotations") as Annotations | undefined;
  const saved = readStash(annotations, way.restores);
  if (!saved.ok) return { ok: false, errors: [saved.error] };
  const { body, stash } = carry(source, way.direction);
  restore(body, saved.value, way.direction);
  // The other version's annotation came along: the object belongs to that version's path.
  const marked = own(annotations, way.restores) !== undefined;
  const kept = marked ? withoutDefaults(stash, way.sourceSchema) : stash;
  const written = writeStash(annotations, way.restores, way.keeps, kept, !marked);
  if (!written.ok) return { ok: false, errors: [written.error] };

  const converted: JsonMap = { apiVersion: way.to, kind: KIND, metadata: withAnnotations(metadata, written.value) };
  for (const key of Object.keys(body)) define(converted, key, own(body, key));
  // Top-level fields neither version defines are not ours to judge: the apiserver prunes them.
  for (const key of Object.keys(source)) {
    if (!["apiVersion", "kind", "metadata", "spec", "status"].includes(key)) define(converted, key, own(source, key));
  }
  return { ok: true, object: converted };
}

function withAnnotations(metadata: JsonMap, annotations: Annotations | undefined): JsonMap {
  const out: JsonMap = {};
  for (const key of Object.keys(metadata)) if (key !== "annotations") define(out, key, own(metadata, key));
  if (annotations !== undefined) define(out, "annotations", annotations);
  return out;
}

function envelopeErrors(object: unknown, apiVersion: string): FieldError[] {
  if (!isPlainObject(object)) return [fieldError("(root)", `must be a ${KIND} object, got ${typeName(object)}`)];
  const errors: FieldError[] = [];
  const got = own(object, "apiVersion");
  if (got !== apiVersion) errors.push(fieldError("apiVersion", `must be "${apiVersion}", got ${shortJson(got)}`));
  if (own(object, "kind") !== KIND)
    errors.push(fieldError("kind", `must be "${KIND}", got ${shortJson(own(object, "kind"))}`));
  const metadata = own(object, "metadata");
  if (!isPlainObject(metadata)) errors.push(fieldError("metadata", `must be an object, got ${typeName(metadata)}`));
  const annotations = own(metadata, "annotations");
  if (
    annotations !== undefined &&
    !(isPlainObject(annotations) && Object.values(annotations).every((v) => typeof v === "string"))
  ) {
    errors.push(fieldError("metadata.annotations", "must map names to string values"));
  }
  if (!isPlainObject(own(object, "spec")))
    errors.push(fieldError("spec", `is required and must be an object, got ${typeName(own(object, "spec"))}`));
  const status = own(object, "status");
  if (status !== undefined && !isPlainObject(status))
    errors.push(fieldError("status", `must be an object, got ${typeName(status)}`));
  return errors;
}

export function typeName(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  return Array.isArray(value) ? "a list" : `a ${typeof value}`;
}

/** A short JSON rendering for messages (apiVersion and kind strings, never spec values). */
export function shortJson(value: unknown): string {
  if (value === undefined) return "nothing";
  const text = JSON.stringify(value) ?? typeName(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

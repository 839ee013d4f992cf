/**
 * `llsd convert` between our LlamaStackDistribution and the peer operator's OGXServer
 * (`ogx.io/v1beta1`): `toOgxServer` and `fromOgxServer`, pure, each with the warnings of every
 * semantic difference (naming the field). Lossless both ways: a conversion A → B keeps what
 * coming back would not restore in an annotation on B (changes.ts), so A → B → A gives A back:
 *
 *   llamastack.io/llsd-fields       on an OGXServer: what its LLSD form had that it cannot hold
 *   llamastack.io/ogxserver-fields  on an LLSD: what its OGXServer form had that it cannot hold
 *
 * Metadata is copied as it is, except those two annotations; status is not converted (it rides
 * in the annotation). No `ogx.io` object is ever served by the hooks: this is the CLI's.
 */
import { fieldError, type FieldError } from "../errors";
import { V1ALPHA1 } from "../api/v1alpha1";
import { KIND, V1ALPHA2 } from "../api/v1alpha2";
import { writeStash, type Annotations } from "../conversion/annotations";
import { isPlainObject, isStringMap, type JsonMap, own } from "../json";
import { toHub } from "../conversion/v1alpha1";
import { copyJson } from "../json-copy";
import { applyChanges, changesBetween, readChanges } from "./changes";
import { OGX_API_VERSION, OGX_KIND } from "./schema";
import { ogxSchemaErrors } from "./schema-errors";
import { specFromOgx } from "./spec-from";
import { specToOgx } from "./spec-to";

export const LLSD_FIELDS = "llamastack.io/llsd-fields";
export const OGXSERVER_FIELDS = "llamastack.io/ogxserver-fields";

export type OgxConversion =
  | { readonly ok: true; readonly object: JsonMap; readonly warnings: readonly FieldError[] }
  | { readonly ok: false; readonly errors: readonly FieldError[] };

type SpecMap = (spec: JsonMap) => { spec: JsonMap; warnings: FieldError[] };

interface Way {
  readonly to: string;
  readonly kind: string;
  readonly forward: SpecMap;
  readonly backward: SpecMap;
  /** The annotation the previous conversion wrote on the source: read, applied, removed. */
  readonly restores: string;
  /** The annotation this conversion writes. */
  readonly keeps: string;
}

const TO_OGX: Way = {
  to: OGX_API_VERSION,
  kind: OGX_KIND,
  forward: specToOgx,
  backward: specFromOgx,
  restores: OGXSERVER_FIELDS,
  keeps: LLSD_FIELDS,
};
const FROM_OGX: Way = {
  to: V1ALPHA2,
  kind: KIND,
  forward: specFromOgx,
  backward: specToOgx,
  restores: LLSD_FIELDS,
  keeps: OGXSERVER_FIELDS,
};

/** The source's metadata without its annotations, and its annotations (checked to be strings by the caller). */
function metadataOf(source: JsonMap): { rest: JsonMap; annotations: Annotations | undefined } {
  const { annotations, ...rest } = isPlainObject(source.metadata) ? source.metadata : {};
  return { rest, annotations: isStringMap(annotations) ? annotations : undefined };
}

/** `source` is known to be a sound object of its API (spec an object, string annotations). */
function convertWay(source: JsonMap, way: Way): OgxConversion {
  const { rest, annotations } = metadataOf(source);
  const prior = readChanges(annotations, way.restores);
  if ("error" in prior) return { ok: false, errors: [prior.error] };
  const spec = copyJson(isPlainObject(source.spec) ? source.spec : {});
  const forward = way.forward(spec);
  // A copy: the forward map may hand back parts of `spec`, which the changes must not touch.
  const body: JsonMap = { spec: copyJson(forward.spec) };
  applyChanges(body, prior.changes);
  const back = way.backward(isPlainObject(body.spec) ? body.spec : {});
  const original = source.status === undefined ? { spec } : { spec, status: source.status };
  const kept = changesBetween({ spec: back.spec }, original);
  const written = writeStash(annotations, { consumed: way.restores, key: way.keeps, stash: kept, always: false });
  if (!written.ok) return { ok: false, errors: [written.error] };
  const metadata = copyJson(written.value === undefined ? rest : { ...rest, annotations: written.value });
  const object: JsonMap = { apiVersion: way.to, kind: way.kind, metadata, spec: body.spec };
  if (body.status !== undefined) object.status = body.status;
  return { ok: true, object, warnings: forward.warnings };
}

function envelopeErrors(object: JsonMap, kind: string): FieldError[] {
  const annotations = own(object.metadata, "annotations");
  return [
    ...(object.kind === kind ? [] : [fieldError("kind", `must be ${kind}`)]),
    ...(isPlainObject(object.metadata) ? [] : [fieldError("metadata", "must be an object")]),
    ...(annotations === undefined || isStringMap(annotations)
      ? []
      : [fieldError("metadata.annotations", "must map names to string values")]),
  ];
}

/**
 * A LlamaStackDistribution (v1alpha1 or v1alpha2) → an OGXServer of the same name. Not a
 * validator (as lib/conversion/v1alpha1.ts): the CLI checks the source against its schema first.
 * The result may be one the peer refuses (our schema takes values its rules do not, e.g. an empty
 * CA key): `ogxServerErrors` says what, and `llsd convert` refuses it.
 */
export function toOgxServer(object: unknown): OgxConversion {
  if (!isPlainObject(object)) return { ok: false, errors: [fieldError("(root)", `must be a ${KIND} object`)] };
  const hub = object.apiVersion === V1ALPHA1 ? toHub(object) : { ok: true as const, object };
  if (!hub.ok) return hub;
  const source: JsonMap = { ...hub.object };
  const errors = [
    ...(source.apiVersion === V1ALPHA2 ? [] : [fieldError("apiVersion", `must be ${V1ALPHA1} or ${V1ALPHA2}`)]),
    ...envelopeErrors(source, KIND),
  ];
  return errors.length > 0 ? { ok: false, errors } : convertWay(source, TO_OGX);
}

/**
 * An OGXServer → a LlamaStackDistribution v1alpha2 of the same name (what `llsd migrate --from
 * ogxserver` builds on). Like `toOgxServer`, not a validator: any object with a sound envelope
 * converts, and losslessly; `ogxServerErrors` says what the peer would refuse in it.
 */
export function fromOgxServer(object: unknown): OgxConversion {
  if (!isPlainObject(object)) return { ok: false, errors: [fieldError("(root)", `must be an ${OGX_KIND} object`)] };
  const errors = [
    ...(object.apiVersion === OGX_API_VERSION ? [] : [fieldError("apiVersion", `must be ${OGX_API_VERSION}`)]),
    ...envelopeErrors(object, OGX_KIND),
  ];
  return errors.length > 0 ? { ok: false, errors } : convertWay(object, FROM_OGX);
}

/** What the peer's API refuses in an OGXServer (lib/ogx/schema.ts), as field errors: the CLI's check on both sides. */
export function ogxServerErrors(object: unknown): FieldError[] {
  return ogxSchemaErrors(object);
}
